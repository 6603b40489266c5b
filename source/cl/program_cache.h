// The on-disk kernel cache (POLYMUX_CACHE): clBuildProgram from source (or
// SPIR-V) looks
// up the executable it would build, keyed by the preprocessed source
// (compiler::Target::buildCacheKey), the options and the compiler's
// identity, before compiling, and stores what it built; POLYMUX_CACHE_MAX
// bounds the directory (least recently used entries go first).
#pragma once

#include "compiler/target.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace polymux::cl {

/// The cache directory, read from the environment at each call:
/// $POLYMUX_CACHE, else $XDG_CACHE_HOME/polymux, else $HOME/.cache/polymux.
/// None when POLYMUX_CACHE is "0" or no location can be found.
std::optional<std::string> programCacheDirectory();

/// clBuildProgram for a program made from source: a cached executable when
/// there is a valid one for (preprocessed source, options, compiler
/// identity), otherwise
/// `compiler.build(...)`, whose Executable result is then stored. The cache
/// never fails a build: unreadable, corrupt or foreign entries are rebuilt
/// and I/O errors are ignored. On a hit `log` stays empty.
llvm::Expected<std::unique_ptr<compiler::Module>>
buildWithProgramCache(compiler::Target &compiler, std::string_view source, std::string_view options, std::string &log);

/// clBuildProgram for a program made from SPIR-V (already specialised): the
/// same cache, keyed by the module, the translator (its path, size and
/// time), the options and the compiler identity.
llvm::Expected<std::unique_ptr<compiler::Module>> buildILWithProgramCache(compiler::Target &compiler,
                                                                          std::span<const std::byte> il,
                                                                          std::string_view options, std::string &log);

} // namespace polymux::cl
