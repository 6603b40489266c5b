// Sub-group collectives become GroupNonUniform instructions of the subgroup
// scope, with the operation and signedness the OpenCL builtin names; 64-bit
// integers combine 32-bit broadcasts (no shaderSubgroupExtendedTypes).
#include "spirv_test_support.h"

#include <spirv/unified1/spirv.hpp11>

namespace compiler::spirv::test {
namespace {

VulkanTargetConfig withSubGroups() {
  VulkanTargetConfig config = lavapipeConfig();
  config.subgroupSize = 8;
  config.extensions.push_back("__opencl_c_subgroups");
  return config;
}

/// How many instructions of `spirv` have `opcode` and group operation
/// `operation` (the word after the scope).
size_t groupOperations(const std::vector<uint32_t> &spirv, spv::Op opcode, spv::GroupOperation operation) {
  return countInstructions(spirv, [&](std::span<const uint32_t> words) {
    return (words[0] & 0xffff) == uint32_t(opcode) && words.size() > 4 && words[4] == uint32_t(operation);
  });
}

TEST(SpirvSubGroups, CollectivesBecomeGroupNonUniformInstructions) {
  Built built = buildOk(R"(
    kernel void k(global int *i, global uint *u, global float *f, global long *l) {
      size_t g = get_global_id(0);
      i[g] = sub_group_reduce_add(i[g]) + sub_group_scan_exclusive_min(i[g] + 1) + sub_group_broadcast(i[g] + 2, 3u) +
             sub_group_any(i[g] > 4) + sub_group_all(i[g] < 9);
      u[g] = sub_group_reduce_min(u[g]) + sub_group_scan_inclusive_max(u[g] + 1u);
      f[g] = sub_group_reduce_max(f[g]) + sub_group_scan_inclusive_add(f[g] * 2.0f);
      l[g] = sub_group_reduce_add(l[g]);
    })",
                        "-cl-std=CL3.0", withSubGroups());
  const std::vector<uint32_t> &spirv = built.binary.spirv;
  using spv::GroupOperation;
  using spv::Op;
  EXPECT_EQ(groupOperations(spirv, Op::OpGroupNonUniformIAdd, GroupOperation::Reduce), 1u);
  EXPECT_EQ(groupOperations(spirv, Op::OpGroupNonUniformSMin, GroupOperation::ExclusiveScan), 1u);
  EXPECT_EQ(groupOperations(spirv, Op::OpGroupNonUniformUMin, GroupOperation::Reduce), 1u);
  EXPECT_EQ(groupOperations(spirv, Op::OpGroupNonUniformUMax, GroupOperation::InclusiveScan), 1u);
  EXPECT_EQ(groupOperations(spirv, Op::OpGroupNonUniformFMax, GroupOperation::Reduce), 1u);
  EXPECT_EQ(groupOperations(spirv, Op::OpGroupNonUniformFAdd, GroupOperation::InclusiveScan), 1u);
  EXPECT_EQ(opcodeCount(spirv, uint32_t(Op::OpGroupNonUniformAny)), 1u);
  EXPECT_EQ(opcodeCount(spirv, uint32_t(Op::OpGroupNonUniformAll)), 1u);
  // One broadcast of the int, and two (the 32-bit halves) per lane of the
  // long reduction.
  EXPECT_EQ(opcodeCount(spirv, uint32_t(Op::OpGroupNonUniformBroadcast)), 1u + 2u * 8u);
  // No signed/unsigned or reduce/scan mix-ups beyond those.
  EXPECT_EQ(opcodeCount(spirv, uint32_t(Op::OpGroupNonUniformSMax)), 0u);
  EXPECT_EQ(opcodeCount(spirv, uint32_t(Op::OpGroupNonUniformFMin)), 0u);
}

TEST(SpirvSubGroups, CollectivesNeedSubGroupsOnTheDevice) {
  std::string log = buildFails(R"(
    kernel void k(global int *i) { i[0] = sub_group_reduce_add(i[1]); })");
  EXPECT_NE(log.find("sub_group_reduce_add"), std::string::npos) << log;
}

} // namespace
} // namespace compiler::spirv::test
