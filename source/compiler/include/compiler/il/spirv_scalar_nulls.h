// llvm-spirv-15 aborts on OpConstantNull of a scalar (valid SPIR-V, which
// LLVM 22's SPIR-V backend emits for a zero integer). This rewrites each
// into the equivalent OpConstant 0 / OpConstantFalse before translation.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace compiler::il {

/// `words` (a SPIR-V module in host byte order) with every OpConstantNull of
/// an integer, float or bool type replaced by a zero constant; anything it
/// cannot walk (a truncated instruction) is returned unchanged.
std::vector<uint32_t> replaceScalarNulls(std::span<const uint32_t> words);

} // namespace compiler::il
