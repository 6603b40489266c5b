#include "fp64_probe.h"

#include "device.h"
#include "device_allocation.h"
#include "memory_barrier.h"
#include "one_time_commands.h"
#include "vulkan_result.h"

#include <spirv-tools/libspirv.hpp>

#include <array>
#include <bit>
#include <cstring>

namespace vulkan_target {
namespace {

// Inputs (read from memory, so the driver cannot fold them): two
// denormals, a normal multiplier, a normal whose square is a denormal, and
// the operands of an fma whose exact result is lost when it rounds twice.
constexpr double kA = std::bit_cast<double>(uint64_t{0x000F00000000ABCC}); // even: kA * 1.5 is exact
constexpr double kB = std::bit_cast<double>(uint64_t{7});
constexpr double kC = 1.5;
constexpr double kD = 0x1p-530;
constexpr double kX = 1.0 + 0x1p-30;
constexpr double kY = -(1.0 + 0x1p-29);
constexpr std::array<double, 6> kInputs{kA, kB, kC, kD, kX, kY};
constexpr uint32_t kFirstResult = 8;

// The exact results, folded by the C++ compiler (each operation is exact,
// so no rounding mode or flushing of the host enters them).
constexpr std::array<double, 8> kDenormalResults{
    kA + kB,     // a + b
    kA - kB,     // a - b
    kA *kC,      // a * c
    0x1p-1060,   // d * d
    kA *kC + kB, // Fma(a, c, b), exact either way
    kA,          // a copied
    1.0,         // a > 0 ? 1 : 0
    -kA,         // -a
};
constexpr double kFusedResult = 0x1p-60; // Fma(x, x, y); twice rounded: 0

constexpr const char *kAssembly = R"(
               OpCapability Shader
               OpCapability Float64
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
       %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %main "main" %push
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %doubles ArrayStride 8
               OpDecorate %Push Block
               OpMemberDecorate %Push 0 Offset 0
       %void = OpTypeVoid
     %voidfn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %double = OpTypeFloat 64
    %uint_17 = OpConstant %uint 17
    %doubles = OpTypeArray %double %uint_17
 %doublesPtr = OpTypePointer PhysicalStorageBuffer %doubles
       %Push = OpTypeStruct %doublesPtr
    %PushPtr = OpTypePointer PushConstant %Push
  %MemberPtr = OpTypePointer PushConstant %doublesPtr
    %elemPtr = OpTypePointer PhysicalStorageBuffer %double
       %push = OpVariable %PushPtr PushConstant
       %zero = OpConstant %double 0.0
        %one = OpConstant %double 1.0
         %u0 = OpConstant %uint 0
         %u1 = OpConstant %uint 1
         %u2 = OpConstant %uint 2
         %u3 = OpConstant %uint 3
         %u4 = OpConstant %uint 4
         %u5 = OpConstant %uint 5
         %u8 = OpConstant %uint 8
         %u9 = OpConstant %uint 9
        %u10 = OpConstant %uint 10
        %u11 = OpConstant %uint 11
        %u12 = OpConstant %uint 12
        %u13 = OpConstant %uint 13
        %u14 = OpConstant %uint 14
        %u15 = OpConstant %uint 15
        %u16 = OpConstant %uint 16
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
     %member = OpAccessChain %MemberPtr %push %u0
       %base = OpLoad %doublesPtr %member
         %pa = OpAccessChain %elemPtr %base %u0
          %a = OpLoad %double %pa Aligned 8
         %pb = OpAccessChain %elemPtr %base %u1
          %b = OpLoad %double %pb Aligned 8
         %pc = OpAccessChain %elemPtr %base %u2
          %c = OpLoad %double %pc Aligned 8
         %pd = OpAccessChain %elemPtr %base %u3
          %d = OpLoad %double %pd Aligned 8
         %px = OpAccessChain %elemPtr %base %u4
          %x = OpLoad %double %px Aligned 8
         %py = OpAccessChain %elemPtr %base %u5
          %y = OpLoad %double %py Aligned 8
        %sum = OpFAdd %double %a %b
       %diff = OpFSub %double %a %b
       %prod = OpFMul %double %a %c
     %square = OpFMul %double %d %d
      %fused = OpExtInst %double %glsl Fma %a %c %b
         %gt = OpFOrdGreaterThan %bool %a %zero
    %compare = OpSelect %double %gt %one %zero
        %neg = OpFNegate %double %a
     %twice = OpExtInst %double %glsl Fma %x %x %y
         %r0 = OpAccessChain %elemPtr %base %u8
               OpStore %r0 %sum Aligned 8
         %r1 = OpAccessChain %elemPtr %base %u9
               OpStore %r1 %diff Aligned 8
         %r2 = OpAccessChain %elemPtr %base %u10
               OpStore %r2 %prod Aligned 8
         %r3 = OpAccessChain %elemPtr %base %u11
               OpStore %r3 %square Aligned 8
         %r4 = OpAccessChain %elemPtr %base %u12
               OpStore %r4 %fused Aligned 8
         %r5 = OpAccessChain %elemPtr %base %u13
               OpStore %r5 %a Aligned 8
         %r6 = OpAccessChain %elemPtr %base %u14
               OpStore %r6 %compare Aligned 8
         %r7 = OpAccessChain %elemPtr %base %u15
               OpStore %r7 %neg Aligned 8
         %r8 = OpAccessChain %elemPtr %base %u16
               OpStore %r8 %twice Aligned 8
               OpReturn
               OpFunctionEnd
)";

constexpr uint32_t kSlots = 17;

/// The probe's pipeline objects, destroyed in any case unless abandoned.
struct ProbeObjects {
  VkDevice device;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  /// Leaves every object alive (work that uses them may still run).
  void abandon() {
    module = VK_NULL_HANDLE;
    layout = VK_NULL_HANDLE;
    pipeline = VK_NULL_HANDLE;
  }
  ~ProbeObjects() {
    if (pipeline != VK_NULL_HANDLE)
      vkDestroyPipeline(device, pipeline, nullptr);
    if (layout != VK_NULL_HANDLE)
      vkDestroyPipelineLayout(device, layout, nullptr);
    if (module != VK_NULL_HANDLE)
      vkDestroyShaderModule(device, module, nullptr);
  }
};

/// How long the probe may take on the device (it is a handful of
/// instructions): a device that does not finish it is not used for fp64.
constexpr uint64_t kProbeTimeoutNs = 10'000'000'000;

} // namespace

std::string_view doubleArithmeticProbeAssembly() { return kAssembly; }

llvm::Expected<DoubleArithmetic> measureDoubleArithmetic(Device &device, VkQueue queue) {
  std::vector<uint32_t> code;
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  if (!tools.Assemble(kAssembly, &code))
    return mux::makeError(mux::Status::Failure, "the fp64 probe shader did not assemble");

  auto memory = allocateDeviceAllocation(device, kSlots * sizeof(double), /*preferDeviceLocal=*/false);
  if (!memory)
    return memory.takeError();
  std::byte *host = (*memory)->host();
  std::memset(host, 0, kSlots * sizeof(double));
  std::memcpy(host, kInputs.data(), sizeof(kInputs));
  const uint64_t address = (*memory)->address();

  VkDevice handle = device.handle();
  ProbeObjects objects{handle};
  VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = code.size() * sizeof(uint32_t);
  moduleInfo.pCode = code.data();
  if (llvm::Error error =
          check(vkCreateShaderModule(handle, &moduleInfo, nullptr, &objects.module), "vkCreateShaderModule"))
    return error;
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint64_t)};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  if (llvm::Error error =
          check(vkCreatePipelineLayout(handle, &layoutInfo, nullptr, &objects.layout), "vkCreatePipelineLayout"))
    return error;
  VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = objects.module;
  pipelineInfo.stage.pName = "main";
  pipelineInfo.layout = objects.layout;
  if (llvm::Error error =
          check(vkCreateComputePipelines(handle, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &objects.pipeline),
                "vkCreateComputePipelines"))
    return error;
  std::unique_ptr<OneTimeCommands> run;
  if (llvm::Error error = OneTimeCommands::begin(handle, device.facts().computeQueueFamily).moveInto(run))
    return error;
  VkCommandBuffer commands = run->commands();
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, objects.pipeline);
  vkCmdPushConstants(commands, objects.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(address), &address);
  vkCmdDispatch(commands, 1, 1, 1);
  recordMemoryBarrier(commands, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  if (llvm::Error error = run->end())
    return error;
  if (llvm::Error error = run->submit(queue))
    return error;
  if (llvm::Error error = run->wait(kProbeTimeoutNs)) {
    // The shader may still run: what it uses is left alive, not destroyed
    // under it.
    objects.abandon();
    (void)memory->release();
    return error;
  }

  std::array<double, kSlots> results;
  std::memcpy(results.data(), host, sizeof(results));
  auto same = [](double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); };
  DoubleArithmetic measured;
  measured.denormalsKept = true;
  for (size_t i = 0; i < kDenormalResults.size(); ++i)
    measured.denormalsKept = measured.denormalsKept && same(results[kFirstResult + i], kDenormalResults[i]);
  measured.fmaFused = same(results[kFirstResult + kDenormalResults.size()], kFusedResult);
  return measured;
}

} // namespace vulkan_target
