// Images and samplers on the SPIR-V route (passes/lower_image_handles.cpp):
// a kernel takes an image as its descriptor's address and a sampler as its
// CLK_* bits (compiler/abi/image_abi.h), an image whose texels it reaches
// has the range of its texels beside its own, and an image builtin the
// library does not have fails the build naming it.
#include "spirv_test_support.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <map>

namespace compiler::spirv::test {
namespace {

using abi::vulkan::kNotUsed;

VulkanTargetConfig withImages() {
  VulkanTargetConfig config = lavapipeConfig();
  config.extensions.insert(config.extensions.end(), {"__opencl_c_images", "__opencl_c_read_write_images",
                                                     "__opencl_c_3d_image_writes", "cl_khr_3d_image_writes"});
  return config;
}

TEST(SpirvImages, ImagesAreDescriptorAddressesAndSamplersTheirBits) {
  Built built = buildOk(R"(
    kernel void k(read_only image2d_t in, sampler_t s, write_only image2d_t out, global float4 *result) {
      int2 c = (int2)(get_global_id(0), get_global_id(1));
      float4 v = read_imagef(in, s, c);
      write_imagef(out, c, v);
      result[get_global_id(0)] = v;
    })",
                        "", withImages());
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const std::vector<VulkanKernelArg> &args = built.binary.kernels[0].args;
  ASSERT_EQ(args.size(), 4u);
  for (size_t image : {0u, 2u}) {
    EXPECT_EQ(args[image].kind, VulkanKernelArg::Kind::Buffer) << image;
    EXPECT_EQ(args[image].size, 8u) << image;
    EXPECT_NE(args[image].rangeOffset, kNotUsed) << image;
    EXPECT_NE(args[image].texelRangeOffset, kNotUsed) << image;
  }
  EXPECT_EQ(args[1].kind, VulkanKernelArg::Kind::Value);
  EXPECT_EQ(args[1].size, 8u);
  EXPECT_NE(args[3].rangeOffset, kNotUsed);
  EXPECT_EQ(args[3].texelRangeOffset, kNotUsed);
  // Every argument and range has bytes of its own.
  std::vector<std::pair<uint32_t, uint32_t>> spans;
  for (const VulkanKernelArg &arg : args) {
    spans.push_back({arg.offset, arg.offset + arg.size});
    for (uint32_t range : {arg.rangeOffset, arg.texelRangeOffset})
      if (range != kNotUsed)
        spans.push_back({range, range + uint32_t(sizeof(abi::vulkan::AccessRange))});
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i)
    EXPECT_LE(spans[i - 1].second, spans[i].first);
}

TEST(SpirvImages, QueriesReadTheDescriptorOnly) {
  Built built = buildOk(R"(
    kernel void k(read_only image3d_t img, global int4 *result) {
      result[0] = (int4)(get_image_width(img), get_image_height(img), get_image_depth(img),
                         get_image_channel_order(img));
    })",
                        "", withImages());
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelArg &image = built.binary.kernels[0].args[0];
  EXPECT_NE(image.rangeOffset, kNotUsed);
  EXPECT_EQ(image.texelRangeOffset, kNotUsed);
}

TEST(SpirvImages, ConstantSamplersAndSamplersPassedToFunctions) {
  // Unoptimised, each image and sampler also lives in a variable.
  for (const char *options : {"", "-cl-opt-disable"}) {
    Built built = buildOk(R"(
      constant sampler_t repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
      float4 fetch(read_only image2d_array_t img, sampler_t s, float4 c) { return read_imagef(img, s, c); }
      kernel void k(read_only image2d_array_t img, sampler_t given, global float4 *result) {
        const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
        float4 c = (float4)(0.25f, 0.5f, 1.0f, 0.0f);
        result[0] = fetch(img, repeat, c) + fetch(img, nearest, c) + fetch(img, given, c);
      })",
                          options, withImages());
    ASSERT_EQ(built.binary.kernels.size(), 1u) << options;
    EXPECT_EQ(built.binary.kernels[0].args[1].kind, VulkanKernelArg::Kind::Value) << options;
  }
}

/// The memory semantics of each OpControlBarrier of `spirv`, in order.
std::vector<uint32_t> barrierSemantics(const std::vector<uint32_t> &spirv) {
  std::map<uint32_t, uint32_t> constants; // OpConstant result id -> value
  std::vector<uint32_t> semantics;
  countInstructions(spirv, [&](std::span<const uint32_t> words) {
    const auto opcode = spv::Op(words[0] & 0xffff);
    if (opcode == spv::Op::OpConstant && words.size() == 4)
      constants[words[2]] = words[3];
    else if (opcode == spv::Op::OpControlBarrier)
      semantics.push_back(constants.at(words[3]));
    return false;
  });
  return semantics;
}

TEST(SpirvImages, ImagesAndSamplersChosenAtRunTime) {
  // Selects (phis, unoptimised) of images and samplers become selects of
  // descriptor addresses and sampler bits; each image keeps its texels'
  // range.
  for (const char *options : {"", "-cl-opt-disable"}) {
    Built built = buildOk(R"(
      kernel void k(read_only image2d_t a, read_only image2d_t b, sampler_t s, int c, global float4 *out) {
        const sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
        sampler_t chosen = c ? s : linear;
        out[0] = read_imagef(c > 1 ? a : b, chosen, (float2)(0.5f, 0.5f));
      })",
                          options, withImages());
    ASSERT_EQ(built.binary.kernels.size(), 1u) << options;
    const std::vector<VulkanKernelArg> &args = built.binary.kernels[0].args;
    EXPECT_NE(args[0].texelRangeOffset, kNotUsed) << options;
    EXPECT_NE(args[1].texelRangeOffset, kNotUsed) << options;
  }
}

TEST(SpirvImages, ImageFencesOrderGlobalMemory) {
  // The texels are __global memory: a barrier with CLK_IMAGE_MEM_FENCE
  // orders it (UniformMemory, 0x40), as CLK_GLOBAL_MEM_FENCE does.
  Built built = buildOk(R"(
    kernel void k(read_write image1d_t img) {
      int x = get_global_id(0);
      write_imagei(img, x, (int4)(x));
      work_group_barrier(CLK_IMAGE_MEM_FENCE);
      int4 v = read_imagei(img, (x + 1) % (int)get_local_size(0));
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      write_imagei(img, x, v);
    })",
                        "-cl-std=CL3.0", withImages());
  const std::vector<uint32_t> semantics = barrierSemantics(built.binary.spirv);
  ASSERT_EQ(semantics.size(), 2u);
  EXPECT_EQ(semantics[0] & 0x40, 0x40u);
  EXPECT_EQ(semantics[1] & 0x40, 0u);
  EXPECT_EQ(semantics[1] & 0x100, 0x100u);
}

TEST(SpirvImages, ImageBuiltinsOutsideTheLibraryFailTheBuild) {
  // Depth images (cl_khr_depth_images) have no builtins in the library.
  VulkanTargetConfig config = withImages();
  config.extensions.push_back("cl_khr_depth_images");
  const std::string log = buildFails(R"(
    kernel void k(read_only image2d_depth_t img, sampler_t s, global float *result) {
      result[0] = read_imagef(img, s, (int2)(0, 0));
    })",
                                     "-cl-std=CL3.0", config);
  EXPECT_NE(log.find("read_imagef20ocl_image2d_depth"), std::string::npos) << log;
  EXPECT_NE(log.find("not in the builtins library"), std::string::npos) << log;
}

} // namespace
} // namespace compiler::spirv::test
