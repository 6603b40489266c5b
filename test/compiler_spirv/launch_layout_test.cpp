// How a kernel's launch reaches it: arguments in the push constants or,
// past the device's push-constant size, in an argument buffer; printf
// through a printf buffer and the module's format table.
#include "spirv_test_support.h"

#include "compiler/abi/printf_abi.h"

#include <cstring>

namespace compiler::spirv::test {
namespace {

using abi::vulkan::kNotUsed;
using abi::vulkan::LaunchField;

TEST(SpirvLaunchLayout, ArgumentsThatFitStayInPushConstants) {
  Built built = buildOk("kernel void k(global float *p, float a, int4 b) { p[0] = a + b.x; }");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  EXPECT_EQ(kernel.argumentBufferSize, 0u);
  EXPECT_EQ(kernel.offsetOf(LaunchField::ArgumentBuffer), kNotUsed);
  ASSERT_EQ(kernel.args.size(), 3u);
  for (const VulkanKernelArg &arg : kernel.args)
    EXPECT_LE(arg.offset + arg.size, kernel.pushConstantSize);
}

TEST(SpirvLaunchLayout, ArgumentsBeyondPushConstantsGoToAnArgumentBuffer) {
  // 8 + 3 * 64 bytes: more than lavapipe's 128 bytes of push constants.
  Built built = buildOk(R"(
    kernel void k(global float16 *p, float16 a, local int *scratch, float16 b, char c, float16 d) {
      scratch[0] = c;
      p[0] = a + b + d + scratch[0];
    })");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  const VulkanKernelBinaryInfo &kernel = built.binary.kernels[0];
  EXPECT_LE(kernel.pushConstantSize, lavapipeConfig().maxPushConstantsSize);
  EXPECT_NE(kernel.offsetOf(LaunchField::ArgumentBuffer), kNotUsed);
  EXPECT_EQ(kernel.offsetOf(LaunchField::ArgumentBuffer) % 8, 0u);
  EXPECT_EQ(kernel.argumentBufferSize % abi::vulkan::kBlockAlignment, 0u);
  ASSERT_EQ(kernel.args.size(), 6u);
  EXPECT_EQ(kernel.args[2].kind, VulkanKernelArg::Kind::Local);
  EXPECT_EQ(kernel.args[2].specConstantId, abi::vulkan::kFirstLocalArgSpecId);
  // Every other argument has its own bytes in the buffer, at least
  // word-aligned (a float16 is read as words).
  uint32_t end = 0;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const VulkanKernelArg &arg = kernel.args[i];
    if (arg.kind == VulkanKernelArg::Kind::Local)
      continue;
    EXPECT_GE(arg.offset, end) << "argument " << i;
    EXPECT_EQ(arg.offset % 4, 0u) << "argument " << i;
    end = arg.offset + arg.size;
  }
  EXPECT_LE(end, kernel.argumentBufferSize);
}

TEST(SpirvLaunchLayout, VolatileWideVectorArguments) {
  // Unoptimised IR spills each argument to a volatile private copy; a
  // long16 cannot stay whole in SPIR-V (CTS get_kernel_arg_info).
  Built built = buildOk(R"(
    kernel void k(private const volatile long16 a, private const volatile uchar8 b, global long *out) {
      out[0] = a.s3 + b.s7;
    })",
                        "-cl-kernel-arg-info");
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  EXPECT_EQ(built.binary.kernels[0].args.size(), 3u);
  buildOk("kernel void empty(private const volatile long16 a, private const volatile ulong3 b) {}", "-cl-opt-disable");
}

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
