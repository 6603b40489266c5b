// Polymux's SPIR-V emitter: a prepared module (vulkan_pipeline.h) -> one
// Vulkan SPIR-V module with a GLCompute entry point per kernel, and the
// kernels' launch layout.
#pragma once

#include "compiler/kernel_info.h"
#include "compiler/spirv/vulkan_target.h"
#include "compiler/vulkan_binary.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace compiler::spirv {

/// Fills `binary.kernels` (in the order of `kernels`) and `binary.spirv`.
/// Fails naming the kernel and the first construct it cannot translate.
llvm::Error emitSpirv(llvm::Module &module, const std::vector<KernelInfo> &kernels, const VulkanTargetConfig &config,
                      VulkanBinary &binary);

} // namespace compiler::spirv
