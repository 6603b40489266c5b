// SPIR-V (OpenCL environment) -> LLVM bitcode through Khronos'
// SPIRV-LLVM-Translator, run as a subprocess: Debian's llvm-spirv-15 is
// built on LLVM 15, and two LLVM versions must not meet in one process.
// Its bitcode (spir64, SPIR address spaces and mangling) is LLVM 22-readable.
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace compiler::il {

/// The translator program: $POLYMUX_LLVM_SPIRV when set (an empty value or a
/// missing file: none), else llvm-spirv-15 on PATH, else
/// /usr/bin/llvm-spirv-15. Looked up once per process.
const std::optional<std::string> &spirvTranslatorPath();

/// What identifies the translator's output for a given input, for cache
/// keys: its path, size and modification time; std::nullopt without one.
std::optional<std::string> spirvTranslatorIdentity();

/// True when `il` starts like a SPIR-V module: the magic number in either
/// byte order, a whole number of words, at least the 5-word header.
bool looksLikeSpirv(std::span<const std::byte> il);

/// Translates `il` to LLVM bitcode. The translator's messages go to `log`;
/// fails with Status::Failure when it rejects the module (or crashes) and
/// with Status::Unsupported when there is no translator.
llvm::Expected<std::vector<char>> translateSpirv(std::span<const std::byte> il, std::string &log);

} // namespace compiler::il
