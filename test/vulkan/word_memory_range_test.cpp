// __local and private memory are word arrays whose write indices the kernel
// clamps to their last word (compiler/abi/vulkan_kernel_abi.h): a store at a
// wild index lands in the kernel's own memory, so it neither corrupts the
// driver's memory (lavapipe runs shaders in the application's process; it
// died of SIGSEGV without the clamp) nor faults the GPU. On a CPU device
// (lavapipe), where a wild read faults the process too, reads are clamped
// as well.
#include "vulkan_test.h"

#include <cstdint>
#include <vector>

namespace vulkantest {
namespace {

constexpr const char *kSource = R"(
kernel void wild_read(global uint *out, uint index) {
  local uint tile[4];
  uint mine[4];
  uint lid = get_local_id(0);
  tile[lid] = lid;
  for (int i = 0; i < 4; ++i)
    mine[i] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = tile[index] + mine[index];
}

kernel void wild(global uint *out, uint index) {
  local uint tile[4];
  local uint after[4];
  uint mine[4];
  uint lid = get_local_id(0);
  tile[lid] = 1;
  after[lid] = 2;
  for (int i = 0; i < 4; ++i)
    mine[i] = 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    tile[index] = 99;
    mine[index] = 99;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = tile[lid];
  out[4 + lid] = after[lid];
  out[8 + lid] = mine[lid];
}
)";

using WordMemoryRangeTest = VulkanTest;

TEST_P(WordMemoryRangeTest, StoresAtWildIndicesStayInTheKernelsOwnMemory) {
  std::optional<CompiledKernel> compiled = compileKernel(kSource, "wild");
  if (!compiled) {
    if (!HasFailure())
      GTEST_SKIP() << "no compiler in this build";
    return;
  }
  mux::Kernel &kernel = *compiled->kernel;
  // Far past the kernel's words (4 MiB, 16 GiB), and just past them.
  for (uint32_t index : {uint32_t(1) << 20, uint32_t(0xfffffff0), uint32_t(8), uint32_t(12)}) {
    const uint64_t bytes = 12 * sizeof(uint32_t);
    muxtest::BoundBuffer out = makeBuffer(bytes);
    auto commandBuffer = makeCommandBuffer();
    mux::NDRange range;
    range.dimensions = 1;
    range.globalSize = {4, 1, 1};
    range.localSize = {4, 1, 1};
    std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get()), muxtest::valueArg(index)};
    MUX_ASSERT_OK(commandBuffer->ndrange(kernel, args, range));
    std::vector<uint32_t> values(12);
    recordRead(*commandBuffer, *out.buffer, 0, values.data(), bytes);
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success) << index;
    finishReads();
    // At most one word the kernel reads back took the wild store: the last
    // word of __local memory, wherever the layout put it.
    size_t changed = 0;
    for (size_t i = 0; i < 12; ++i) {
      const uint32_t expected = i < 4 ? 1u : i < 8 ? 2u : 3u;
      if (values[i] != expected) {
        EXPECT_EQ(values[i], 99u) << "index " << index << ", element " << i;
        ++changed;
      }
    }
    EXPECT_LE(changed, 1u) << "index " << index;
  }
}

TEST_P(WordMemoryRangeTest, ReadsAtWildIndicesOnACpuDeviceStayInTheKernelsOwnMemory) {
  if (info().type != mux::DeviceType::CPU)
    GTEST_SKIP() << "reads are clamped on CPU devices only";
  std::optional<CompiledKernel> compiled = compileKernel(kSource, "wild_read");
  if (!compiled) {
    if (!HasFailure())
      GTEST_SKIP() << "no compiler in this build";
    return;
  }
  for (uint32_t index : {uint32_t(1) << 20, uint32_t(0xfffffff0)}) {
    muxtest::BoundBuffer out = makeBuffer(4 * sizeof(uint32_t));
    auto commandBuffer = makeCommandBuffer();
    mux::NDRange range;
    range.dimensions = 1;
    range.globalSize = {4, 1, 1};
    range.localSize = {4, 1, 1};
    std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get()), muxtest::valueArg(index)};
    MUX_ASSERT_OK(commandBuffer->ndrange(*compiled->kernel, args, range));
    std::vector<uint32_t> values(4);
    recordRead(*commandBuffer, *out.buffer, 0, values.data(), values.size() * sizeof(uint32_t));
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success) << index;
    finishReads();
    // The last word of each array: tile[3] + mine[3].
    for (uint32_t value : values)
      EXPECT_EQ(value, 6u) << "index " << index;
  }
}

INSTANTIATE_VULKAN_TEST(WordMemoryRangeTest);

} // namespace
} // namespace vulkantest
