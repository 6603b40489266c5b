// Reading and writing the tool's files.
#pragma once

#include "llvm/Support/Error.h"

#include <string>
#include <string_view>
#include <vector>

namespace polymux::tool {

/// Reads a whole file (the tool's inputs: sources, argument data).
llvm::Expected<std::vector<char>> readFile(const std::string &path);

/// Writes `bytes` to `path` ("-": standard output).
llvm::Error writeFile(const std::string &path, std::string_view bytes);

} // namespace polymux::tool
