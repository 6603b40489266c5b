// The simplest kernels: buffers and scalars in push constants, work-item ids.
#include "spirv_test_support.h"

namespace compiler::spirv::test {
namespace {

using abi::vulkan::kNotUsed;
using abi::vulkan::LaunchField;

TEST(SpirvKernels, VectorAdd) {
  Built built = buildOk(R"(
    kernel void add(global const float *a, global const float *b, global float *c) {
      size_t i = get_global_id(0);
      c[i] = a[i] + b[i];
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  EXPECT_EQ(kernel.name, "add");
  ASSERT_EQ(kernel.args.size(), 3u);
  for (const VulkanKernelArg &arg : kernel.args) {
    EXPECT_EQ(arg.kind, VulkanKernelArg::Kind::Buffer);
    EXPECT_EQ(arg.size, 8u);
    EXPECT_EQ(arg.offset % 8, 0u);
    EXPECT_LE(arg.offset + arg.size, kernel.pushConstantSize);
  }
  EXPECT_EQ(kernel.argumentBufferSize, 0u);
  // get_global_id reads the group offset, the enqueued local size and the global offset.
  EXPECT_NE(kernel.offsetOf(LaunchField::GroupOffset), kNotUsed);
  EXPECT_NE(kernel.offsetOf(LaunchField::EnqueuedLocalSize), kNotUsed);
  EXPECT_NE(kernel.offsetOf(LaunchField::GlobalOffset), kNotUsed);
  EXPECT_EQ(kernel.offsetOf(LaunchField::WorkDim), kNotUsed);
  EXPECT_EQ(kernel.offsetOf(LaunchField::PrintfBuffer), kNotUsed);
  EXPECT_LE(kernel.pushConstantSize, 128u);
}

TEST(SpirvKernels, SaxpyWithScalars) {
  Built built = buildOk(R"(
    kernel void saxpy(float a, global const float *x, global float *y, uint n, char c) {
      size_t i = get_global_id(0);
      if (i < n)
        y[i] = a * x[i] + y[i] + c;
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  ASSERT_EQ(kernel.args.size(), 5u);
  EXPECT_EQ(kernel.args[0].kind, VulkanKernelArg::Kind::Value);
  EXPECT_EQ(kernel.args[0].size, 4u);
  EXPECT_EQ(kernel.args[3].size, 4u);
  EXPECT_EQ(kernel.args[4].size, 1u);
  EXPECT_EQ(kernel.args[1].kind, VulkanKernelArg::Kind::Buffer);
  // Arguments do not overlap.
  for (size_t i = 0; i < kernel.args.size(); ++i)
    for (size_t j = i + 1; j < kernel.args.size(); ++j)
      EXPECT_TRUE(kernel.args[i].offset + kernel.args[i].size <= kernel.args[j].offset ||
                  kernel.args[j].offset + kernel.args[j].size <= kernel.args[i].offset);
}

TEST(SpirvKernels, EveryWorkItemBuiltin) {
  Built built = buildOk(R"(
    kernel void ids(global uint *out, uint d) {
      size_t i = get_global_linear_id();
      out[i * 10 + 0] = get_global_id(d);
      out[i * 10 + 1] = get_local_id(1);
      out[i * 10 + 2] = get_group_id(2);
      out[i * 10 + 3] = get_local_size(0);
      out[i * 10 + 4] = get_enqueued_local_size(d);
      out[i * 10 + 5] = get_global_size(1);
      out[i * 10 + 6] = get_num_groups(0);
      out[i * 10 + 7] = get_global_offset(2);
      out[i * 10 + 8] = get_work_dim();
      out[i * 10 + 9] = get_local_linear_id();
    })",
                        "-cl-std=CL3.0");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  for (LaunchField field : {LaunchField::GlobalOffset, LaunchField::GlobalSize, LaunchField::EnqueuedLocalSize,
                            LaunchField::GroupOffset, LaunchField::NumGroups, LaunchField::WorkDim})
    EXPECT_NE(kernel.offsetOf(field), kNotUsed) << unsigned(field);
  EXPECT_EQ(kernel.offsetOf(LaunchField::ArgumentBuffer), kNotUsed);
}

TEST(SpirvKernels, SeveralKernelsInOneModule) {
  Built built = buildOk(R"(
    kernel void first(global int *p) { p[get_global_id(0)] = 1; }
    kernel void second(global int *p, int v) { p[get_local_id(0)] += v; }
  )");
  ASSERT_EQ(built.binary.kernels.size(), 2u);
  EXPECT_NE(kernelNamed(built.binary, "first"), nullptr);
  EXPECT_NE(kernelNamed(built.binary, "second"), nullptr);
  EXPECT_EQ(kernelNamed(built.binary, "second")->offsetOf(LaunchField::GlobalOffset), kNotUsed);
}

} // namespace
} // namespace compiler::spirv::test
