// How a kernel's launch reaches it: printf through a printf buffer and the
// module's format table.
#include "spirv_test_support.h"

#include "compiler/abi/printf_abi.h"

#include <cstring>

namespace compiler::spirv::test {
namespace {

using abi::vulkan::kNotUsed;
using abi::vulkan::LaunchField;

TEST(SpirvLaunchLayout, PrintfUsesThePrintfBufferAndTheFormatTable) {
  Built built = buildOk(R"(
    kernel void prints(global int *p, float4 v) {
      printf("%d %s %v4hlf\n", p[get_global_id(0)], "text", v);
    }
    kernel void silent(global int *p) { p[0] = 1; })");
  const VulkanKernelBinaryInfo *prints = kernelNamed(built.binary, "prints");
  const VulkanKernelBinaryInfo *silent = kernelNamed(built.binary, "silent");
  ASSERT_NE(prints, nullptr);
  ASSERT_NE(silent, nullptr);
  EXPECT_TRUE(prints->flags & VulkanKernelUsesPrintf);
  EXPECT_NE(prints->offsetOf(LaunchField::PrintfBuffer), kNotUsed);
  EXPECT_FALSE(silent->flags & VulkanKernelUsesPrintf);
  EXPECT_EQ(silent->offsetOf(LaunchField::PrintfBuffer), kNotUsed);
  const std::vector<std::byte> &table = built.binary.printfTable;
  ASSERT_GE(table.size(), 8u);
  EXPECT_EQ(std::memcmp(table.data(), abi::kPrintfTableMagic, 4), 0);
  uint32_t formats = 0;
  std::memcpy(&formats, table.data() + 4, 4);
  EXPECT_EQ(formats, 1u);
}

TEST(SpirvLaunchLayout, PackedGlobalMembersAreValidSpirv) {
  // Loads and stores of under-aligned members are split into pieces the
  // validator accepts (buildOk validates).
  Built built = buildOk(R"(
    typedef struct __attribute__((packed)) { char c; int i; long l; float f; } Packed;
    kernel void k(global Packed *items, global long *out) {
      size_t n = get_global_id(0);
      out[n] = items[n].i + items[n].l + (long)items[n].f;
      items[n].l = 5;
      items[n].f = 0.5f;
    })");
  EXPECT_EQ(built.binary.kernels.size(), 1u);
}

} // namespace
} // namespace compiler::spirv::test
