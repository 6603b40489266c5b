// What a vulkan device reports agrees with the Vulkan facts it came from,
// and the compiler configuration agrees with the report.
#include "vulkan_test.h"

#include "device.h"
#include "device_info.h"

#include <algorithm>

namespace vulkantest {
namespace {

using VulkanDeviceInfoTest = VulkanTest;

const vulkan_target::PhysicalDevice &factsOf(mux::Device &device) {
  return dynamic_cast<vulkan_target::Device &>(device).facts();
}

bool has(const std::vector<std::string> &list, const std::string &name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

TEST_P(VulkanDeviceInfoTest, LimitsComeFromTheVulkanDevice) {
  const auto &facts = factsOf(device());
  const VkPhysicalDeviceLimits &limits = facts.properties.limits;
  EXPECT_EQ(info().name, std::string(facts.properties.deviceName));
  EXPECT_EQ(info().vendorId, facts.properties.vendorID);
  EXPECT_EQ(info().maxWorkGroupSize, limits.maxComputeWorkGroupInvocations);
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(info().maxWorkItemSizes[d],
              std::min<size_t>(limits.maxComputeWorkGroupSize[d], limits.maxComputeWorkGroupInvocations));
  EXPECT_EQ(info().localMemSize, limits.maxComputeSharedMemorySize);
  EXPECT_LE(info().maxMemAllocSize, facts.properties11.maxMemoryAllocationSize);
  EXPECT_FALSE(info().commandsAccessHostMemory);
  const mux::DeviceType expectedType = facts.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? mux::DeviceType::CPU
                                       : facts.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_OTHER
                                           ? mux::DeviceType::Accelerator
                                           : mux::DeviceType::GPU;
  EXPECT_EQ(info().type, expectedType);
}

TEST_P(VulkanDeviceInfoTest, ArithmeticIsReportedAsTheDeviceGuaranteesIt) {
  const auto &facts = factsOf(device());
  EXPECT_EQ(info().singleFp.denorms, bool(facts.properties12.shaderDenormPreserveFloat32));
  EXPECT_FALSE(info().singleFp.roundToZero);
  EXPECT_FALSE(info().singleFp.correctlyRoundedDivideSqrt);
  // Denormals promised or measured (fp64_probe.h); an Fma that rounds twice
  // is replaced by the compiler (CompilerConfigurationMatchesTheReport).
  EXPECT_EQ(info().fp64, bool(facts.features.features.shaderFloat64 &&
                              (facts.properties12.shaderDenormPreserveFloat64 || facts.doubleDenormalsMeasured)));
  if (!facts.features.features.shaderFloat64) {
    EXPECT_FALSE(facts.doubleDenormalsMeasured);
    EXPECT_FALSE(facts.doubleFmaFused);
  }
  EXPECT_EQ(has(info().extensions, "cl_khr_fp64"), info().fp64);
  EXPECT_EQ(has(info().extensions, "cl_khr_fp16"), info().fp16);
  EXPECT_EQ(has(info().extensions, "cl_khr_int64_base_atomics"), info().atomics64);
  // Vulkan promises no independent forward progress of subgroups, which
  // cl_khr_subgroups requires: sub-groups are the OpenCL 3.0 feature only.
  EXPECT_FALSE(has(info().extensions, "cl_khr_subgroups"));
  EXPECT_FALSE(info().subGroupIndependentForwardProgress);
  EXPECT_EQ(has(info().openclCFeatures, "__opencl_c_subgroups"), !info().subGroupSizes.empty());
  if (!info().subGroupSizes.empty()) {
    EXPECT_EQ(info().subGroupSizes, std::vector<uint32_t>{facts.properties11.subgroupSize});
  }
}

TEST_P(VulkanDeviceInfoTest, CompilerConfigurationMatchesTheReport) {
  const auto &facts = factsOf(device());
  compiler::VulkanTargetConfig config = vulkan_target::compilerConfig(facts, info());
  EXPECT_EQ(config.maxPushConstantsSize, facts.properties.limits.maxPushConstantsSize);
  EXPECT_EQ(config.fp64, info().fp64);
  EXPECT_EQ(config.shaderFloat64, bool(facts.features.features.shaderFloat64));
  EXPECT_EQ(config.exactDoubleFma, facts.doubleFmaFused);
  EXPECT_TRUE(!config.fp64 || config.shaderFloat64);
  EXPECT_EQ(config.fp16, info().fp16);
  EXPECT_EQ(config.atomicInt64, info().atomics64);
  EXPECT_EQ(config.subgroupSize, info().subGroupSizes.empty() ? 0u : info().subGroupSizes.front());
  for (const std::string &extension : info().extensions)
    EXPECT_TRUE(has(config.extensions, extension)) << extension;
  for (const std::string &feature : info().openclCFeatures)
    EXPECT_TRUE(has(config.extensions, feature)) << feature;
  EXPECT_EQ(has(config.extensions, "__opencl_c_fp64"), info().fp64);
  EXPECT_TRUE(has(config.extensions, "__opencl_c_int64"));
  EXPECT_FALSE(config.deviceIdentity.empty());
}

INSTANTIATE_VULKAN_TEST(VulkanDeviceInfoTest);

} // namespace
} // namespace vulkantest
