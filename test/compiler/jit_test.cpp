// End to end: build with the host compiler, load with ORC, call the entry of
// each work-group directly with a hand-packed argument block.
#include "compiler/abi/cpu_kernel_abi.h"

#include "test_support.h"

#include <cstdint>
#include <cstring>
#include <thread>

namespace compiler::test {
namespace {

using abi::WorkGroupInfo;

/// Packs arguments per cpu_kernel_abi.h.
class ArgPacker {
public:
  template <typename T> void add(const T &value) {
    offset_ = abi::alignTo(offset_, abi::packedArgAlignment(sizeof(T)));
    bytes_.resize(offset_ + sizeof(T));
    std::memcpy(bytes_.data() + offset_, &value, sizeof(T));
    offset_ += sizeof(T);
  }
  const void *data() const { return bytes_.data(); }

private:
  std::vector<std::byte> bytes_;
  size_t offset_ = 0;
};

struct Launcher : LoadedKernel {
  /// Runs a 1-D range of `global` work-items in groups of `local` (the last
  /// group smaller), offset by `offset`.
  void run1d(const void *args, size_t global, size_t local, size_t offset = 0) {
    auto entry = static_cast<host::HostKernel &>(*kernel).entry();
    WorkGroupInfo info{};
    info.workDim = 1;
    info.globalOffset[0] = offset;
    info.globalSize[0] = global;
    info.enqueuedLocalSize[0] = local;
    info.numGroups[0] = (global + local - 1) / local;
    for (int d = 1; d < 3; ++d) {
      info.globalSize[d] = info.enqueuedLocalSize[d] = info.localSize[d] = info.numGroups[d] = 1;
    }
    for (size_t group = 0; group < info.numGroups[0]; ++group) {
      info.groupId[0] = group;
      info.localSize[0] = std::min(local, global - group * local);
      entry(args, &info);
    }
  }
};

Launcher load(const char *source, const char *kernelName, const char *options = "") {
  Launcher launcher;
  static_cast<LoadedKernel &>(launcher) = loadHostKernel(source, kernelName, options);
  return launcher;
}

constexpr const char *kVectorAdd = R"(
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, float scale) {
  size_t i = get_global_id(0);
  c[i] = a[i] + scale * b[i];
}
)";

void checkVectorAdd(const char *options) {
  Launcher launcher = load(kVectorAdd, "vadd", options);
  ASSERT_TRUE(launcher.kernel);
  EXPECT_EQ(launcher.kernel->name(), "vadd");
  EXPECT_EQ(launcher.kernel->maxWorkGroupSize(), 1024u);
  EXPECT_GE(launcher.kernel->preferredWorkGroupSizeMultiple(), 4u);
  // Sub-groups of the device's size (test_support.h), smaller in smaller
  // work-groups.
  EXPECT_EQ(launcher.kernel->subGroupSize(64), 8u);
  EXPECT_EQ(launcher.kernel->subGroupSize(5), 5u);
  EXPECT_EQ(launcher.kernel->localMemSize(), 0u);
  const size_t n = 1000; // groups of 64: the last one has 40 work-items
  std::vector<float> a(n), b(n), c(n + 1, -1.0f);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = static_cast<float>(n - i);
  }
  ArgPacker args;
  args.add(a.data());
  args.add(b.data());
  args.add(c.data());
  args.add(3.0f);
  launcher.run1d(args.data(), n, 64);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + 3.0f * b[i]) << "at " << i;
  EXPECT_EQ(c[n], -1.0f) << "wrote past the range";
}

TEST(Jit, VectorAddOverSeveralGroupsWithAnEdgeGroup) { checkVectorAdd(""); }
TEST(Jit, VectorAddWithOptimisationDisabled) { checkVectorAdd("-cl-opt-disable"); }
TEST(Jit, VectorAddWithDebugInfoAndFastMath) { checkVectorAdd("-g -cl-fast-relaxed-math -cl-std=CL3.0"); }

TEST(Jit, WorkItemBuiltinsAndByValueArguments) {
  Launcher launcher = load(R"(
typedef struct { int base; char pad; long mul; } Params;
__kernel void ids(__global long *out, Params p, float3 v, __local int *scratch) {
  size_t g = get_global_id(0);
  size_t slot = g - get_global_offset(0);
  scratch[get_local_id(0)] = (int)get_local_id(0);
  out[slot * 4 + 0] = (long)g * p.mul + p.base;
  out[slot * 4 + 1] = get_group_id(0) * 100 + scratch[get_local_id(0)];
  out[slot * 4 + 2] = get_local_size(0) * 1000 + get_enqueued_local_size(0) + get_num_groups(0) * 10;
  out[slot * 4 + 3] = (long)(v.z * 2.0f) + get_work_dim() + get_global_size(0) * 10 + get_global_size(1);
}
)",
                           "ids", "-cl-std=CL2.0");
  ASSERT_TRUE(launcher.kernel);
  struct Params {
    int32_t base;
    char pad;
    int64_t mul;
  };
  static_assert(sizeof(Params) == 16);
  const size_t n = 10, local = 4, offset = 5;
  std::vector<int64_t> out(n * 4, -1);
  std::vector<int32_t> scratch(local);
  float v[4] = {1.0f, 2.0f, 21.0f, 0.0f};
  ArgPacker args;
  args.add(out.data());
  args.add(Params{7, 0, 3});
  struct alignas(16) Float3 {
    float v[4];
  } v3;
  std::memcpy(v3.v, v, sizeof(v));
  args.add(v3);
  args.add(scratch.data());
  launcher.run1d(args.data(), n, local, offset);
  for (size_t slot = 0; slot < n; ++slot) {
    size_t g = slot + offset, group = slot / local, localId = slot % local;
    size_t groupSize = std::min(local, n - group * local);
    EXPECT_EQ(out[slot * 4 + 0], static_cast<int64_t>(g * 3 + 7)) << slot;
    EXPECT_EQ(out[slot * 4 + 1], static_cast<int64_t>(group * 100 + localId)) << slot;
    EXPECT_EQ(out[slot * 4 + 2], static_cast<int64_t>(groupSize * 1000 + local + 3 * 10)) << slot;
    EXPECT_EQ(out[slot * 4 + 3], static_cast<int64_t>(42 + 1 + n * 10 + 1)) << slot;
  }
}

TEST(Jit, AtomicsAcrossThreads) {
  Launcher launcher = load(R"(
__kernel void histogram(__global const float *in, __global int *bins, __global uint *total) {
  float x = in[get_global_id(0)];
  atomic_inc(&bins[convert_int(x) & 7]);
  atomic_add(total, (uint)1);
}
)",
                           "histogram");
  ASSERT_TRUE(launcher.kernel);
  const size_t n = 4096;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(i % 13) + 0.75f;
  std::vector<int32_t> bins(8, 0);
  uint32_t total = 0;
  ArgPacker args;
  args.add(in.data());
  args.add(bins.data());
  args.add(&total);
  // Four threads run disjoint quarters of the range at once.
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      auto entry = static_cast<host::HostKernel &>(*launcher.kernel).entry();
      WorkGroupInfo info{};
      info.workDim = 1;
      info.globalSize[0] = n;
      info.enqueuedLocalSize[0] = info.localSize[0] = 64;
      info.numGroups[0] = n / 64;
      for (int d = 1; d < 3; ++d)
        info.globalSize[d] = info.enqueuedLocalSize[d] = info.localSize[d] = info.numGroups[d] = 1;
      for (size_t group = t; group < n / 64; group += 4) {
        info.groupId[0] = group;
        entry(args.data(), &info);
      }
    });
  for (auto &thread : threads)
    thread.join();
  std::vector<int32_t> expected(8, 0);
  for (float x : in)
    ++expected[static_cast<int>(x) & 7];
  EXPECT_EQ(bins, expected);
  EXPECT_EQ(total, n);
}

TEST(Jit, ExecutablesLoadConcurrentlyAndRejectBadBinaries) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build(kVectorAdd, "", log);
  ASSERT_TRUE(static_cast<bool>(module)) << log;
  auto binary = *(*module)->binary();
  std::vector<std::thread> threads;
  std::atomic<int> loaded{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 3; ++i) {
        auto executable = host::loadExecutable(binary, hostDeviceInfo());
        if (executable && (*executable)->createKernel("vadd"))
          ++loaded;
        else if (!executable)
          llvm::consumeError(executable.takeError());
      }
    });
  for (auto &thread : threads)
    thread.join();
  EXPECT_EQ(loaded.load(), 12);

  auto corrupt = binary;
  corrupt[corrupt.size() / 2] ^= std::byte{1};
  auto bad = host::loadExecutable(corrupt, hostDeviceInfo());
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(mux::takeStatus(bad.takeError()), mux::Status::InvalidArgument);
  auto executable = host::loadExecutable(binary, hostDeviceInfo());
  ASSERT_TRUE(static_cast<bool>(executable));
  auto missing = (*executable)->createKernel("nope");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(mux::takeStatus(missing.takeError()), mux::Status::InvalidArgument);
}

/// Small vectors reach builtins coerced to double / i64 / i32 on x86-64 and
/// wide ones through byval pointers: the lowered builtins must still see the
/// OpenCL types (convert_float2(uint2) once returned the integers' bits).
TEST(Jit, VectorBuiltinsSeeTheirOpenCLTypes) {
  Launcher launcher = load(R"(
__kernel void conv(__global const uint2 *u, __global float2 *f, __global const float4 *g, __global int4 *rounded,
                   __global const int4 *wide, __global uchar4 *narrow, __global const float8 *h, __global float8 *m,
                   __global const int *x, __global char3 *c3, __global float *d, __global short2 *s,
                   __global double2 *dd, __global ulong *ul) {
  f[0] = convert_float2(u[0]);
  f[1] = convert_float2(convert_uint2(f[0]) + (uint2)(1, 2));
  rounded[0] = convert_int4_rte(g[0]);
  rounded[1] = convert_int4_sat_rtn(g[0] * 1e10f);
  rounded[2] = convert_int4(g[0]);
  narrow[0] = convert_uchar4_sat(wide[0]);
  m[0] = fmin(h[0], h[1]);
  m[1] = convert_float8(convert_int8(h[0]) * 2);
  c3[0] = convert_char3_sat((int3)(x[0], x[1], x[2]));
  d[0] = dot(g[0], g[1]);
  d[1] = dot(f[0], (float2)(1.0f, 2.0f));
  s[0] = max(convert_short2(u[0]), (short)5) + rotate((short2)(1, 2), (short2)(17, 1));
  dd[0] = convert_double2(u[0]);
  ul[0] = convert_ulong_sat(d[0]);
}
)",
                           "conv");
  ASSERT_TRUE(launcher.kernel);
  // OpenCL requires buffers aligned to their element type (float8: 32 bytes);
  // the JIT may use aligned vector loads and stores.
  alignas(64) uint32_t u[2] = {20, 1};
  alignas(64) float f[4] = {}, g[8] = {1.5f, 2.5f, -0.5f, -3.75f, 1, 2, 3, 4};
  alignas(64) int32_t rounded[12] = {}, wide[4] = {-5, 17, 300, 255};
  alignas(64) uint8_t narrow[4] = {};
  alignas(64) float h[16] = {1, 2, 3, 4, 5, 6, 7, 8.5f, 8, 7, 6, 5, 4, 3, 2, 1}, m[16] = {};
  alignas(64) int32_t x[3] = {200, -200, -7};
  alignas(64) int8_t c3[4] = {};
  alignas(64) float d[2] = {};
  alignas(64) int16_t s[2] = {};
  alignas(64) double dd[2] = {};
  alignas(64) uint64_t ul = 99;
  ArgPacker args;
  for (const void *p : {(void *)u, (void *)f, (void *)g, (void *)rounded, (void *)wide, (void *)narrow, (void *)h,
                        (void *)m, (void *)x, (void *)c3, (void *)d, (void *)s, (void *)dd, (void *)&ul})
    args.add(p);
  launcher.run1d(args.data(), 1, 1);
  EXPECT_EQ(f[0], 20.0f);
  EXPECT_EQ(f[1], 1.0f);
  EXPECT_EQ(f[2], 21.0f);
  EXPECT_EQ(f[3], 3.0f);
  EXPECT_EQ(std::vector<int32_t>(rounded, rounded + 12),
            (std::vector<int32_t>{2, 2, 0, -4, INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN, 1, 2, 0, -3}));
  EXPECT_EQ(std::vector<uint8_t>(narrow, narrow + 4), (std::vector<uint8_t>{0, 17, 255, 255}));
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(m[i], std::min(h[i], h[8 + i])) << i;
    EXPECT_EQ(m[8 + i], 2.0f * static_cast<float>(static_cast<int>(h[i]))) << i;
  }
  EXPECT_EQ(std::vector<int8_t>(c3, c3 + 3), (std::vector<int8_t>{127, -128, -7}));
  EXPECT_EQ(d[0], -10.0f); // exact products and sums
  EXPECT_EQ(d[1], 22.0f);
  EXPECT_EQ(s[0], 20 + 2);
  EXPECT_EQ(s[1], 5 + 4);
  EXPECT_EQ(dd[0], 20.0);
  EXPECT_EQ(dd[1], 1.0);
  EXPECT_EQ(ul, 0u) << "saturates a negative value to 0";
}

/// A directed rounding that LLVM's casts cannot do exactly stays unresolved:
/// the build fails naming it rather than computing a wrong value.
// Directed roundings of inexact conversions build (their results are
// checked against MPFR in test/cl/builtins_conversions_test.cpp).
TEST(Jit, InexactConversionRoundingsAreLowered) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build(R"(
__kernel void k(__global const int2 *i, __global float2 *f, __global const double *d, __global float *g) {
  f[0] = convert_float2_rtz(i[0]);
  g[0] = convert_float_rtp(d[0]);
}
)",
                                "", log);
  EXPECT_TRUE(static_cast<bool>(module)) << (module ? "" : errorText(module.takeError())) << log;
  // Exact ones too, whatever the rounding: short -> float, float -> double.
  module = compiler->build("__kernel void k(__global short2 *s, __global float2 *f, __global double2 *d) {\n"
                           "  f[0] = convert_float2_rtz(s[0]); d[0] = convert_double2_rtn(f[1]);\n}\n",
                           "", log);
  EXPECT_TRUE(static_cast<bool>(module)) << (module ? "" : errorText(module.takeError())) << log;
}

} // namespace
} // namespace compiler::test
