// Program-scope variables and __constant tables (one block at
// LaunchField::GlobalVariables) and structs passed by value.
#include "spirv_test_support.h"

#include <algorithm>
#include <cstring>

namespace compiler::spirv::test {
namespace {

using abi::vulkan::kNotUsed;
using abi::vulkan::LaunchField;

TEST(SpirvProgramScope, VariablesAndConstantTablesInOneBlock) {
  Built built = buildOk(R"(
    constant int table[4] = {1, 2, 3, 4};
    global int counter = 5;
    global float scale[3] = {0.5f, 0.0f, 0.0f};
    kernel void k(global int *out) {
      size_t i = get_global_id(0);
      out[i] = table[i & 3] + counter + (int)scale[0];
      counter = (int)i;
    }
    kernel void other(global int *out) { out[0] = 1; })",
                        "-cl-std=CL3.0");
  ASSERT_EQ(built.binary.kernels.size(), 2u);
  const VulkanKernelBinaryInfo *k = kernelNamed(built.binary, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_NE(k->offsetOf(LaunchField::GlobalVariables), kNotUsed);
  EXPECT_EQ(k->offsetOf(LaunchField::GlobalVariables) % 8, 0u);
  EXPECT_EQ(kernelNamed(built.binary, "other")->offsetOf(LaunchField::GlobalVariables), kNotUsed);
  // 16 bytes of table, 4 of counter, 12 of scale.
  EXPECT_GE(built.binary.globalVariableSize, 32u);
  EXPECT_EQ(built.module->globalVariableTotalSize(), built.binary.globalVariableSize);
  // The image holds the initial values: find 1,2,3,4 and 5 and 0.5f in it.
  const std::vector<std::byte> &image = built.binary.globalVariableInit;
  auto contains = [&](const void *bytes, size_t size) {
    for (size_t i = 0; i + size <= image.size(); ++i)
      if (std::memcmp(image.data() + i, bytes, size) == 0)
        return true;
    return false;
  };
  const int table[4] = {1, 2, 3, 4};
  const int counter = 5;
  const float half = 0.5f;
  EXPECT_TRUE(contains(table, sizeof(table)));
  EXPECT_TRUE(contains(&counter, sizeof(counter)));
  EXPECT_TRUE(contains(&half, sizeof(half)));
}

TEST(SpirvProgramScope, PointerInitialisersBecomeRelocations) {
  Built built = buildOk(R"(
    global int values[4] = {1, 2, 3, 4};
    global int *global second = &values[1];
    constant int table[2] = {7, 8};
    global struct { constant int *entry; long tag; } described = {&table[1], 42};
    kernel void k(global int *out) {
      out[0] = *second + *described.entry + (int)described.tag;
      second = &values[3];
    })",
                        "-cl-std=CL3.0");
  const VulkanBinary &binary = built.binary;
  ASSERT_EQ(binary.globalVariableRelocations.size(), 2u);
  // Each relocation's target is the offset of values[1] / table[1] in the
  // block: 4 bytes past the start of a variable the image holds.
  auto imageHolds = [&](uint64_t offset, int value) {
    int stored = 0;
    if (offset + 4 > binary.globalVariableInit.size())
      return false;
    std::memcpy(&stored, binary.globalVariableInit.data() + offset, 4);
    return stored == value;
  };
  std::vector<int> targets;
  for (const VulkanGlobalRelocation &relocation : binary.globalVariableRelocations) {
    EXPECT_LE(relocation.offset + 8, binary.globalVariableSize);
    EXPECT_EQ(relocation.offset % 8, 0u);
    for (int value : {2, 8})
      if (imageHolds(relocation.target, value) && imageHolds(relocation.target - 4, value - 1))
        targets.push_back(value);
  }
  std::sort(targets.begin(), targets.end());
  EXPECT_EQ(targets, (std::vector<int>{2, 8}));
}

TEST(SpirvProgramScope, StructArgumentByValue) {
  Built built = buildOk(R"(
    typedef struct { float a; int b; double c; char d; } S;
    kernel void k(global double *out, S s, int n) {
      out[get_global_id(0)] = s.a + s.b + s.c + s.d + n;
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  ASSERT_EQ(kernel.args.size(), 3u);
  EXPECT_EQ(kernel.args[1].kind, VulkanKernelArg::Kind::Value);
  EXPECT_EQ(kernel.args[1].size, 24u);
  EXPECT_GE(kernel.args[2].offset, kernel.args[1].offset + 24);
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvProgramScope, NullPointersCompareAndInitialise) {
  Built built = buildOk(R"(
    global int *global nowhere = 0;
    kernel void k(global int *data, global int *optional) {
      if (optional)
        optional[0] = data[0];
      if (nowhere != 0)
        data[1] = 1;
    })",
                        "-cl-std=CL3.0");
  EXPECT_GE(built.binary.globalVariableSize, 8u);
}

TEST(SpirvProgramScope, UndefinedExternVariableFailsTheBuild) {
  std::string log = buildFails(R"(
    extern global int missing;
    kernel void k(global int *p) { p[0] = missing; })");
  EXPECT_NE(log.find("'missing'"), std::string::npos) << log;
}

} // namespace
} // namespace compiler::spirv::test
