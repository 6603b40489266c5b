// Prepares a linked module for the SPIR-V emitter: builtins linked, every
// call inlined, optimised, control flow structurized.
#pragma once

#include "compiler/spirv/vulkan_target.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace compiler::spirv {

/// Fails with the build-log lines of what the device cannot run.
llvm::Error prepareForVulkan(llvm::Module &module, const VulkanTargetConfig &config, bool optDisable);

} // namespace compiler::spirv
