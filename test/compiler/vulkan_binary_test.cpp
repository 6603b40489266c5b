// The vulkan binary container: round trip and rejection of damaged input.
#include "compiler/vulkan_binary.h"

#include <gtest/gtest.h>

namespace {

using compiler::VulkanBinary;
using compiler::VulkanKernelArg;
using compiler::abi::vulkan::LaunchField;

VulkanBinary sample() {
  VulkanBinary binary;
  compiler::VulkanKernelBinaryInfo kernel;
  kernel.name = "saxpy";
  kernel.reqdWorkGroupSize = {64, 1, 1};
  kernel.localMemSize = 256;
  kernel.pushConstantSize = 40;
  kernel.launchFieldOffsets[static_cast<uint32_t>(LaunchField::GlobalOffset)] = 24;
  kernel.flags = compiler::VulkanKernelUsesPrintf;
  kernel.args = {{VulkanKernelArg::Kind::Buffer, 0, 8, 0},
                 {VulkanKernelArg::Kind::Value, 8, 4, 0},
                 {VulkanKernelArg::Kind::Local, 0, 0, 3}};
  binary.kernels.push_back(kernel);
  binary.globalVariableSize = 64;
  binary.globalVariableInit = {std::byte{1}, std::byte{2}};
  binary.globalVariableRelocations = {{8, 0}, {56, 20}};
  binary.printfTable = {std::byte{'P'}};
  binary.spirv = {0x07230203u, 0x00010600u, 0, 10, 0};
  return binary;
}

TEST(VulkanBinary, RoundTrips) {
  auto decoded = compiler::decodeVulkanBinary(compiler::encodeVulkanBinary(sample()));
  ASSERT_TRUE(static_cast<bool>(decoded)) << llvm::toString(decoded.takeError());
  ASSERT_EQ(decoded->kernels.size(), 1u);
  const auto &kernel = decoded->kernels[0];
  EXPECT_EQ(kernel.name, "saxpy");
  EXPECT_EQ(kernel.reqdWorkGroupSize[0], 64u);
  EXPECT_EQ(kernel.localMemSize, 256u);
  EXPECT_EQ(kernel.pushConstantSize, 40u);
  EXPECT_EQ(kernel.offsetOf(LaunchField::GlobalOffset), 24u);
  EXPECT_EQ(kernel.offsetOf(LaunchField::PrintfBuffer), compiler::abi::vulkan::kNotUsed);
  EXPECT_EQ(kernel.flags, compiler::VulkanKernelUsesPrintf);
  ASSERT_EQ(kernel.args.size(), 3u);
  EXPECT_EQ(kernel.args[1].offset, 8u);
  EXPECT_EQ(kernel.args[2].kind, VulkanKernelArg::Kind::Local);
  EXPECT_EQ(kernel.args[2].specConstantId, 3u);
  EXPECT_EQ(decoded->globalVariableSize, 64u);
  EXPECT_EQ(decoded->globalVariableInit.size(), 2u);
  ASSERT_EQ(decoded->globalVariableRelocations.size(), 2u);
  EXPECT_EQ(decoded->globalVariableRelocations[1].offset, 56u);
  EXPECT_EQ(decoded->globalVariableRelocations[1].target, 20u);
  EXPECT_EQ(decoded->spirv, sample().spirv);
}

TEST(VulkanBinary, RejectsARelocationOutsideTheBlock) {
  compiler::VulkanBinary binary = sample();
  binary.globalVariableRelocations = {{60, 0}}; // 8 bytes at 60 pass the 64-byte block
  auto decoded = compiler::decodeVulkanBinary(compiler::encodeVulkanBinary(binary));
  EXPECT_FALSE(static_cast<bool>(decoded));
  llvm::consumeError(decoded.takeError());
}

TEST(VulkanBinary, RejectsDamagedInput) {
  auto bytes = compiler::encodeVulkanBinary(sample());
  for (size_t cut : {size_t{0}, size_t{7}, bytes.size() / 2, bytes.size() - 1}) {
    auto decoded = compiler::decodeVulkanBinary(std::span(bytes).first(cut));
    EXPECT_FALSE(static_cast<bool>(decoded)) << "cut at " << cut;
    llvm::consumeError(decoded.takeError());
  }
  bytes[bytes.size() / 2] ^= std::byte{0x40};
  auto decoded = compiler::decodeVulkanBinary(bytes);
  EXPECT_FALSE(static_cast<bool>(decoded));
  llvm::consumeError(decoded.takeError());
}

} // namespace
