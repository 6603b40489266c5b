// OpenCL 1.x atomics: the 32-bit atomic_* functions and the 64-bit atom_*
// of cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics (where the
// device offers them), on __global and __local memory, with every work-item
// contending. Results are checked against what the host computes from the
// same inputs: sums, extremes, bit masks, counts and permutations. The
// __local kernels also write ints, bytes and 32-bit atomics beside their
// counters, which a device may lay out differently once 64-bit atomics are
// in the same __local memory (the vulkan target keeps such memory in 64-bit
// words). Compare-exchange loops are tests of their own: lavapipe runs an
// atomic in a loop wrongly once the sub-groups of a work-group leave the
// loop at different iterations (doc/targets/vulkan.md).
#include "cl_test.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

using namespace cltest;

namespace {

constexpr size_t kWorkItems = 1024;
constexpr size_t kGroupSize = 64;
constexpr size_t kGroups = kWorkItems / kGroupSize;
constexpr size_t kCounters = 9;
constexpr size_t kOldsPerItem = 3;

constexpr const char *kSource = R"(
#define BITS (sizeof(T) * 8)
// Every work-item tries to swap 0 for its id + 1 in c[8]: one wins.
#define APPLY(c, olds, v, id)                                           \
  olds[gid * 3 + 0] = F(add)(&c[0], v);                                 \
  olds[gid * 3 + 1] = F(xchg)(&c[1], (T)(id + 1));                      \
  F(min)(&c[2], v);                                                     \
  F(max)(&c[3], v);                                                     \
  F(or)(&c[4], (T)1 << (id % BITS));                                    \
  F(and)(&c[5], ~((T)1 << (id % BITS)));                                \
  F(inc)(&c[6]);                                                        \
  F(sub)(&c[7], v);                                                     \
  olds[gid * 3 + 2] = F(cmpxchg)(&c[8], (T)0, (T)(id + 1));

kernel void global_ops(global T *c, global T *olds, global const T *values) {
  size_t gid = get_global_id(0);
  APPLY(c, olds, values[gid], gid);
}

// Besides the counters: an int and a byte per work-item, and three 32-bit
// masks changed by atomic or, and and xor, in the same __local memory.
kernel void local_ops(global T *finals, global T *olds, global const T *values, global const T *initial,
                      global uint *narrow) {
  local T c[9];
  local int ints[64];
  local uchar tags[64];
  local uint masks[3];
  size_t gid = get_global_id(0), lid = get_local_id(0);
  if (lid < 9)
    c[lid] = initial[lid];
  if (lid < 3)
    masks[lid] = lid == 1 ? 0xffffffffu : 0u;
  ints[lid] = (int)lid * 3 + 1;
  tags[lid] = (uchar)(lid ^ 0x5a);
  barrier(CLK_LOCAL_MEM_FENCE);
  APPLY(c, olds, values[gid], lid);
  atomic_or(&masks[0], 1u << (lid % 32));
  atomic_and(&masks[1], ~(1u << (lid % 32)));
  if (lid < 48)
    atomic_xor(&masks[2], 1u << (lid % 32));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 9)
    finals[get_group_id(0) * 9 + lid] = c[lid];
  narrow[gid * 2] = tags[63 - lid];
  narrow[gid * 2 + 1] = (uint)ints[63 - lid];
  if (lid < 3)
    narrow[get_global_size(0) * 2 + get_group_id(0) * 3 + lid] = masks[lid];
}

// Compare-exchange loops that count, in __global and __local memory, and
// 32-bit __local atomics (besides T's).
kernel void spin_ops(global T *counter, global T *finals, global uint *narrow) {
  local T local_counter;
  local int counts[2];
  size_t lid = get_local_id(0);
  if (lid == 0)
    local_counter = 0;
  if (lid < 2)
    counts[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (T seen = F(add)(counter, (T)0);;) {
    T before = F(cmpxchg)(counter, seen, seen + (T)1);
    if (before == seen)
      break;
    seen = before;
  }
  for (T seen = F(add)(&local_counter, (T)0);;) {
    T before = F(cmpxchg)(&local_counter, seen, seen + (T)1);
    if (before == seen)
      break;
    seen = before;
  }
  atomic_inc(&counts[0]);
  atomic_add(&counts[1], (int)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    finals[get_group_id(0)] = local_counter;
  if (lid < 2)
    narrow[get_group_id(0) * 2 + lid] = (uint)counts[lid];
}
)";

/// OpenCL 1.x names its 32-bit atomics atomic_*, the 64-bit ones atom_*.
template <typename T> constexpr const char *atomicPrefix() { return sizeof(T) == 8 ? "atom_" : "atomic_"; }

template <typename T> std::vector<T> initialCounters() {
  return {T(5), 0, std::numeric_limits<T>::max(), std::numeric_limits<T>::min(), 0, T(~T(0)), 0, T(100), 0};
}

class AtomicsTest : public DeviceTest {
protected:
  template <typename T> bool hasAtomics() {
    return sizeof(T) == 4 || (deviceHasExtension(device(), "cl_khr_int64_base_atomics") &&
                              deviceHasExtension(device(), "cl_khr_int64_extended_atomics"));
  }
  template <typename T> static std::string source() {
    std::string header =
        std::string("#define T ") + clTypeName<T>() + "\n#define F(op) " + atomicPrefix<T>() + "##op\n";
    if (sizeof(T) == 8)
      header += "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n";
    return header + kSource;
  }

  template <typename T> void run() {
    SCOPED_TRACE(clTypeName<T>());
    if (!hasAtomics<T>())
      GTEST_SKIP() << "the device has no 64-bit atomics";
    Program program = build(source<T>());
    ASSERT_TRUE(program);

    std::mt19937_64 random(7 + sizeof(T));
    std::vector<T> values(kWorkItems);
    for (T &value : values)
      value = static_cast<T>(random());
    const std::vector<T> initial = initialCounters<T>();
    Mem valuesBuffer = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kWorkItems * sizeof(T), values.data());
    Mem olds = buffer(CL_MEM_READ_WRITE, kWorkItems * kOldsPerItem * sizeof(T));
    size_t global = kWorkItems, local = kGroupSize;

    {
      SCOPED_TRACE("__global");
      Mem counters =
          buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kCounters * sizeof(T), const_cast<T *>(initial.data()));
      Kernel k = kernel(program, "global_ops");
      setArgs(k, counters.get(), olds.get(), valuesBuffer.get());
      ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
      check<T>(initial, read<T>(counters, kCounters).data(), read<T>(olds, kWorkItems * kOldsPerItem).data(),
               values.data(), kWorkItems);
    }
    {
      SCOPED_TRACE("__local");
      Mem initialBuffer =
          buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kCounters * sizeof(T), const_cast<T *>(initial.data()));
      Mem finals = buffer(CL_MEM_READ_WRITE, kGroups * kCounters * sizeof(T));
      Mem narrow = buffer(CL_MEM_READ_WRITE, (kWorkItems * 2 + kGroups * 3) * sizeof(cl_uint));
      Kernel k = kernel(program, "local_ops");
      setArgs(k, finals.get(), olds.get(), valuesBuffer.get(), initialBuffer.get(), narrow.get());
      ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
      std::vector<T> finalValues = read<T>(finals, kGroups * kCounters);
      std::vector<T> oldValues = read<T>(olds, kWorkItems * kOldsPerItem);
      std::vector<cl_uint> narrowValues = read<cl_uint>(narrow, kWorkItems * 2 + kGroups * 3);
      for (size_t group = 0; group < kGroups; ++group) {
        SCOPED_TRACE("work-group " + std::to_string(group));
        check<T>(initial, &finalValues[group * kCounters], &oldValues[group * kGroupSize * kOldsPerItem],
                 &values[group * kGroupSize], kGroupSize);
        for (size_t lid = 0; lid < kGroupSize; ++lid) {
          const size_t other = kGroupSize - 1 - lid, item = group * kGroupSize + lid;
          ASSERT_EQ(narrowValues[item * 2], other ^ 0x5a) << "byte " << lid;
          ASSERT_EQ(narrowValues[item * 2 + 1], other * 3 + 1) << "int " << lid;
        }
        // 64 work-items: every bit set twice (or) and cleared (and); the
        // first 48 flip bits 0-15 twice and bits 16-31 once (xor).
        const cl_uint *masks = &narrowValues[kWorkItems * 2 + group * 3];
        EXPECT_EQ(masks[0], 0xffffffffu) << "atomic_or of a uint";
        EXPECT_EQ(masks[1], 0u) << "atomic_and of a uint";
        EXPECT_EQ(masks[2], 0xffff0000u) << "atomic_xor of a uint";
      }
    }
  }

  template <typename T> void compareExchangeLoops() {
    SCOPED_TRACE(clTypeName<T>());
    if (!hasAtomics<T>())
      GTEST_SKIP() << "the device has no 64-bit atomics";
    Program program = build(source<T>());
    ASSERT_TRUE(program);
    const std::vector<T> zero{0};
    Mem counter = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(T), const_cast<T *>(zero.data()));
    Mem finals = buffer(CL_MEM_READ_WRITE, kGroups * sizeof(T));
    Mem narrow = buffer(CL_MEM_READ_WRITE, kGroups * 2 * sizeof(cl_uint));
    Kernel k = kernel(program, "spin_ops");
    setArgs(k, counter.get(), finals.get(), narrow.get());
    size_t global = kWorkItems, local = kGroupSize;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    EXPECT_EQ(read<T>(counter, 1)[0], static_cast<T>(kWorkItems)) << "__global";
    std::vector<T> finalValues = read<T>(finals, kGroups);
    std::vector<cl_uint> narrowValues = read<cl_uint>(narrow, kGroups * 2);
    for (size_t group = 0; group < kGroups; ++group) {
      SCOPED_TRACE("work-group " + std::to_string(group));
      EXPECT_EQ(finalValues[group], static_cast<T>(kGroupSize)) << "__local";
      EXPECT_EQ(narrowValues[group * 2], kGroupSize) << "atomic_inc of an int";
      EXPECT_EQ(narrowValues[group * 2 + 1], kGroupSize * (kGroupSize - 1) / 2) << "atomic_add of an int";
    }
  }

  /// `count` work-items (ids 0..count-1 within the counters' scope) applied
  /// APPLY to counters that started at `initial`.
  template <typename T>
  static void check(const std::vector<T> &initial, const T *finals, const T *olds, const T *values, size_t count) {
    constexpr size_t bits = sizeof(T) * 8;
    T sum = initial[0], difference = initial[7], smallest = initial[2], largest = initial[3];
    for (size_t i = 0; i < count; ++i) {
      sum = static_cast<T>(sum + values[i]);
      difference = static_cast<T>(difference - values[i]);
      smallest = std::min(smallest, values[i]);
      largest = std::max(largest, values[i]);
    }
    EXPECT_EQ(finals[0], sum) << "add";
    EXPECT_EQ(finals[2], smallest) << "min";
    EXPECT_EQ(finals[3], largest) << "max";
    T everyBit = count >= bits ? T(~T(0)) : static_cast<T>((T(1) << count) - 1);
    EXPECT_EQ(finals[4], everyBit) << "or";
    EXPECT_EQ(finals[5], T(~everyBit)) << "and";
    EXPECT_EQ(finals[6], static_cast<T>(count)) << "inc";
    EXPECT_EQ(finals[7], difference) << "sub";
    // The one compare-exchange that found 0 stored its id + 1, which every
    // other one found.
    size_t winners = 0;
    for (size_t i = 0; i < count; ++i) {
      T old = olds[i * kOldsPerItem + 2];
      if (old == 0) {
        ++winners;
        EXPECT_EQ(finals[8], static_cast<T>(i + 1)) << "cmpxchg stored another value than the winner's";
      } else {
        EXPECT_EQ(old, finals[8]) << "cmpxchg " << i << " saw a value never stored";
      }
    }
    EXPECT_EQ(winners, 1u) << "cmpxchg";
    // Each add saw a distinct partial sum: their old values, with each own
    // value added, are the partial sums after it; exchange hands every id
    // out exactly once.
    std::vector<T> exchanged{finals[1]};
    std::vector<T> addsBefore, addsAfter{initial[0]};
    for (size_t i = 0; i < count; ++i) {
      exchanged.push_back(olds[i * kOldsPerItem + 1]);
      addsBefore.push_back(olds[i * kOldsPerItem]);
      addsAfter.push_back(static_cast<T>(olds[i * kOldsPerItem] + values[i]));
    }
    addsBefore.push_back(finals[0]);
    std::sort(addsBefore.begin(), addsBefore.end());
    std::sort(addsAfter.begin(), addsAfter.end());
    EXPECT_EQ(addsBefore, addsAfter) << "add's old values are not a chain of partial sums";
    std::sort(exchanged.begin(), exchanged.end());
    for (size_t i = 0; i <= count; ++i)
      ASSERT_EQ(exchanged[i], static_cast<T>(i)) << "xchg lost or duplicated a value";
  }
};

TEST_P(AtomicsTest, Int) { run<cl_int>(); }
TEST_P(AtomicsTest, UInt) { run<cl_uint>(); }
TEST_P(AtomicsTest, Long) { run<cl_long>(); }
TEST_P(AtomicsTest, ULong) { run<cl_ulong>(); }
TEST_P(AtomicsTest, CompareExchangeLoopsInt) { compareExchangeLoops<cl_int>(); }
TEST_P(AtomicsTest, CompareExchangeLoopsLong) { compareExchangeLoops<cl_long>(); }

CLTEST_INSTANTIATE(AtomicsTest);

} // namespace
