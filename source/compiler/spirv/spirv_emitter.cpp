#include "spirv_emitter.h"

#include "kernel_emitter.h"
#include "program_scope_variables.h"

#include "build_failure.h"

namespace compiler::spirv {

llvm::Error emitSpirv(llvm::Module &module, const std::vector<KernelInfo> &kernels, const VulkanTargetConfig &config,
                      VulkanBinary &binary) {
  llvm::Expected<ProgramScopeBlock> block = layoutProgramScopeVariables(module);
  if (!block)
    return block.takeError();
  ModuleState state{ModuleBuilder(), config};
  state.programScope = std::move(*block);
  ModuleBuilder &builder = state.builder;
  builder.capability(spv::Capability::Shader);
  builder.capability(spv::Capability::PhysicalStorageBufferAddresses);
  // PhysicalStorageBuffer64 addresses are 64-bit integers in the IR.
  builder.capability(spv::Capability::Int64);
  Id uint32Type = builder.typeInt(32);
  for (uint32_t dimension = 0; dimension < 3; ++dimension)
    state.localSize[dimension] = builder.specConstant(uint32Type, 1, abi::vulkan::kLocalSizeXId + dimension);
  binary.kernels.clear();
  for (const KernelInfo &kernel : kernels) {
    llvm::Function *function = module.getFunction(kernel.name);
    if (!function || function->isDeclaration())
      return buildFailure("internal compiler error: kernel '" + kernel.name + "' is gone");
    VulkanKernelBinaryInfo info;
    info.name = kernel.name;
    for (size_t i = 0; i < 3; ++i)
      info.reqdWorkGroupSize[i] = uint32_t(kernel.reqdWorkGroupSize[i]);
    KernelEmitter emitter(state, *function, info);
    if (llvm::Error error = emitter.emit())
      return error;
    if (info.offsetOf(abi::vulkan::LaunchField::PrintfBuffer) != abi::vulkan::kNotUsed)
      info.flags |= VulkanKernelUsesPrintf;
    binary.kernels.push_back(std::move(info));
  }
  binary.spirv = builder.finish();
  binary.globalVariableSize = state.programScope.size;
  binary.globalVariableInit = std::move(state.programScope.initialImage);
  binary.globalVariableRelocations = std::move(state.programScope.relocations);
  return llvm::Error::success();
}

} // namespace compiler::spirv
