// Compiled kernels whose accesses at constant offsets from one pointer share
// one check (GuardBufferAccessesPass): a span that runs past the end of its
// buffer fails the command as a kernel fault, a span inside it does not, and
// an access in a branch not taken never fails a launch.
#include "vulkan_test.h"

#include <cstdint>
#include <vector>

namespace vulkantest {
namespace {

constexpr const char *kSource = R"(
kernel void spill(global uint *out, uint first, uint far) {
  out[first] = 10;
  out[first + 1] = 11;
  out[first + 2] = 12;
  out[first + 3] = 13;
  if (far)
    out[first + 1000] = 14;
}
)";

constexpr size_t kElements = 64;

class CheckedSpanTest : public VulkanTest {
protected:
  /// Runs spill(out, first, far) on one work-item over a zeroed buffer of
  /// kElements; `contents` is the buffer afterwards when the run succeeded.
  mux::Status runSpill(mux::Kernel &spill, uint32_t first, uint32_t far, std::vector<uint32_t> &contents) {
    const uint64_t bytes = kElements * sizeof(uint32_t);
    muxtest::BoundBuffer out = makeBuffer(bytes);
    contents.assign(kElements, 0);
    auto commandBuffer = makeCommandBuffer();
    recordWrite(*commandBuffer, *out.buffer, 0, contents.data(), bytes);
    mux::NDRange range;
    range.dimensions = 1;
    range.globalSize = {1, 1, 1};
    range.localSize = {1, 1, 1};
    std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get()), muxtest::valueArg(first), muxtest::valueArg(far)};
    if (llvm::Error error = commandBuffer->ndrange(spill, args, range)) {
      ADD_FAILURE() << llvm::toString(std::move(error));
      return mux::Status::Failure;
    }
    mux::Status status = runAndWait(*commandBuffer);
    if (status == mux::Status::Success) {
      auto readBack = makeCommandBuffer();
      recordRead(*readBack, *out.buffer, 0, contents.data(), bytes);
      EXPECT_EQ(runAndWait(*readBack), mux::Status::Success);
      finishReads();
    }
    return status;
  }
};

TEST_P(CheckedSpanTest, ASpanInsideItsBufferRuns) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "spill");
  std::vector<uint32_t> contents;
  ASSERT_EQ(runSpill(*compiled->kernel, kElements - 4, 0, contents), mux::Status::Success);
  for (size_t i = 0; i < kElements; ++i)
    EXPECT_EQ(contents[i], i >= kElements - 4 ? 10 + (i - (kElements - 4)) : 0) << i;
}

TEST_P(CheckedSpanTest, ASpanPastTheEndOfItsBufferFaults) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "spill");
  std::vector<uint32_t> contents;
  // Elements 62 and 63 exist, 64 and 65 do not.
  EXPECT_EQ(runSpill(*compiled->kernel, kElements - 2, 0, contents), mux::Status::KernelFault);
}

TEST_P(CheckedSpanTest, AnAccessInABranchNotTakenIsNotPartOfTheSpan) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "spill");
  std::vector<uint32_t> contents;
  ASSERT_EQ(runSpill(*compiled->kernel, 0, 0, contents), mux::Status::Success);
  EXPECT_EQ(contents[3], 13u);
  // Taken, element 1000 is outside the buffer.
  EXPECT_EQ(runSpill(*compiled->kernel, 0, 1, contents), mux::Status::KernelFault);
}

INSTANTIATE_VULKAN_TEST(CheckedSpanTest);

} // namespace
} // namespace vulkantest
