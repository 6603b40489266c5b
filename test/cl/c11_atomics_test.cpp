// OpenCL C 2.0/3.0 atomics: every operation on atomic_int/uint/long/ulong
// (and float/double where OpenCL C allows) in global and local memory with
// many work-items contending, checked against host-computed results; every
// memory order and scope form; atomic_work_item_fence; and the device's
// atomic capabilities against its OpenCL C feature macros.
#include "cl_test.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>

using namespace cltest;

namespace {

constexpr size_t kWorkItems = 4096;
constexpr size_t kGroupSize = 64;
constexpr size_t kGroups = kWorkItems / kGroupSize;

struct FeatureBit {
  const char *feature;
  cl_device_atomic_capabilities bit;
};
constexpr FeatureBit kFeatureBits[] = {
    {"__opencl_c_atomic_order_acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
    {"__opencl_c_atomic_order_seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
    {"__opencl_c_atomic_scope_device", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
    {"__opencl_c_atomic_scope_all_devices", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
};

class C11AtomicsTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!deviceSupportsOpenCLC(device(), 3, 0))
      GTEST_SKIP() << "no OpenCL C 3.0";
    for (const cl_name_version &feature : deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_FEATURES))
      features_.emplace_back(feature.name);
    memoryCaps_ = deviceInfo<cl_device_atomic_capabilities>(device(), CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    fenceCaps_ = deviceInfo<cl_device_atomic_capabilities>(device(), CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  }
  bool hasFeature(std::string_view name) const {
    return std::find(features_.begin(), features_.end(), name) != features_.end();
  }
  Program build3(const std::string &source) { return build(source, "-cl-std=CL3.0"); }
  void run1D(cl_kernel k, size_t global, size_t local) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
  template <typename T> Mem buffer(const std::vector<T> &values) {
    return DeviceTest::buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T),
                              const_cast<T *>(values.data()));
  }

  std::vector<std::string> features_;
  cl_device_atomic_capabilities memoryCaps_ = 0;
  cl_device_atomic_capabilities fenceCaps_ = 0;
};

template <typename T> struct TypeNames;
template <> struct TypeNames<cl_int> {
  static constexpr const char *type = "int";
  static constexpr const char *atomic = "atomic_int";
};
template <> struct TypeNames<cl_uint> {
  static constexpr const char *type = "uint";
  static constexpr const char *atomic = "atomic_uint";
};
template <> struct TypeNames<cl_long> {
  static constexpr const char *type = "long";
  static constexpr const char *atomic = "atomic_long";
};
template <> struct TypeNames<cl_ulong> {
  static constexpr const char *type = "ulong";
  static constexpr const char *atomic = "atomic_ulong";
};
template <> struct TypeNames<cl_float> {
  static constexpr const char *type = "float";
  static constexpr const char *atomic = "atomic_float";
};
template <> struct TypeNames<cl_double> {
  static constexpr const char *type = "double";
  static constexpr const char *atomic = "atomic_double";
};

template <typename T> std::string typeDefines() {
  return std::string("#define T ") + TypeNames<T>::type + "\n#define AT " + TypeNames<T>::atomic + "\n";
}

// Each work-item applies every fetch operation once to shared counters;
// `SPACE` selects global counters or per-work-group __local ones.
constexpr const char *kFetchOpsSource = R"(
#define BITS (sizeof(T) * 8)
// A macro rather than a function: without the generic address space a
// function cannot take both global and local atomics.
#define APPLY(counters, olds, v, gid)                                                                              \
  olds[gid * 7 + 0] = atomic_fetch_add(&counters[0], (T)1);                                                        \
  olds[gid * 7 + 1] = atomic_fetch_sub_explicit(&counters[1], v, memory_order_relaxed);                            \
  olds[gid * 7 + 2] = atomic_fetch_or_explicit(&counters[2], (T)1 << (gid % BITS), memory_order_acq_rel,          \
                                               memory_scope_device);                                              \
  olds[gid * 7 + 3] = atomic_fetch_and(&counters[3], ~((T)1 << (gid % BITS)));                                    \
  olds[gid * 7 + 4] = atomic_fetch_xor_explicit(&counters[4], v, memory_order_seq_cst, memory_scope_work_group);  \
  olds[gid * 7 + 5] = atomic_fetch_min(&counters[5], v);                                                          \
  olds[gid * 7 + 6] = atomic_fetch_max_explicit(&counters[6], v, memory_order_release);
kernel void global_ops(global AT *counters, global T *olds, global const T *values) {
  size_t gid = get_global_id(0);
  APPLY(counters, olds, values[gid], gid);
}
kernel void local_ops(global T *finals, global T *olds, global const T *values, global const T *initial) {
  local AT counters[7];
  size_t gid = get_global_id(0);
  if (get_local_id(0) < 7)
    atomic_init(&counters[get_local_id(0)], initial[get_local_id(0)]);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  APPLY(counters, olds, values[gid], gid);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) < 7)
    finals[get_group_id(0) * 7 + get_local_id(0)] =
        atomic_load_explicit(&counters[get_local_id(0)], memory_order_relaxed, memory_scope_work_group);
}
)";

template <typename T> std::vector<T> randomValues(size_t count, uint32_t seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(count);
  for (T &value : values)
    value = static_cast<T>(random());
  // Make sure both signs (and both halves of the unsigned range) occur.
  values[0] = std::numeric_limits<T>::min() + 1;
  values[1] = std::numeric_limits<T>::max() - 1;
  return values;
}

/// Checks the counters of `count` work-items (values[first..]) against the host.
template <typename T>
void checkFetchOps(const std::vector<T> &initial, const T *finals, const T *olds, const T *values, size_t count) {
  using U = std::make_unsigned_t<T>;
  constexpr size_t bits = sizeof(T) * 8;
  // add: every old value 0..count-1 exactly once.
  std::vector<T> added(count);
  for (size_t i = 0; i < count; ++i)
    added[i] = olds[i * 7 + 0];
  std::sort(added.begin(), added.end());
  for (size_t i = 0; i < count; ++i)
    ASSERT_EQ(added[i], static_cast<T>(i)) << "fetch_add old values are not a permutation";
  EXPECT_EQ(finals[0], static_cast<T>(count));
  U sub = static_cast<U>(initial[1]), xorValue = static_cast<U>(initial[4]), orValue = 0;
  T minValue = initial[5], maxValue = initial[6];
  for (size_t i = 0; i < count; ++i) {
    sub -= static_cast<U>(values[i]);
    xorValue ^= static_cast<U>(values[i]);
    minValue = std::min(minValue, values[i]);
    maxValue = std::max(maxValue, values[i]);
  }
  for (size_t i = 0; i < std::min(count, bits); ++i)
    orValue |= U(1) << i;
  EXPECT_EQ(finals[1], static_cast<T>(sub)) << "fetch_sub";
  EXPECT_EQ(finals[2], static_cast<T>(orValue)) << "fetch_or";
  EXPECT_EQ(finals[3], static_cast<T>(static_cast<U>(initial[3]) & ~orValue)) << "fetch_and";
  EXPECT_EQ(finals[4], static_cast<T>(xorValue)) << "fetch_xor";
  EXPECT_EQ(finals[5], minValue) << "fetch_min";
  EXPECT_EQ(finals[6], maxValue) << "fetch_max";
  // min/max: every old value lies between the initial value and the result,
  // and exactly one work-item saw the initial value.
  size_t sawInitialMin = 0, sawInitialMax = 0;
  for (size_t i = 0; i < count; ++i) {
    T oldMin = olds[i * 7 + 5], oldMax = olds[i * 7 + 6];
    EXPECT_TRUE(oldMin >= minValue && oldMin <= initial[5]) << "fetch_min old " << +oldMin;
    EXPECT_TRUE(oldMax <= maxValue && oldMax >= initial[6]) << "fetch_max old " << +oldMax;
    sawInitialMin += oldMin == initial[5];
    sawInitialMax += oldMax == initial[6];
  }
  EXPECT_GE(sawInitialMin, 1u);
  EXPECT_GE(sawInitialMax, 1u);
}

template <typename T> std::vector<T> fetchInitial() {
  return {0, 0, 0, static_cast<T>(~T(0)), 0, std::numeric_limits<T>::max(), std::numeric_limits<T>::min()};
}

} // namespace

// The operation tests use the plain forms, which are seq_cst with device
// scope.
class C11AtomicOperationsTest : public C11AtomicsTest {
protected:
  void SetUp() override {
    C11AtomicsTest::SetUp();
    if (IsSkipped() || HasFatalFailure())
      return;
    if (!hasFeature("__opencl_c_atomic_order_seq_cst") || !hasFeature("__opencl_c_atomic_scope_device"))
      GTEST_SKIP() << "the device lacks the features the plain atomic forms need";
  }
  template <typename T> void fetchOps() {
    SCOPED_TRACE(TypeNames<T>::type);
    Program program = build3(typeDefines<T>() + kFetchOpsSource);
    ASSERT_TRUE(program);
    std::vector<T> values = randomValues<T>(kWorkItems, 42);
    std::vector<T> initial = fetchInitial<T>();
    Mem valuesBuffer = buffer(values);
    Mem olds = DeviceTest::buffer(CL_MEM_READ_WRITE, kWorkItems * 7 * sizeof(T));
    {
      Mem counters = buffer(initial);
      Kernel k = kernel(program, "global_ops");
      setArgs(k, counters.get(), olds.get(), valuesBuffer.get());
      run1D(k, kWorkItems, kGroupSize);
      std::vector<T> finals = read<T>(counters, 7);
      std::vector<T> oldValues = read<T>(olds, kWorkItems * 7);
      checkFetchOps<T>(initial, finals.data(), oldValues.data(), values.data(), kWorkItems);
    }
    {
      Mem initialBuffer = buffer(initial);
      Mem finals = DeviceTest::buffer(CL_MEM_READ_WRITE, kGroups * 7 * sizeof(T));
      Kernel k = kernel(program, "local_ops");
      setArgs(k, finals.get(), olds.get(), valuesBuffer.get(), initialBuffer.get());
      run1D(k, kWorkItems, kGroupSize);
      std::vector<T> finalValues = read<T>(finals, kGroups * 7);
      std::vector<T> oldValues = read<T>(olds, kWorkItems * 7);
      for (size_t group = 0; group < kGroups; ++group) {
        SCOPED_TRACE("work-group " + std::to_string(group));
        checkFetchOps<T>(initial, &finalValues[group * 7], &oldValues[group * kGroupSize * 7],
                         &values[group * kGroupSize], kGroupSize);
      }
    }
  }

  // Every work-item exchanges in gid + 1: the old values and the final value
  // are a permutation of 0..n.
  template <typename T> void exchangePermutation() {
    SCOPED_TRACE(TypeNames<T>::type);
    Program program = build3(typeDefines<T>() + R"(
kernel void global_exchange(global AT *cell, global T *olds) {
  size_t gid = get_global_id(0);
  olds[gid] = atomic_exchange(cell, (T)(gid + 1));
}
kernel void local_exchange(global T *finals, global T *olds) {
  local AT cell;
  size_t gid = get_global_id(0);
  if (get_local_id(0) == 0)
    atomic_init(&cell, (T)0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  olds[gid] = atomic_exchange_explicit(&cell, (T)(get_local_id(0) + 1), memory_order_acq_rel,
                                       memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    finals[get_group_id(0)] = atomic_load(&cell);
}
)");
    ASSERT_TRUE(program);
    auto expectPermutation = [](std::vector<T> seen) {
      std::sort(seen.begin(), seen.end());
      for (size_t i = 0; i < seen.size(); ++i)
        ASSERT_EQ(seen[i], static_cast<T>(i)) << "exchange lost or duplicated a value";
    };
    Mem olds = DeviceTest::buffer(CL_MEM_READ_WRITE, kWorkItems * sizeof(T));
    {
      Mem cell = buffer(std::vector<T>{0});
      Kernel k = kernel(program, "global_exchange");
      setArgs(k, cell.get(), olds.get());
      run1D(k, kWorkItems, kGroupSize);
      std::vector<T> seen = read<T>(olds, kWorkItems);
      seen.push_back(read<T>(cell, 1)[0]);
      expectPermutation(seen);
    }
    {
      Mem finals = DeviceTest::buffer(CL_MEM_READ_WRITE, kGroups * sizeof(T));
      Kernel k = kernel(program, "local_exchange");
      setArgs(k, finals.get(), olds.get());
      run1D(k, kWorkItems, kGroupSize);
      std::vector<T> all = read<T>(olds, kWorkItems);
      std::vector<T> finalValues = read<T>(finals, kGroups);
      for (size_t group = 0; group < kGroups; ++group) {
        std::vector<T> seen(all.begin() + group * kGroupSize, all.begin() + (group + 1) * kGroupSize);
        seen.push_back(finalValues[group]);
        expectPermutation(seen);
      }
    }
  }

  // A compare-exchange loop adds 1 `iterations` times per work-item: weak
  // on global memory, strong on local memory.
  template <typename T> void compareExchangeCounter() {
    SCOPED_TRACE(TypeNames<T>::type);
    Program program = build3(typeDefines<T>() + R"(
kernel void global_counter(global AT *counter, int iterations, global int *failures) {
  int failed = 0;
  for (int i = 0; i < iterations; ++i) {
    T expected = atomic_load_explicit(counter, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(counter, &expected, expected + (T)1, memory_order_acq_rel,
                                                  memory_order_relaxed))
      ++failed;
  }
  atomic_fetch_add_explicit((global atomic_int *)failures, failed, memory_order_relaxed);
}
kernel void local_counter(global T *finals, int iterations) {
  local AT counter;
  if (get_local_id(0) == 0)
    atomic_init(&counter, (T)0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < iterations; ++i) {
    T expected = atomic_load(&counter);
    while (!atomic_compare_exchange_strong(&counter, &expected, expected + (T)1))
      ;
  }
  // A compare-exchange that must fail reports the current value.
  T wrong = (T)-7;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0 && !atomic_compare_exchange_strong(&counter, &wrong, (T)0))
    finals[get_group_id(0)] = wrong;
}
)");
    ASSERT_TRUE(program);
    constexpr cl_int iterations = 50;
    {
      Mem counter = buffer(std::vector<T>{0});
      Mem failures = buffer(std::vector<cl_int>{0});
      Kernel k = kernel(program, "global_counter");
      setArgs(k, counter.get(), iterations, failures.get());
      run1D(k, kWorkItems, kGroupSize);
      EXPECT_EQ(read<T>(counter, 1)[0], static_cast<T>(kWorkItems * iterations));
    }
    {
      Mem finals = DeviceTest::buffer(CL_MEM_READ_WRITE, kGroups * sizeof(T));
      Kernel k = kernel(program, "local_counter");
      setArgs(k, finals.get(), iterations);
      run1D(k, kWorkItems, kGroupSize);
      for (T value : read<T>(finals, kGroups))
        EXPECT_EQ(value, static_cast<T>(kGroupSize * iterations));
    }
  }
};

TEST_P(C11AtomicOperationsTest, FetchOperationsInt) { fetchOps<cl_int>(); }
TEST_P(C11AtomicOperationsTest, FetchOperationsUInt) { fetchOps<cl_uint>(); }
TEST_P(C11AtomicOperationsTest, FetchOperationsLong) { fetchOps<cl_long>(); }
TEST_P(C11AtomicOperationsTest, FetchOperationsULong) { fetchOps<cl_ulong>(); }

TEST_P(C11AtomicOperationsTest, ExchangeIsAPermutation) {
  exchangePermutation<cl_int>();
  exchangePermutation<cl_uint>();
  exchangePermutation<cl_long>();
  exchangePermutation<cl_ulong>();
  exchangePermutation<cl_float>();
  if (hasFeature("__opencl_c_fp64"))
    exchangePermutation<cl_double>();
}

TEST_P(C11AtomicOperationsTest, CompareExchangeCounters) {
  compareExchangeCounter<cl_int>();
  compareExchangeCounter<cl_uint>();
  compareExchangeCounter<cl_long>();
  compareExchangeCounter<cl_ulong>();
  compareExchangeCounter<cl_float>();
  if (hasFeature("__opencl_c_fp64"))
    compareExchangeCounter<cl_double>();
}

// atomic_flag as a spin lock around a non-atomic counter, in global memory
// and in local memory.
TEST_P(C11AtomicOperationsTest, FlagLockProtectsCounter) {
  Program program = build3(R"(
kernel void global_lock(global atomic_flag *lock, global int *counter, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
      ;
    *counter += 1;
    atomic_flag_clear_explicit(lock, memory_order_release);
  }
}
kernel void local_lock(global int *counts, global int *flagWasClear, int iterations) {
  local atomic_flag lock;
  local int counter;
  if (get_local_id(0) == 0) {
    atomic_flag_clear(&lock);
    counter = 0;
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < iterations; ++i) {
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire, memory_scope_work_group))
      ;
    counter += 1;
    atomic_flag_clear_explicit(&lock, memory_order_release, memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    counts[get_group_id(0)] = counter;
    // The lock is free now: test_and_set reports false, then true.
    bool first = atomic_flag_test_and_set(&lock);
    bool second = atomic_flag_test_and_set(&lock);
    flagWasClear[get_group_id(0)] = !first && second;
  }
}
)");
  ASSERT_TRUE(program);
  constexpr cl_int iterations = 20;
  {
    Mem lock = buffer(std::vector<cl_int>{0});
    Mem counter = buffer(std::vector<cl_int>{0});
    Kernel k = kernel(program, "global_lock");
    setArgs(k, lock.get(), counter.get(), iterations);
    run1D(k, kWorkItems, kGroupSize);
    EXPECT_EQ(read<cl_int>(counter, 1)[0], static_cast<cl_int>(kWorkItems * iterations));
    EXPECT_EQ(read<cl_int>(lock, 1)[0], 0);
  }
  {
    Mem counts = DeviceTest::buffer(CL_MEM_READ_WRITE, kGroups * sizeof(cl_int));
    Mem clear = DeviceTest::buffer(CL_MEM_READ_WRITE, kGroups * sizeof(cl_int));
    Kernel k = kernel(program, "local_lock");
    setArgs(k, counts.get(), clear.get(), iterations);
    run1D(k, kWorkItems, kGroupSize);
    for (cl_int count : read<cl_int>(counts, kGroups))
      EXPECT_EQ(count, static_cast<cl_int>(kGroupSize * iterations));
    for (cl_int ok : read<cl_int>(clear, kGroups))
      EXPECT_EQ(ok, 1);
  }
}

// Every order and scope the device reports, in every builtin's explicit
// form, on one counter per (order, scope) pair; and generic pointers to
// global and local atomics.
TEST_P(C11AtomicOperationsTest, EveryOrderAndScopeForm) {
  std::vector<std::string> orders = {"memory_order_relaxed"};
  if (memoryCaps_ & CL_DEVICE_ATOMIC_ORDER_ACQ_REL)
    orders.insert(orders.end(), {"memory_order_acquire", "memory_order_release", "memory_order_acq_rel"});
  if (memoryCaps_ & CL_DEVICE_ATOMIC_ORDER_SEQ_CST)
    orders.push_back("memory_order_seq_cst");
  std::vector<std::string> scopes = {"", ", memory_scope_work_group"};
  if (memoryCaps_ & CL_DEVICE_ATOMIC_SCOPE_DEVICE)
    scopes.push_back(", memory_scope_device");
  // The feature decides what the compiler declares (CapabilitiesMatchFeatures
  // checks it agrees with the capability).
  if (hasFeature("__opencl_c_atomic_scope_all_devices"))
    scopes.insert(scopes.end(), {", memory_scope_all_svm_devices", ", memory_scope_all_devices"});
  std::string body;
  size_t forms = 0;
  for (const std::string &order : orders) {
    bool loads = order != "memory_order_release" && order != "memory_order_acq_rel";
    bool stores = order != "memory_order_acquire" && order != "memory_order_acq_rel";
    std::string failure = loads ? order : std::string("memory_order_relaxed");
    for (const std::string &scope : scopes) {
      std::string c = "&c[" + std::to_string(forms) + "]";
      // Each work-item adds 3 in total; flags are tested and cleared again.
      body += "  atomic_fetch_add_explicit(" + c + ", 1, " + order + scope + ");\n";
      body += "  atomic_fetch_sub_explicit(" + c + ", -1, " + order + scope + ");\n";
      body += "  { int e = atomic_load_explicit(" + c + ", memory_order_relaxed" + scope + ");\n";
      body += "    while (!atomic_compare_exchange_weak_explicit(" + c + ", &e, e + 1, " + order + ", " + failure +
              scope + ")) ; }\n";
      body += "  atomic_fetch_or_explicit(" + c + ", 0, " + order + scope + ");\n";
      body += "  atomic_fetch_and_explicit(" + c + ", -1, " + order + scope + ");\n";
      body += "  atomic_fetch_xor_explicit(" + c + ", 0, " + order + scope + ");\n";
      body += "  atomic_fetch_min_explicit(" + c + ", INT_MAX, " + order + scope + ");\n";
      body += "  atomic_fetch_max_explicit(" + c + ", INT_MIN, " + order + scope + ");\n";
      body += "  atomic_exchange_explicit(&x[gid], (int)gid, " + order + scope + ");\n";
      body += "  { int e = (int)gid; atomic_compare_exchange_strong_explicit(&x[gid], &e, (int)gid + 1, " + order +
              ", " + failure + scope + "); }\n";
      if (loads)
        body += "  sum += atomic_load_explicit(&x[gid], " + order + scope + ");\n";
      if (stores)
        body += "  atomic_store_explicit(&x[gid], (int)gid, " + order + scope + ");\n";
      body += "  if (!atomic_flag_test_and_set_explicit(&flags[gid], " + order + scope + ")) ++sum;\n";
      if (stores)
        body += "  atomic_flag_clear_explicit(&flags[gid], " + order + scope + ");\n";
      else
        body += "  atomic_flag_clear(&flags[gid]);\n";
      ++forms;
    }
  }
  std::string source = R"(
#ifdef __opencl_c_generic_address_space
void on_generic(atomic_int *p, int v) { atomic_fetch_add(p, v); }
#else
#define on_generic(p, v) atomic_fetch_add(p, v)
#endif
kernel void forms(global atomic_int *c, global atomic_int *x, global atomic_flag *flags, global int *sums,
                  global atomic_int *viaGeneric) {
  size_t gid = get_global_id(0);
  int sum = 0;
)" + body + R"(
  sums[gid] = sum;
  local atomic_int l;
  if (get_local_id(0) == 0)
    atomic_init(&l, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  on_generic(&l, 2);
  on_generic(viaGeneric, 1);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    on_generic(viaGeneric + 1, atomic_load(&l));
}
)";
  Program program = build3(source);
  ASSERT_TRUE(program) << source;
  Mem counters = buffer(std::vector<cl_int>(forms, 0));
  Mem x = buffer(std::vector<cl_int>(kWorkItems, 0));
  Mem flags = buffer(std::vector<cl_int>(kWorkItems, 0));
  Mem sums = DeviceTest::buffer(CL_MEM_READ_WRITE, kWorkItems * sizeof(cl_int));
  Mem generic = buffer(std::vector<cl_int>{0, 0});
  Kernel k = kernel(program, "forms");
  setArgs(k, counters.get(), x.get(), flags.get(), sums.get(), generic.get());
  run1D(k, kWorkItems, kGroupSize);
  for (cl_int value : read<cl_int>(counters, forms))
    EXPECT_EQ(value, static_cast<cl_int>(3 * kWorkItems));
  // Per form: the flag was clear (1), and a load after the exchange and the
  // successful compare-exchange read gid + 1.
  size_t loadForms = 0;
  for (const std::string &order : orders)
    if (order != "memory_order_release" && order != "memory_order_acq_rel")
      ++loadForms;
  std::vector<cl_int> sumValues = read<cl_int>(sums, kWorkItems);
  for (size_t gid = 0; gid < kWorkItems; ++gid)
    ASSERT_EQ(sumValues[gid], static_cast<cl_int>(forms + loadForms * scopes.size() * (gid + 1))) << "gid " << gid;
  std::vector<cl_int> genericValues = read<cl_int>(generic, 2);
  EXPECT_EQ(genericValues[0], static_cast<cl_int>(kWorkItems));
  EXPECT_EQ(genericValues[1], static_cast<cl_int>(kWorkItems * 2));
}

// Orders and scopes passed at run time (kernel arguments) select the right
// instruction on the device.
TEST_P(C11AtomicOperationsTest, RunTimeOrders) {
  Program program = build3(R"(
kernel void k(global atomic_int *c, int order, int failure, int scope) {
  atomic_fetch_add_explicit(c, 2, (memory_order)order, (memory_scope)scope);
  int e = atomic_load_explicit(c + 1, memory_order_relaxed);
  while (!atomic_compare_exchange_strong_explicit(c + 1, &e, e + 1, (memory_order)order, (memory_order)failure,
                                                  (memory_scope)scope))
    ;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, (memory_order)order, (memory_scope)scope);
}
)");
  ASSERT_TRUE(program);
  struct Case {
    cl_int order, failure;
  };
  // memory_order values: relaxed 0, acquire 2, release 3, acq_rel 4, seq_cst 5.
  for (Case c : {Case{0, 0}, Case{2, 2}, Case{3, 0}, Case{4, 2}, Case{5, 5}})
    for (cl_int scope : {1, 2, 3}) {
      SCOPED_TRACE("order " + std::to_string(c.order) + " scope " + std::to_string(scope));
      Mem counters = buffer(std::vector<cl_int>{0, 0});
      Kernel k = kernel(program, "k");
      setArgs(k, counters.get(), c.order, c.failure, scope);
      run1D(k, 1024, kGroupSize);
      std::vector<cl_int> values = read<cl_int>(counters, 2);
      EXPECT_EQ(values[0], 2048);
      EXPECT_EQ(values[1], 1024);
    }
}

// atomic_work_item_fence with every flag, order and scope the device
// reports builds and runs; a release/acquire handshake between work-items of
// one work-group through a local flag passes data.
TEST_P(C11AtomicOperationsTest, WorkItemFence) {
  std::vector<std::string> orders = {"memory_order_acquire", "memory_order_release", "memory_order_acq_rel"};
  if (fenceCaps_ & CL_DEVICE_ATOMIC_ORDER_SEQ_CST)
    orders.push_back("memory_order_seq_cst");
  std::vector<std::string> scopes = {"memory_scope_work_group"};
  if (fenceCaps_ & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM)
    scopes.push_back("memory_scope_work_item");
  // The compiler declares the device and all-devices scopes with the features.
  if ((fenceCaps_ & CL_DEVICE_ATOMIC_SCOPE_DEVICE) && hasFeature("__opencl_c_atomic_scope_device"))
    scopes.push_back("memory_scope_device");
  if ((fenceCaps_ & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) && hasFeature("__opencl_c_atomic_scope_all_devices"))
    scopes.push_back("memory_scope_all_devices");
  std::string fences;
  for (const char *flags :
       {"CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE"})
    for (const std::string &order : orders)
      for (const std::string &scope : scopes)
        // memory_scope_work_item is for image fences only.
        if (scope != "memory_scope_work_item")
          fences += "  atomic_work_item_fence(" + std::string(flags) + ", " + order + ", " + scope + ");\n";
  if (fenceCaps_ & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM)
    for (const std::string &order : orders)
      fences += "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, " + order + ", memory_scope_work_item);\n";
  Program program = build3(R"(
kernel void k(global int *out) {
  size_t gid = get_global_id(0), lid = get_local_id(0);
  local int data[64];
  local atomic_int ready;
  if (lid == 0)
    atomic_init(&ready, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  data[lid] = (int)gid * 3;
)" + fences + R"(
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
  atomic_fetch_add_explicit(&ready, 1, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (atomic_load_explicit(&ready, memory_order_relaxed, memory_scope_work_group) == (int)get_local_size(0)) {
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
    out[gid] = data[(lid + 1) % get_local_size(0)];
  } else {
    out[gid] = -1;
  }
}
)");
  ASSERT_TRUE(program);
  Mem out = DeviceTest::buffer(CL_MEM_READ_WRITE, kWorkItems * sizeof(cl_int));
  Kernel k = kernel(program, "k");
  setArgs(k, out.get());
  run1D(k, kWorkItems, kGroupSize);
  std::vector<cl_int> values = read<cl_int>(out, kWorkItems);
  for (size_t gid = 0; gid < kWorkItems; ++gid) {
    size_t group = gid / kGroupSize, neighbour = group * kGroupSize + (gid % kGroupSize + 1) % kGroupSize;
    ASSERT_EQ(values[gid], static_cast<cl_int>(neighbour * 3)) << "gid " << gid;
  }
}

// The capabilities meet the OpenCL 3.0 minimums and agree with the feature
// macros, both as reported and as the compiler defines them.
TEST_P(C11AtomicsTest, CapabilitiesMatchFeatures) {
  constexpr cl_device_atomic_capabilities minimumMemory =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  constexpr cl_device_atomic_capabilities minimumFence =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  EXPECT_EQ(memoryCaps_ & minimumMemory, minimumMemory);
  EXPECT_EQ(fenceCaps_ & minimumFence, minimumFence);
  std::string source;
  for (const FeatureBit &entry : kFeatureBits) {
    bool reported = hasFeature(entry.feature);
    EXPECT_EQ(reported, (memoryCaps_ & entry.bit) != 0) << entry.feature;
    source += std::string(reported ? "#ifndef " : "#ifdef ") + entry.feature + "\n#error " + entry.feature +
              (reported ? " is reported but not defined" : " is defined but not reported") + "\n#endif\n";
  }
  source += "kernel void k(global int *p) { p[0] = 1; }\n";
  EXPECT_TRUE(build3(source));
  // A kernel using an unreported feature's builtins must not build.
  if (!deviceHasExtension(device(), "cl_ext_float_atomics")) {
    const char *text = "kernel void k(global atomic_float *f) { atomic_fetch_add(f, 1.0f); }";
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
    ASSERT_CL(err);
    cl_device_id dev = device();
    EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, "-cl-std=CL3.0", nullptr, nullptr));
  }
}

CLTEST_INSTANTIATE(C11AtomicsTest);
CLTEST_INSTANTIATE(C11AtomicOperationsTest);
