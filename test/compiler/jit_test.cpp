// End to end: build with the host compiler, load with ORC, call the entry of
// each work-group directly with a hand-packed argument block.
#include "compiler/abi/cpu_kernel_abi.h"

#include "test_support.h"

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

struct Launcher {
  std::unique_ptr<mux::Executable> executable;
  std::unique_ptr<mux::Kernel> kernel;

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
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build(source, options, log);
  if (!module) {
    ADD_FAILURE() << errorText(module.takeError()) << log;
    return launcher;
  }
  auto binary = (*module)->binary();
  EXPECT_TRUE(static_cast<bool>(binary));
  auto executable = host::loadExecutable(*binary, hostDeviceInfo());
  if (!executable) {
    ADD_FAILURE() << errorText(executable.takeError());
    return launcher;
  }
  launcher.executable = std::move(*executable);
  auto kernel = launcher.executable->createKernel(kernelName);
  if (!kernel) {
    ADD_FAILURE() << errorText(kernel.takeError());
    return launcher;
  }
  launcher.kernel = std::move(*kernel);
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
  EXPECT_EQ(launcher.kernel->subGroupSize(64), 1u);
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

} // namespace
} // namespace compiler::test
