// Async copies (OpenCL C 3.0 6.15.12): async_work_group_copy and
// async_work_group_strided_copy in both directions for scalar and vector
// element types, and wait_group_events, over work-groups of odd sizes, in
// one and two dimensions, non-uniform, and inside loops with chained events.
// Each kernel is built as OpenCL C 1.2 and 3.0 (wait_group_events on a
// __private or a __generic event list). Copied data is read by other
// work-items than the ones that copied it, so a missing synchronisation
// shows; the references are computed on the host.
#include "cl_test.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace cltest;

namespace {

const char *const kStandards[] = {"-cl-std=CL1.2", "-cl-std=CL3.0"};

// Group g copies its `count` elements from global to local memory, reverses
// them there (each work-item moves another's elements), and copies them back;
// then it gathers every `stride`-th element of its strided block into local
// memory and scatters them back with the same stride, reversed.
const char *kCopySource = R"(
#ifdef USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define MAX_COUNT 64
kernel void copies(global const T *src, global T *dst, global const T *ssrc, global T *sdst, uint count,
                   uint stride) {
  local T buf[MAX_COUNT];
  local T reversed[MAX_COUNT];
  size_t group = get_group_id(0) + get_num_groups(0) * get_group_id(1);
  size_t lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
  size_t size = get_local_size(0) * get_local_size(1);
  event_t e = async_work_group_copy(buf, src + group * count, count, 0);
  wait_group_events(1, &e);
  for (size_t i = lid; i < count; i += size)
    reversed[i] = buf[count - 1 - i];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(dst + group * count, reversed, count, 0);
  wait_group_events(1, &e);

  e = async_work_group_strided_copy(buf, ssrc + group * count * stride, count, stride, 0);
  wait_group_events(1, &e);
  for (size_t i = lid; i < count; i += size)
    reversed[i] = buf[count - 1 - i];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(sdst + group * count * stride, reversed, count, stride, 0);
  wait_group_events(1, &e);
}
)";

// Sums tiles copied to local memory one after the other: two chained copies
// per iteration (the second takes the first's event), a wait inside a loop
// and inside a uniform branch (there through a user function), and a
// barrier before the buffer is reused.
const char *kLoopSource = R"(
// A user function around the wait: it is inlined into the loop before the
// barrier lowering, like the builtins.
void wait_for(int count, event_t *events) { wait_group_events(count, events); }

kernel void tiles(global const int *src, global int *out, uint tiles, uint tile) {
  local int buf[2 * 64];
  size_t group = get_group_id(0);
  size_t lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
  int acc = 0;
  for (uint t = 0; t < tiles; ++t) {
    global const int *base = src + (group * tiles + t) * tile * 2;
    event_t events[2];
    events[0] = async_work_group_copy(buf, base, tile, 0);
    events[1] = async_work_group_copy(buf + tile, base + tile, tile, events[0]);
    if (t % 2 == 0) {
      wait_group_events(2, events);
    } else {
      wait_for(1, events + 1);
    }
    acc += buf[(lid * 7 + t) % (2 * tile)] * (int)(t + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = acc;
}
)";

struct Shape {
  size_t dims;
  size_t global[2];
  size_t local[2];
  const char *name;
};

class AsyncCopyTest : public DeviceTest {
protected:
  bool hasDouble() { return deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0; }

  /// T is a host element type of `elementSize` bytes holding `lanes` values
  /// of cl type `type` (a vector is compared as raw bytes).
  void checkCopies(const char *type, size_t elementSize, bool isDouble = false) {
    if (isDouble && !hasDouble())
      GTEST_SKIP() << "no fp64";
    const Shape shapes[] = {
        {1, {21, 1}, {7, 1}, "3 groups of 7"},
        {1, {3, 1}, {1, 1}, "groups of 1"},
        {2, {10, 6}, {5, 3}, "2D groups of 5x3"},
        {1, {64, 1}, {64, 1}, "one group of 64"},
    };
    const cl_uint counts[] = {1, 50, 64};
    const cl_uint stride = 3;
    const std::string typeName = type;
    const size_t valueBytes = typeName.back() == '3' ? elementSize / 4 * 3 : elementSize;
    for (const char *standard : kStandards) {
      std::string options = std::string(standard) + " -DT=" + type + (isDouble ? " -DUSE_DOUBLE" : "");
      Program program = build(kCopySource, options.c_str());
      ASSERT_TRUE(program) << options;
      Kernel k = kernel(program, "copies");
      for (const Shape &shape : shapes)
        for (cl_uint count : counts)
          runCopies(k, shape, count, stride, elementSize, valueBytes, std::string(type) + " " + standard + " " + shape.name);
      if (std::string(standard) == "-cl-std=CL3.0" &&
          deviceInfo<cl_bool>(device(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT)) {
        // 20 work-items in groups of 7: the last group has 6.
        Shape nonUniform{1, {20, 1}, {7, 1}, "non-uniform groups of 7"};
        runCopies(k, nonUniform, 50, stride, elementSize, valueBytes,
                  std::string(type) + " " + standard + " " + nonUniform.name);
      }
      if (HasFailure())
        return;
    }
  }

  /// `valueBytes` of each `elementSize`-byte element are its value: a
  /// 3-component vector occupies four components, and the fourth is padding
  /// that a copy need not keep (a device may store only three).
  void runCopies(cl_kernel k, const Shape &shape, cl_uint count, cl_uint stride, size_t elementSize,
                 size_t valueBytes, const std::string &what) {
    size_t groups = 1;
    for (size_t d = 0; d < shape.dims; ++d)
      groups *= (shape.global[d] + shape.local[d] - 1) / shape.local[d];
    const size_t bytes = groups * count * elementSize;
    const size_t stridedBytes = groups * count * stride * elementSize;
    std::mt19937 random(count * 131 + static_cast<unsigned>(groups));
    std::vector<uint8_t> src(bytes), ssrc(stridedBytes);
    for (uint8_t &b : src)
      b = static_cast<uint8_t>(random());
    for (uint8_t &b : ssrc)
      b = static_cast<uint8_t>(random());
    std::vector<uint8_t> initial(stridedBytes, 0x5a);
    Mem srcMem = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, src.data());
    Mem dstMem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, initial.data());
    Mem ssrcMem = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, stridedBytes, ssrc.data());
    Mem sdstMem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, stridedBytes, initial.data());
    setArgs(k, srcMem.get(), dstMem.get(), ssrcMem.get(), sdstMem.get(), count, stride);
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(shape.dims), nullptr, shape.global, shape.local, 0,
                                     nullptr, nullptr));
    std::vector<uint8_t> dst = read<uint8_t>(dstMem, bytes);
    std::vector<uint8_t> sdst = read<uint8_t>(sdstMem, stridedBytes);
    for (size_t g = 0; g < groups; ++g)
      for (size_t i = 0; i < count; ++i) {
        const uint8_t *expected = &src[(g * count + count - 1 - i) * elementSize];
        ASSERT_EQ(0, std::memcmp(expected, &dst[(g * count + i) * elementSize], valueBytes))
            << what << " count " << count << ": async_work_group_copy, group " << g << " element " << i;
        for (size_t s = 0; s < stride; ++s) {
          const size_t at = (g * count + i) * stride + s;
          // Only the first element of each stride is copied back (from the
          // reversed gather); the others keep their initial bytes.
          const uint8_t *strided =
              s == 0 ? &ssrc[(g * count * stride + (count - 1 - i) * stride) * elementSize] : &initial[0];
          ASSERT_EQ(0, std::memcmp(strided, &sdst[at * elementSize], s == 0 ? valueBytes : elementSize))
              << what << " count " << count << ": async_work_group_strided_copy, group " << g << " element " << i
              << " slot " << s;
        }
      }
  }
};

TEST_P(AsyncCopyTest, Char) { checkCopies("char", 1); }
TEST_P(AsyncCopyTest, Char3) { checkCopies("char3", 4); } // a 3-vector occupies 4 elements
TEST_P(AsyncCopyTest, Short2) { checkCopies("short2", 4); }
TEST_P(AsyncCopyTest, Int) { checkCopies("int", 4); }
TEST_P(AsyncCopyTest, Float4) { checkCopies("float4", 16); }
TEST_P(AsyncCopyTest, Double) { checkCopies("double", 8, true); }
TEST_P(AsyncCopyTest, ULong16) { checkCopies("ulong16", 128); }

TEST_P(AsyncCopyTest, CopiesInsideLoops) {
  const cl_uint tiles = 5, tile = 13;
  const size_t global[2] = {10, 3}, local[2] = {5, 3}; // 2 groups of 15
  const size_t groups = 2, items = 30;
  std::vector<cl_int> src(groups * tiles * tile * 2);
  std::mt19937 random(99);
  for (cl_int &v : src)
    v = static_cast<cl_int>(random() % 2001) - 1000;
  for (const char *standard : kStandards) {
    Program program = build(kLoopSource, standard);
    ASSERT_TRUE(program) << standard;
    Kernel k = kernel(program, "tiles");
    Mem srcMem = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, src.size() * sizeof(cl_int), src.data());
    Mem outMem = buffer(CL_MEM_WRITE_ONLY, items * sizeof(cl_int));
    setArgs(k, srcMem.get(), outMem.get(), tiles, tile);
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, local, 0, nullptr, nullptr));
    std::vector<cl_int> out = read<cl_int>(outMem, items);
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        size_t group = x / local[0];
        size_t lid = y * local[0] + x % local[0];
        cl_int expected = 0;
        for (cl_uint t = 0; t < tiles; ++t)
          expected += src[(group * tiles + t) * tile * 2 + (lid * 7 + t) % (2 * tile)] * static_cast<cl_int>(t + 1);
        ASSERT_EQ(expected, out[y * global[0] + x]) << standard << " work-item (" << x << ", " << y << ")";
      }
  }
}

CLTEST_INSTANTIATE(AsyncCopyTest);

} // namespace
