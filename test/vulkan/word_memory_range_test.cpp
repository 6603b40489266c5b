// __local and private memory are word arrays whose write indices the kernel
// clamps to their last word (compiler/abi/vulkan_kernel_abi.h): a store at a
// wild index lands in the kernel's own memory, so it neither corrupts the
// driver's memory (lavapipe runs shaders in the application's process; it
// died of SIGSEGV without the clamp) nor faults the GPU. On a CPU device
// (lavapipe), where a wild read faults the process too, reads are clamped
// as well.
#include "vulkan_test.h"

#include <cstdint>
#include <optional>
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

class WordMemoryRangeTest : public VulkanTest {
protected:
  /// Runs `kernel`(out, index) on one work-group of 4 and returns the first
  /// `words` words of out; nothing (after a failure) when the run fails.
  std::optional<std::vector<uint32_t>> runWithIndex(mux::Kernel &kernel, uint32_t index, size_t words) {
    const uint64_t bytes = words * sizeof(uint32_t);
    muxtest::BoundBuffer out = makeBuffer(bytes);
    auto commandBuffer = makeCommandBuffer();
    mux::NDRange range;
    range.dimensions = 1;
    range.globalSize = {4, 1, 1};
    range.localSize = {4, 1, 1};
    std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get()), muxtest::valueArg(index)};
    if (llvm::Error error = commandBuffer->ndrange(kernel, args, range)) {
      ADD_FAILURE() << llvm::toString(std::move(error));
      return std::nullopt;
    }
    std::vector<uint32_t> values(words);
    recordRead(*commandBuffer, *out.buffer, 0, values.data(), bytes);
    if (mux::Status status = runAndWait(*commandBuffer); status != mux::Status::Success) {
      ADD_FAILURE() << "index " << index << ": the run failed: " << mux::statusName(status);
      return std::nullopt;
    }
    finishReads();
    return values;
  }
};

TEST_P(WordMemoryRangeTest, StoresAtWildIndicesStayInTheKernelsOwnMemory) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "wild");
  // Far past the kernel's words (4 MiB, 16 GiB), and just past them.
  for (uint32_t index : {uint32_t(1) << 20, uint32_t(0xfffffff0), uint32_t(8), uint32_t(12)}) {
    std::optional<std::vector<uint32_t>> values = runWithIndex(*compiled->kernel, index, 12);
    ASSERT_TRUE(values);
    // At most one word the kernel reads back took the wild store: the last
    // word of __local memory, wherever the layout put it.
    size_t changed = 0;
    for (size_t i = 0; i < 12; ++i) {
      const uint32_t expected = i < 4 ? 1u : i < 8 ? 2u : 3u;
      if ((*values)[i] != expected) {
        EXPECT_EQ((*values)[i], 99u) << "index " << index << ", element " << i;
        ++changed;
      }
    }
    EXPECT_LE(changed, 1u) << "index " << index;
  }
}

TEST_P(WordMemoryRangeTest, ReadsAtWildIndicesOnACpuDeviceStayInTheKernelsOwnMemory) {
  if (info().type != mux::DeviceType::CPU)
    GTEST_SKIP() << "reads are clamped on CPU devices only";
  MUX_COMPILE_OR_SKIP(compiled, kSource, "wild_read");
  for (uint32_t index : {uint32_t(1) << 20, uint32_t(0xfffffff0)}) {
    std::optional<std::vector<uint32_t>> values = runWithIndex(*compiled->kernel, index, 4);
    ASSERT_TRUE(values);
    // The last word of each array: tile[3] + mine[3].
    for (uint32_t value : *values)
      EXPECT_EQ(value, 6u) << "index " << index;
  }
}

INSTANTIATE_VULKAN_TEST(WordMemoryRangeTest);

} // namespace
} // namespace vulkantest
