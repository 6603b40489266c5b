// Host target only: the ndrange launch path (argument packing, work-group
// split over the thread pool, __local storage, fault recovery) checked with
// hand-written C++ "kernels" that follow cpu_kernel_abi.h, independently of
// the compiler.
#include "../mux_test.h"

#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/abi/cpu_launch_plan.h"
#include "executable.h"

#include <atomic>
#include <cstring>
#include <set>
#include <thread>

namespace muxtest {
namespace {

using compiler::abi::WorkGroupInfo;

class FakeKernel final : public host::HostKernel {
public:
  FakeKernel(compiler::abi::CpuKernelEntry entry, uint64_t localMemSize, std::string name = "fake")
      : entry_(entry), local_(localMemSize), name_(std::move(name)) {}
  const std::string &name() const override { return name_; }
  size_t maxWorkGroupSize() const override { return 1024; }
  size_t preferredWorkGroupSizeMultiple() const override { return 1; }
  uint32_t subGroupSize(size_t) const override { return 1; }
  uint64_t localMemSize() const override { return local_; }
  uint64_t privateMemSize() const override { return 0; }
  compiler::abi::CpuKernelEntry entry() const override { return entry_; }
  uint64_t workItemStateSize() const override { return 0; }
  bool usesPrintf() const override { return false; }
  std::span<const std::byte> printfTable() const override { return {}; }

private:
  compiler::abi::CpuKernelEntry entry_;
  uint64_t local_;
  std::string name_;
};

/// Packed layout of (global int *out, int scale, local int *scratch,
/// global int *shape): 0, 8, 16, 24 (cpu_kernel_abi.h).
struct IndexArgs {
  int32_t *out;
  int32_t scale;
  int32_t *scratch;
  int32_t *shape;
};
static_assert(offsetof(IndexArgs, scratch) == 16 && offsetof(IndexArgs, shape) == 24);

std::atomic<bool> badLocalMemory{false};

/// out[linear id] = (gx * 1000 + gy * 100 + gz) * scale, staged through the
/// __local argument; shape[linear id] describes the group.
void indexKernel(const void *packed, const WorkGroupInfo *info) {
  IndexArgs args;
  std::memcpy(&args, packed, sizeof(args));
  // Static __local area (256 bytes here) and the argument are distinct and aligned.
  auto *staticLocal = reinterpret_cast<int32_t *>(info->localMemory);
  if (!staticLocal || reinterpret_cast<uintptr_t>(staticLocal) % 128 != 0 ||
      reinterpret_cast<uintptr_t>(args.scratch) % 128 != 0 ||
      reinterpret_cast<char *>(args.scratch) < reinterpret_cast<char *>(staticLocal) + 256)
    badLocalMemory = true;
  for (uint64_t z = 0; z < info->localSize[2]; ++z)
    for (uint64_t y = 0; y < info->localSize[1]; ++y)
      for (uint64_t x = 0; x < info->localSize[0]; ++x) {
        uint64_t local = (z * info->localSize[1] + y) * info->localSize[0] + x;
        uint64_t g[3];
        for (int d = 0; d < 3; ++d) {
          uint64_t lid = d == 0 ? x : d == 1 ? y : z;
          g[d] = info->groupId[d] * info->enqueuedLocalSize[d] + lid;
        }
        uint64_t linear = (g[2] * info->globalSize[1] + g[1]) * info->globalSize[0] + g[0];
        staticLocal[local % 64] = 1;
        args.scratch[local] = int32_t(((g[0] + info->globalOffset[0]) * 1000 + (g[1] + info->globalOffset[1]) * 100 +
                                       (g[2] + info->globalOffset[2])) *
                                      args.scale);
        args.out[linear] = args.scratch[local];
        args.shape[linear] =
            int32_t(info->localSize[0] + 10 * info->localSize[1] + 100 * info->localSize[2] + 1000 * info->workDim);
      }
}

// Not instrumented, like JIT code: the fault must reach the runtime's handler.
__attribute__((no_sanitize("address", "undefined"))) void faultingKernel(const void *packed,
                                                                         const WorkGroupInfo *info) {
  if (info->groupId[0] == 3) {
    volatile int *null = nullptr;
    *null = 1;
  }
}

__attribute__((no_sanitize("address", "undefined"))) void dividingKernel(const void *, const WorkGroupInfo *info) {
  volatile int numerator = 7;
  volatile int denominator = info->groupId[0] == 2 ? 0 : 1;
  volatile int quotient = numerator / denominator;
  (void)quotient;
}

/// Far deeper than any thread stack allows.
volatile int recursionLimit = 1 << 30;

/// Recurses until the worker's stack runs out (each frame keeps 1 KiB live).
__attribute__((noinline, no_sanitize("address", "undefined"))) int recurseForever(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  if (depth >= recursionLimit)
    return frame[0];
  return recurseForever(depth + 1) + frame[0];
}

__attribute__((no_sanitize("address", "undefined"))) void overflowingKernel(const void *, const WorkGroupInfo *info) {
  if (info->groupId[0] == 1)
    recurseForever(0);
}

/// Runs `kernel` (4 groups of 4) with a user callback and a completion
/// callback after it; returns what both saw (they must agree).
mux::Outcome runFaulting(mux::Device &device, FakeKernel &kernel) {
  mux::Outcome fromCallback, fromCompletion;
  auto commandBuffer = device.createCommandBuffer();
  if (!commandBuffer) {
    ADD_FAILURE() << llvm::toString(commandBuffer.takeError());
    return {};
  }
  auto &cb = **commandBuffer;
  if (auto error = cb.ndrange(kernel, {}, mux::NDRange{1, {0, 0, 0}, {16, 1, 1}, {4, 1, 1}}))
    ADD_FAILURE() << llvm::toString(std::move(error));
  if (auto error = cb.userCallback([&](const mux::Outcome &outcome) { fromCallback = outcome; }))
    ADD_FAILURE() << llvm::toString(std::move(error));
  if (auto error = cb.finalize())
    ADD_FAILURE() << llvm::toString(std::move(error));
  if (auto error =
          device.queue().dispatch(cb, {}, {}, nullptr, [&](const mux::Outcome &outcome) { fromCompletion = outcome; }))
    ADD_FAILURE() << llvm::toString(std::move(error));
  device.queue().waitAll();
  EXPECT_EQ(fromCallback.status, fromCompletion.status);
  EXPECT_EQ(fromCallback.detail, fromCompletion.detail);
  return fromCompletion;
}

std::atomic<int> groupsRun{0};
std::set<std::thread::id> *threadsSeen = nullptr;
std::mutex threadsMutex;

void countingKernel(const void *, const WorkGroupInfo *) {
  groupsRun.fetch_add(1);
  std::lock_guard lock(threadsMutex);
  threadsSeen->insert(std::this_thread::get_id());
}

class HostLaunchTest : public MuxTest {
protected:
  void SetUp() override {
    if (info().targetName != "host")
      GTEST_SKIP() << "host target only";
  }

  mux::KernelArg buffer(mux::Buffer &buffer) {
    mux::KernelArg arg;
    arg.kind = mux::KernelArg::Kind::Buffer;
    arg.buffer = &buffer;
    return arg;
  }
};

TEST_P(HostLaunchTest, NonUniformThreeDimensionalRangeWithOffsetsAndLocalMemory) {
  FakeKernel kernel(indexKernel, 256);
  const std::array<size_t, 3> global{13, 7, 5}, local{4, 3, 2}, offset{5, 2, 9};
  const size_t count = global[0] * global[1] * global[2];
  BoundBuffer out = makeBuffer(count * 4), shape = makeBuffer(count * 4);
  ASSERT_TRUE(out.buffer && shape.buffer);
  mux::KernelArg scale;
  scale.kind = mux::KernelArg::Kind::Value;
  scale.value.resize(4);
  int32_t three = 3;
  std::memcpy(scale.value.data(), &three, 4);
  mux::KernelArg scratch;
  scratch.kind = mux::KernelArg::Kind::Local;
  scratch.localSize = 4 * 24;
  std::vector<mux::KernelArg> args = {buffer(*out.buffer), scale, scratch, buffer(*shape.buffer)};
  mux::NDRange range{3, offset, global, local};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(kernel, args, range));
  badLocalMemory = false;
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_FALSE(badLocalMemory);
  std::vector<uint8_t> outBytes = download(*out.buffer, 0, count * 4),
                       shapeBytes = download(*shape.buffer, 0, count * 4);
  for (size_t z = 0; z < global[2]; ++z)
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        size_t linear = (z * global[1] + y) * global[0] + x;
        int32_t value, groupShape;
        std::memcpy(&value, &outBytes[linear * 4], 4);
        std::memcpy(&groupShape, &shapeBytes[linear * 4], 4);
        ASSERT_EQ(value, int32_t(((x + 5) * 1000 + (y + 2) * 100 + (z + 9)) * 3)) << x << "," << y << "," << z;
        size_t lx = std::min<size_t>(4, 13 - x / 4 * 4), ly = std::min<size_t>(3, 7 - y / 3 * 3),
               lz = std::min<size_t>(2, 5 - z / 2 * 2);
        ASSERT_EQ(groupShape, int32_t(lx + 10 * ly + 100 * lz + 3000)) << x << "," << y << "," << z;
      }
}

TEST_P(HostLaunchTest, ManyGroupsRunExactlyOnceAcrossWorkers) {
  FakeKernel kernel(countingKernel, 0);
  std::set<std::thread::id> seen;
  threadsSeen = &seen;
  groupsRun = 0;
  mux::NDRange range{1, {0, 0, 0}, {100000, 1, 1}, {1, 1, 1}};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(kernel, {}, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(groupsRun.load(), 100000);
  EXPECT_GE(seen.size(), 1u);
  EXPECT_LE(seen.size(), info().computeUnits);
  // Back-to-back launches reuse the pool.
  commandBuffer->reset();
  for (int i = 0; i < 50; ++i)
    MUX_ASSERT_OK(commandBuffer->ndrange(kernel, {}, mux::NDRange{1, {0, 0, 0}, {37, 1, 1}, {2, 1, 1}}));
  groupsRun = 0;
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(groupsRun.load(), 50 * 19);
  threadsSeen = nullptr;
}

// A kernel without arguments packs none: writing them must not pass memcpy
// the null data() of the empty argument bytes (UBSan: nonnull-attribute).
TEST(CpuLaunchPlanTest, KernelWithoutArgumentsWritesNoArguments) {
  compiler::abi::CpuKernelFacts facts{"no_arguments", 0, 0, false, 64};
  const mux::NDRange range{1, {0, 0, 0}, {8, 1, 1}, {4, 1, 1}};
  MUX_ASSERT_VALUE(plan, compiler::abi::CpuLaunchPlan::create(facts, {}, range, /*localMemLimit=*/1024,
                                                              /*printfBufferSize=*/0));
  EXPECT_EQ(plan.argsSize(), 0u);
  std::byte destination[8] = {};
  plan.writeArgs(destination, 0);
  EXPECT_EQ(plan.groupCount(), 2u);
}

// The launch loops step from group to group with nextGroup(); it must land
// on what setGroup() computes for every index, partial groups included.
TEST(CpuLaunchPlanTest, NextGroupMatchesSetGroupAcrossRowsAndPlanes) {
  compiler::abi::CpuKernelFacts facts{"steps", 0, 0, false, 1024};
  const mux::NDRange range{3, {5, 0, 2}, {10, 7, 5}, {4, 3, 2}};
  MUX_ASSERT_VALUE(plan, compiler::abi::CpuLaunchPlan::create(facts, {}, range, /*localMemLimit=*/1024,
                                                              /*printfBufferSize=*/0));
  ASSERT_EQ(plan.groupCount(), 3u * 3u * 3u);
  compiler::abi::WorkGroupInfo stepped = plan.baseInfo();
  plan.setGroup(stepped, 0);
  for (uint64_t index = 0; index < plan.groupCount(); ++index) {
    compiler::abi::WorkGroupInfo expected = plan.baseInfo();
    plan.setGroup(expected, index);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(stepped.groupId[d], expected.groupId[d]) << "group " << index << ", dimension " << d;
      EXPECT_EQ(stepped.localSize[d], expected.localSize[d]) << "group " << index << ", dimension " << d;
    }
    plan.nextGroup(stepped);
  }
}

TEST_P(HostLaunchTest, KernelFaultFailsTheLaunchNotTheProcess) {
  FakeKernel faulting(faultingKernel, 0);
  std::vector<mux::Status> seen;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(faulting, {}, mux::NDRange{1, {0, 0, 0}, {64, 1, 1}, {4, 1, 1}}));
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status status) { seen.push_back(status); }));
  BoundBuffer bound = makeBuffer(16);
  uint8_t value = 5;
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 16, &value, 1));
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status status) { seen.push_back(status); }));
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::KernelFault);
  EXPECT_EQ(seen, (std::vector<mux::Status>{mux::Status::KernelFault, mux::Status::Success}));
  // The fill after the faulting launch still ran, and the queue still works.
  EXPECT_EQ(download(*bound.buffer, 0, 16), std::vector<uint8_t>(16, 5));
}

TEST_P(HostLaunchTest, KernelFaultExplainsInvalidAccess) {
  FakeKernel kernel(faultingKernel, 0, "bad_pointer");
  mux::Outcome outcome = runFaulting(device(), kernel);
  EXPECT_EQ(outcome.status, mux::Status::KernelFault);
  EXPECT_EQ(outcome.detail, "kernel 'bad_pointer' faulted on device '" + info().name +
                                "': invalid memory access (SIGSEGV) at address 0x0");
}

TEST_P(HostLaunchTest, KernelFaultExplainsDivisionByZero) {
#if !defined(__x86_64__) && !defined(__i386__)
  GTEST_SKIP() << "only x86 traps on integer division by zero";
#endif
  FakeKernel kernel(dividingKernel, 0, "divide");
  mux::Outcome outcome = runFaulting(device(), kernel);
  EXPECT_EQ(outcome.status, mux::Status::KernelFault);
  EXPECT_NE(outcome.detail.find("kernel 'divide' faulted on device '" + info().name + "': "), std::string::npos)
      << outcome.detail;
  EXPECT_NE(outcome.detail.find("integer division by zero"), std::string::npos) << outcome.detail;
  EXPECT_NE(outcome.detail.find("(SIGFPE)"), std::string::npos) << outcome.detail;
}

TEST_P(HostLaunchTest, KernelFaultExplainsStackOverflow) {
  FakeKernel kernel(overflowingKernel, 0, "deep");
  mux::Outcome outcome = runFaulting(device(), kernel);
  EXPECT_EQ(outcome.status, mux::Status::KernelFault);
  EXPECT_NE(outcome.detail.find("kernel 'deep' faulted"), std::string::npos) << outcome.detail;
  EXPECT_NE(outcome.detail.find("stack overflow (SIGSEGV at address 0x"), std::string::npos) << outcome.detail;
}

TEST_P(HostLaunchTest, SuccessfulLaunchHasNoDetail) {
  FakeKernel kernel(dividingKernel, 0);
  // Groups 0 and 1 only: no zero divisor.
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(kernel, {}, mux::NDRange{1, {0, 0, 0}, {2, 1, 1}, {1, 1, 1}}));
  mux::Outcome seen(mux::Status::Failure, "not called");
  MUX_ASSERT_OK(commandBuffer->userCallback([&](const mux::Outcome &outcome) { seen = outcome; }));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(seen.status, mux::Status::Success);
  EXPECT_EQ(seen.detail, "");
}

TEST_P(HostLaunchTest, ForeignKernelIsRejected) {
  class NotHost final : public mux::Kernel {
  public:
    const std::string &name() const override { return name_; }
    size_t maxWorkGroupSize() const override { return 1; }
    size_t preferredWorkGroupSizeMultiple() const override { return 1; }
    uint32_t subGroupSize(size_t) const override { return 1; }
    uint64_t localMemSize() const override { return 0; }
    uint64_t privateMemSize() const override { return 0; }
    std::string name_ = "foreign";
  } foreign;
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->ndrange(foreign, {}, mux::NDRange{})), mux::Status::InvalidArgument);
}

INSTANTIATE_MUX_TEST(HostLaunchTest);

} // namespace
} // namespace muxtest
