// SPIR-V as text, as spirv-dis writes it: for people reading what the
// vulkan target's compiler emitted (`polymux compile --emit=spirv`).
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>
#include <span>
#include <string>

namespace compiler::spirv {

/// SPIRV-Tools' disassembly of `words` with friendly names; fails with
/// Status::InvalidArgument and the disassembler's message on words that are
/// not a SPIR-V module.
llvm::Expected<std::string> disassembleSpirv(std::span<const uint32_t> words);

} // namespace compiler::spirv
