// cl_polymux_kernel_exit with barriers: a work-item that leaves before a
// barrier goes on to it, so the kernel keeps every barrier in structured,
// valid SPIR-V, also in a loop that only kernel_exit leaves.
#include "spirv_test_support.h"

#include <spirv/unified1/spirv.hpp11>

namespace compiler::spirv::test {
namespace {

VulkanTargetConfig exitConfig() {
  VulkanTargetConfig config = lavapipeConfig();
  config.extensions.push_back("cl_polymux_sized_integers");
  config.extensions.push_back("cl_polymux_kernel_exit");
  return config;
}

TEST(SpirvKernelExit, ExitsBeforeBarriersBuildToValidSpirv) {
  Built built = buildOk(R"(
    static void leave_if(bool leave, int status) {
      if (leave)
        kernel_exit(status);
    }
    kernel void k(global const int *in, global int *out, global int *sums, local int *scratch, int rounds) {
      size_t l = get_local_id(0);
      int acc = 0;
      for (int r = 0; r < rounds; ++r) {
        scratch[l] = in[get_global_id(0)] + r;
        barrier(CLK_LOCAL_MEM_FENCE);
        leave_if(scratch[l] < 0 || l == r, r);
        acc += scratch[(l + 1) % get_local_size(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (in[l] == 7)
        kernel_exit(7);
      sums[get_global_id(0)] = work_group_reduce_add(acc);
      out[get_global_id(0)] = atomic_inc(&out[0]);
    })",
                        "-cl-std=CL3.0", exitConfig());
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  // Every barrier once, none lost or duplicated: the group's start check,
  // the loop's two and the three of the reduction (GPU form, result in slot
  // 0); and each exit's two compare-exchanges on the record.
  EXPECT_EQ(opcodeCount(built.binary.spirv, uint32_t(spv::Op::OpControlBarrier)), 6u);
  EXPECT_EQ(opcodeCount(built.binary.spirv, uint32_t(spv::Op::OpAtomicCompareExchange)), 4u);
}

TEST(SpirvKernelExit, ALoopThatOnlyExitsLeaveBuildsToValidSpirv) {
  Built built = buildOk(R"(
    kernel void k(global volatile int *flag) {
      for (;;) {
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (*flag)
          kernel_exit(0);
      }
    })",
                        "", exitConfig());
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  // The start check's, the loop's and the two around the count's read.
  EXPECT_EQ(opcodeCount(built.binary.spirv, uint32_t(spv::Op::OpControlBarrier)), 4u);
}

} // namespace
} // namespace compiler::spirv::test
