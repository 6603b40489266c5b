// SPIRV-Tools' validator for the Vulkan 1.3 environment.
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>
#include <span>

namespace compiler::spirv {

/// Fails with Status::Failure and the validator's messages.
llvm::Error validateForVulkan(std::span<const uint32_t> words);

/// True in builds without NDEBUG, or with POLYMUX_VALIDATE_SPIRV=1.
bool validationWanted();

} // namespace compiler::spirv
