// The runtime hands the device's shaderFloat64 feature to the compiler
// (VulkanTargetConfig::shaderFloat64), which then uses double precision
// inside generated code for an exact float fma and an accurate sqrt even
// where the device does not offer cl_khr_fp64 (lavapipe: no denorm controls).
#include "vulkan_test.h"

#include "compiler/target.h"
#include "compiler/vulkan_binary.h"
#include "device.h"

#include <spirv/unified1/spirv.hpp>

#include <cmath>

namespace vulkantest {
namespace {

using ShaderFloat64Test = VulkanTest;

constexpr const char *kSource = R"(
kernel void fused(global const float *a, global const float *b, global const float *c,
                  global float *product, global float *root) {
  size_t i = get_global_id(0);
  product[i] = fma(a[i], b[i], c[i]);
  root[i] = sqrt(a[i]);
}
)";

/// True when `spirv` declares `capability`.
bool declares(const std::vector<uint32_t> &spirv, spv::Capability capability) {
  for (size_t i = 5; i < spirv.size();) {
    uint32_t count = spirv[i] >> 16, opcode = spirv[i] & 0xFFFF;
    if (count == 0)
      return false;
    if (opcode == spv::OpCapability && count == 2 && spirv[i + 1] == uint32_t(capability))
      return true;
    i += count;
  }
  return false;
}

/// Inputs whose fma differs from a rounded multiply then add: products
/// (1 + x)(1 - x) = 1 - x^2 whose low bits a separate rounding loses.
void fillInputs(std::vector<float> &a, std::vector<float> &b, std::vector<float> &c) {
  for (size_t i = 0; i < a.size(); ++i) {
    float x = std::ldexp(1.0f + float(i % 61) / 64, -12 - int(i % 9));
    a[i] = 1.0f + x;
    b[i] = (i % 3 == 0) ? 1.0f - x : 3.0f + float(i) / 7;
    c[i] = (i % 2 == 0) ? -1.0f : -a[i] * b[i];
  }
}

TEST_P(ShaderFloat64Test, DoubleInsideGeneratedCodeGivesExactFmaAndSqrt) {
  const auto &facts = dynamic_cast<vulkan_target::Device &>(device()).facts();
  if (!facts.features.features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64";

  MUX_COMPILE_OR_SKIP(compiled, kSource, "fused");
  MUX_ASSERT_VALUE(decoded, compiler::decodeVulkanBinary(compiled->binary));
  // Doubles in the module although the kernel has none: the compiler was
  // told it may use them (whether or not the device claims cl_khr_fp64).
  EXPECT_TRUE(declares(decoded.spirv, spv::CapabilityFloat64));
  mux::Kernel &kernel = *compiled->kernel;
  constexpr size_t kCount = 1024;
  std::vector<float> a(kCount), b(kCount), c(kCount);
  fillInputs(a, b, c);
  const uint64_t bytes = kCount * sizeof(float);
  muxtest::BoundBuffer bufA = makeBuffer(bytes), bufB = makeBuffer(bytes), bufC = makeBuffer(bytes),
                       product = makeBuffer(bytes), root = makeBuffer(bytes);
  ASSERT_TRUE(bufA.buffer && bufB.buffer && bufC.buffer && product.buffer && root.buffer);

  auto commandBuffer = makeCommandBuffer();
  recordWrite(*commandBuffer, *bufA.buffer, 0, a.data(), bytes);
  recordWrite(*commandBuffer, *bufB.buffer, 0, b.data(), bytes);
  recordWrite(*commandBuffer, *bufC.buffer, 0, c.data(), bytes);
  mux::NDRange range;
  range.dimensions = 1;
  range.globalSize = {kCount, 1, 1};
  range.localSize = {64, 1, 1};
  std::vector<mux::KernelArg> args = {bufferArg(bufA.buffer.get()), bufferArg(bufB.buffer.get()),
                                      bufferArg(bufC.buffer.get()), bufferArg(product.buffer.get()),
                                      bufferArg(root.buffer.get())};
  MUX_ASSERT_OK(commandBuffer->ndrange(kernel, args, range));
  std::vector<float> products(kCount), roots(kCount);
  recordRead(*commandBuffer, *product.buffer, 0, products.data(), bytes);
  recordRead(*commandBuffer, *root.buffer, 0, roots.data(), bytes);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  finishReads();

  size_t differsFromUnfused = 0;
  for (size_t i = 0; i < kCount; ++i) {
    // The host's fma is correctly rounded; so is the double root rounded
    // to float (a double has more than twice float's precision).
    EXPECT_EQ(products[i], std::fma(a[i], b[i], c[i])) << i << ": " << a[i] << " * " << b[i] << " + " << c[i];
    EXPECT_EQ(roots[i], float(std::sqrt(double(a[i])))) << i << ": sqrt " << a[i];
    volatile float rounded = a[i] * b[i];
    differsFromUnfused += float(rounded + c[i]) != std::fma(a[i], b[i], c[i]);
  }
  // The inputs do tell a fused from an unfused evaluation.
  EXPECT_GT(differsFromUnfused, kCount / 4);
}

INSTANTIATE_VULKAN_TEST(ShaderFloat64Test);

} // namespace
} // namespace vulkantest
