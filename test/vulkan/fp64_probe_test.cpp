// The fp64 probe (modules/targets/vulkan/fp64_probe.h): its shader is valid
// Vulkan 1.3 SPIR-V, and what a device reports follows what it measured.
#include "vulkan_test.h"

#include "device.h"
#include "fp64_probe.h"

#include <spirv-tools/libspirv.hpp>

#include <string>

namespace vulkantest {
namespace {

TEST(Fp64ProbeShader, IsValidVulkanSpirv) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &, const char *message) {
    messages += std::string(message) + "\n";
  });
  std::vector<uint32_t> binary;
  ASSERT_TRUE(tools.Assemble(std::string(vulkan_target::doubleArithmeticProbeAssembly()), &binary)) << messages;
  EXPECT_TRUE(tools.Validate(binary)) << messages;
}

using Fp64ProbeTest = VulkanTest;

TEST_P(Fp64ProbeTest, MeasuredOnlyWhereTheDeviceHasDoubles) {
  const auto &facts = dynamic_cast<vulkan_target::Device &>(device()).facts();
  if (!facts.features.features.shaderFloat64) {
    EXPECT_FALSE(facts.doubleDenormalsMeasured);
    EXPECT_FALSE(facts.doubleFmaFused);
    EXPECT_FALSE(device().info().fp64);
    return;
  }
  // A device that offers fp64 kept the probe's denormals (or promises
  // them); whether its fma was fused decides only how the compiler computes
  // exact fmas (exactDoubleFma), and the fp64 config claims fma either way.
  if (device().info().fp64) {
    EXPECT_TRUE(facts.doubleDenormalsMeasured || facts.properties12.shaderDenormPreserveFloat64);
    EXPECT_TRUE(device().info().doubleFp.fma);
  }
}

INSTANTIATE_VULKAN_TEST(Fp64ProbeTest);

} // namespace
} // namespace vulkantest
