// Every kernel counts its finished work-items into the launch's progress
// counter (compiler/abi/vulkan_kernel_abi.h, "Progress"): once per
// sub-group where the device has sub-group operations, else once per
// work-item; and the device's scratch address is a specialization
// constant, not a launch field.
#include "spirv/unified1/spirv.hpp"
#include "spirv_test_support.h"

namespace compiler::spirv::test {
namespace {

using abi::vulkan::kNotUsed;
using abi::vulkan::LaunchField;

constexpr const char *kTwoReturns = R"(
    kernel void k(global int *out, int n) {
      size_t i = get_global_id(0);
      if (i >= n)
        return;
      out[i] = (int)i;
    })";

/// How many OpDecorate ... SpecId `id` the module has.
size_t specIdDecorations(const std::vector<uint32_t> &spirv, uint32_t id) {
  return countInstructions(spirv, [&](std::span<const uint32_t> words) {
    return (words[0] & 0xffff) == uint32_t(spv::OpDecorate) && words.size() == 4 &&
           words[2] == uint32_t(spv::DecorationSpecId) && words[3] == id;
  });
}

TEST(SpirvProgress, EachSubGroupAddsItsWorkItemsOnce) {
  VulkanTargetConfig config = lavapipeConfig();
  config.subgroupSize = 8;
  Built built = buildOk(kTwoReturns, "", config);
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  EXPECT_NE(built.binary.kernels[0].offsetOf(LaunchField::Progress), kNotUsed);
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpGroupNonUniformElect),
            opcodeCount(built.binary.spirv, spv::OpReturn));
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicIAdd), opcodeCount(built.binary.spirv, spv::OpReturn));
  EXPECT_GE(opcodeCount(built.binary.spirv, spv::OpGroupNonUniformBallotBitCount), 1u);
  EXPECT_EQ(validationMessages(built.binary.spirv), "");
}

TEST(SpirvProgress, WithoutSubGroupsEachWorkItemAddsOne) {
  Built built = buildOk(kTwoReturns);
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  EXPECT_NE(built.binary.kernels[0].offsetOf(LaunchField::Progress), kNotUsed);
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpGroupNonUniformElect), 0u);
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicIAdd), opcodeCount(built.binary.spirv, spv::OpReturn));
}

TEST(SpirvProgress, TheScratchAddressIsASpecializationConstant) {
  Built built = buildOk(kTwoReturns);
  // The store is checked, so a failed one needs the scratch area.
  EXPECT_EQ(specIdDecorations(built.binary.spirv, abi::vulkan::kAccessScratchSpecId), 1u);
}

} // namespace
} // namespace compiler::spirv::test
