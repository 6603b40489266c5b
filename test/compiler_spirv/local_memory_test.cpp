// __local variables and arguments (Workgroup word arrays), barriers, and
// private arrays (Function word arrays).
#include "spirv_test_support.h"

#include "spirv/unified1/GLSL.std.450.h"
#include "spirv/unified1/spirv.hpp"

namespace compiler::spirv::test {
namespace {

TEST(SpirvLocalMemory, ReductionWithLocalArgumentAndBarriers) {
  Built built = buildOk(R"(
    kernel void reduce(global const float *in, global float *out, local float *scratch) {
      uint lid = get_local_id(0);
      scratch[lid] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (lid < stride)
          scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (lid == 0)
        out[get_group_id(0)] = scratch[0];
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  ASSERT_EQ(kernel.args.size(), 3u);
  EXPECT_EQ(kernel.args[2].kind, VulkanKernelArg::Kind::Local);
  EXPECT_EQ(kernel.args[2].specConstantId, abi::vulkan::kFirstLocalArgSpecId);
  EXPECT_EQ(kernel.args[2].size, 4u); // the alignment of its offset: an int's
  EXPECT_EQ(kernel.localMemSize, 0u);
}

TEST(SpirvLocalMemory, StaticLocalVariablesOfEveryWidth) {
  Built built = buildOk(R"(
    kernel void k(global int *p, global long *l, global uchar *c, local int *a, local short *b) {
      local int tile[64];
      local double wide[8];
      local uchar bytes[16];
      uint lid = get_local_id(0);
      tile[lid & 63] = p[lid];
      wide[lid & 7] = (double)p[lid];
      bytes[lid & 15] = c[lid];
      a[lid] = lid;
      b[lid] = (short)lid;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      p[lid] = tile[63 - (lid & 63)] + a[0] + b[1] + atomic_add(&tile[0], 1);
      l[lid] = (long)wide[lid & 7];
      c[lid] = bytes[15 - (lid & 15)];
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  EXPECT_EQ(kernel.localMemSize, 64u * 4 + 8 * 8 + 16);
  EXPECT_EQ(kernel.args[3].specConstantId, abi::vulkan::kFirstLocalArgSpecId);
  EXPECT_EQ(kernel.args[4].specConstantId, abi::vulkan::kFirstLocalArgSpecId + 1);
}

TEST(SpirvLocalMemory, PrivateArraysIndexedAtRunTime) {
  buildOk(R"(
    kernel void k(global int *p, int n) {
      int history[16];
      for (int i = 0; i < 16; ++i)
        history[i] = p[i] * i;
      int sum = 0;
      for (int i = 0; i < n; ++i)
        sum += history[(i * 7) & 15];
      p[get_global_id(0)] = sum;
    })");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvLocalMemory, PointerSwappedBetweenTwoLocalBuffers) {
  // Repeated smoothing ping-pongs between two __local arguments through a
  // pointer phi: both lie in the kernel's one __local space.
  Built built = buildOk(R"(
    kernel void smooth(global float *data, local float *front, local float *back, int rounds) {
      size_t lid = get_local_id(0), last = get_local_size(0) - 1;
      front[lid] = data[get_global_id(0)];
      local float *source = front, *target = back;
      for (int round = 0; round < rounds; ++round) {
        barrier(CLK_LOCAL_MEM_FENCE);
        float left = source[lid == 0 ? 0 : lid - 1], right = source[lid == last ? last : lid + 1];
        target[lid] = 0.25f * left + 0.5f * source[lid] + 0.25f * right;
        local float *previous = source;
        source = target;
        target = previous;
      }
      data[get_global_id(0)] = source[lid];
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  EXPECT_EQ(built.binary.kernels[0].args[1].specConstantId, abi::vulkan::kFirstLocalArgSpecId);
  EXPECT_EQ(built.binary.kernels[0].args[2].specConstantId, abi::vulkan::kFirstLocalArgSpecId + 1);
}

TEST(SpirvLocalMemory, PointerChoosingBetweenPrivateArrays) {
  buildOk(R"(
    kernel void k(global int *p, int n) {
      int even[8], odd[8];
      for (int i = 0; i < 8; ++i) { even[i] = p[2 * i]; odd[i] = p[2 * i + 1]; }
      int *chosen = n & 1 ? odd : even;
      p[get_global_id(0)] = chosen[n & 7];
    })");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvLocalMemory, WorkGroupCollectivesUseOneScratchSlotPerWorkItem) {
  // The scratch is __local (Workgroup) memory of the kernel: one slot per
  // work-item of the largest work-group, for the widest element (long).
  Built built = buildOk(R"(
    kernel void k(global const long *in, global long *out, global int *flags) {
      size_t i = get_global_id(0);
      out[i] = work_group_reduce_add(in[i]) + work_group_scan_exclusive_max(in[i]) +
               work_group_broadcast(in[i], 3);
      flags[i] = work_group_any(flags[i]) + work_group_all(flags[i]);
    })",
                        "-cl-std=CL3.0");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  EXPECT_EQ(built.binary.kernels[0].localMemSize, lavapipeConfig().maxWorkGroupSize * sizeof(int64_t));
  EXPECT_EQ(built.binary.globalVariableSize, 0u) << "the scratch is not a program-scope variable";
}

/// How many GLSL.std.450 UMin instructions `spirv` has.
size_t uminCount(const std::vector<uint32_t> &spirv) {
  // OpExtInst: result type, result, set, instruction, operands.
  return countInstructions(spirv, [](std::span<const uint32_t> words) {
    return (words[0] & 0xffff) == spv::OpExtInst && words.size() >= 5 && words[4] == GLSLstd450UMin;
  });
}

TEST(SpirvLocalMemory, WriteIndicesAreClampedAndReadIndicesOnlyWhereConfigured) {
  // Two word stores and four word loads of __local and private memory
  // (a private array indexed at run time stays in memory).
  const char *source = R"(
    kernel void k(global uint *out, uint i, uint j) {
      local uint tile[64];
      uint mine[8];
      tile[i & 63] = i;
      mine[j] = j;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[0] = tile[j & 63] + tile[(j + 1) & 63] + mine[i & 7] + mine[(i + 1) & 7];
    })";
  VulkanTargetConfig gpu = lavapipeConfig();
  gpu.clampWordMemoryReads = false;
  Built unclampedReads = buildOk(source, "", gpu);
  VulkanTargetConfig cpu = lavapipeConfig();
  cpu.clampWordMemoryReads = true;
  Built clampedReads = buildOk(source, "", cpu);
  EXPECT_EQ(uminCount(unclampedReads.binary.spirv), 2u);
  EXPECT_EQ(uminCount(clampedReads.binary.spirv), 6u);
}

TEST(SpirvLocalMemory, PrivateStoresProvenInBoundsAreNotClamped) {
  // Indices a loop or a mask bounds inside the array need no clamp (on an
  // H100 the clamps kept small private arrays out of registers); one that
  // nothing bounds keeps it.
  const char *bounded = R"(
    kernel void k(global uint *out, uint i, uint j) {
      uint mine[8], zeroed[16];
      for (uint n = 0; n < 8; ++n)
        mine[n] = n * j;
      for (uint n = 0; n < 16; ++n)
        zeroed[n] = 0; // a memset
      mine[j & 7] = j;
      zeroed[i & 15] = i;
      out[0] = mine[i & 7] + zeroed[j & 15];
    })";
  VulkanTargetConfig gpu = lavapipeConfig();
  gpu.clampWordMemoryReads = false;
  EXPECT_EQ(uminCount(buildOk(bounded, "", gpu).binary.spirv), 0u);
  // A CPU device keeps every clamp: the two reads and at least the three
  // stores outside the memset.
  VulkanTargetConfig cpu = lavapipeConfig();
  cpu.clampWordMemoryReads = true;
  EXPECT_GE(uminCount(buildOk(bounded, "", cpu).binary.spirv), 5u);
  const char *unbounded = R"(
    kernel void k(global uint *out, uint i, uint j) {
      uint mine[8];
      for (uint n = 0; n < 8; ++n)
        mine[n] = n * j;
      mine[j] = j;
      out[0] = mine[i & 7];
    })";
  EXPECT_EQ(uminCount(buildOk(unbounded, "", gpu).binary.spirv), 1u);
}

} // namespace
} // namespace compiler::spirv::test
