#include "kernel_builder.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

namespace vulkantest {

std::string kernelAssembly(const KernelSource &source) {
  std::string text = R"(
OpCapability Shader
OpCapability Int64
OpCapability PhysicalStorageBufferAddresses
)";
  text += source.capabilities;
  text += "OpMemoryModel PhysicalStorageBuffer64 GLSL450\n";
  text += "OpEntryPoint GLCompute %main \"" + source.name + "\" %wgVar %lidVar %pc " + source.interface + "\n";
  text += R"(OpExecutionModeId %main LocalSizeId %lsx %lsy %lsz
OpDecorate %lsx SpecId 0
OpDecorate %lsy SpecId 1
OpDecorate %lsz SpecId 2
OpDecorate %wgVar BuiltIn WorkgroupId
OpDecorate %lidVar BuiltIn LocalInvocationId
OpDecorate %PC Block
)";
  for (size_t i = 0; i < source.push.size(); ++i)
    text += "OpMemberDecorate %PC " + std::to_string(i) + " Offset " + std::to_string(source.push[i].offset) + "\n";
  text += source.decorations;
  text += R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%wgVar = OpVariable %ptr_in_v3 Input
%lidVar = OpVariable %ptr_in_v3 Input
%psb_uint = OpTypePointer PhysicalStorageBuffer %uint
%ptr_pc_uint = OpTypePointer PushConstant %uint
%ptr_pc_ulong = OpTypePointer PushConstant %ulong
%lsx = OpSpecConstant %uint 1
%lsy = OpSpecConstant %uint 1
%lsz = OpSpecConstant %uint 1
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c4 = OpConstant %uint 4
%c10 = OpConstant %uint 10
%c100 = OpConstant %uint 100
%c1000 = OpConstant %uint 1000
%c10000 = OpConstant %uint 10000
%c1000000 = OpConstant %uint 1000000
%l4 = OpConstant %ulong 4
)";
  text += "%PC = OpTypeStruct";
  for (const BlockMember &member : source.push)
    text += member.wide ? " %ulong" : " %uint";
  text += "\n%ptr_pc = OpTypePointer PushConstant %PC\n%pc = OpVariable %ptr_pc PushConstant\n";
  for (size_t i = 0; i < source.push.size(); ++i)
    text += "%m" + std::to_string(i) + " = OpConstant %uint " + std::to_string(i) + "\n";
  text += source.extraTypes;
  text += R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%wg = OpLoad %v3uint %wgVar
%lid = OpLoad %v3uint %lidVar
)";
  for (size_t i = 0; i < source.push.size(); ++i) {
    const BlockMember &member = source.push[i];
    const std::string index = "%m" + std::to_string(i);
    text += "%p_" + member.name + " = OpAccessChain " + (member.wide ? "%ptr_pc_ulong" : "%ptr_pc_uint") + " %pc " +
            index + "\n";
    text += "%" + member.name + " = OpLoad " + (member.wide ? "%ulong" : "%uint") + " %p_" + member.name + "\n";
  }
  text += source.body;
  text += "OpReturn\nOpFunctionEnd\n";
  return text;
}

std::string storeUint(const std::string &tag, const std::string &base, const std::string &index,
                      const std::string &value) {
  return addressOf(tag, base, index) + "OpStore %" + tag + "_ptr %" + value + " Aligned 4\n";
}

std::string loadUint(const std::string &tag, const std::string &base, const std::string &index) {
  return addressOf(tag, base, index) + "%" + tag + " = OpLoad %uint %" + tag + "_ptr Aligned 4\n";
}

std::string addressOf(const std::string &tag, const std::string &base, const std::string &index) {
  return "%" + tag + "_i = OpUConvert %ulong %" + index + "\n" + "%" + tag + "_o = OpIMul %ulong %" + tag + "_i %l4\n" +
         "%" + tag + "_a = OpIAdd %ulong %" + base + " %" + tag + "_o\n" + "%" + tag +
         "_ptr = OpConvertUToPtr %psb_uint %" + tag + "_a\n";
}

std::vector<uint32_t> assemble(const std::string &assembly) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position, const char *text) {
    messages += "line " + std::to_string(position.line) + ": " + text + "\n";
  });
  std::vector<uint32_t> spirv;
  if (!tools.Assemble(assembly, &spirv)) {
    ADD_FAILURE() << "assembly failed:\n" << messages << assembly;
    return {};
  }
  if (!tools.Validate(spirv)) {
    ADD_FAILURE() << "validation failed:\n" << messages << assembly;
    return {};
  }
  return spirv;
}

std::vector<std::byte> packBinary(std::vector<uint32_t> spirv, const compiler::VulkanKernelBinaryInfo &info,
                                  uint64_t globalVariableSize, std::vector<std::byte> globalVariableInit,
                                  std::vector<std::byte> printfTable) {
  compiler::VulkanBinary binary;
  binary.kernels.push_back(info);
  binary.globalVariableSize = globalVariableSize;
  binary.globalVariableInit = std::move(globalVariableInit);
  binary.printfTable = std::move(printfTable);
  binary.spirv = std::move(spirv);
  return compiler::encodeVulkanBinary(binary);
}

std::vector<std::byte> storeOneBinary() {
  KernelSource source;
  source.name = "store";
  source.push = {{"out", true, 0}};
  source.body = storeUint("st", "out", "c0", "c1");
  compiler::VulkanKernelBinaryInfo info;
  info.name = "store";
  info.pushConstantSize = 8;
  info.args = {{compiler::VulkanKernelArg::Kind::Buffer, 0, 8, 0}};
  std::vector<uint32_t> spirv = assemble(kernelAssembly(source));
  if (spirv.empty())
    return {};
  return packBinary(std::move(spirv), info);
}

} // namespace vulkantest
