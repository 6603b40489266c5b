// The OpenCL C builtins library (source/compiler/builtins) as the compiler
// uses it: bitcode a target embeds, linked into a program on demand.
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <span>

namespace llvm {
class Module;
} // namespace llvm

namespace compiler {

/// Function attribute on every function that came from the builtins library.
inline constexpr const char *kBuiltinLibraryAttribute = "polymux-builtin";

/// Links into `module` the definitions of the builtins it declares and
/// calls (and what those call in turn), from the library bitcode `library`.
/// Nothing else is linked; linked functions are internal and carry
/// kBuiltinLibraryAttribute. An empty `library` links nothing.
llvm::Error linkBuiltinLibrary(llvm::Module &module, std::span<const std::byte> library);

} // namespace compiler
