// The options of the subcommands that build an OpenCL C file: the file, how
// to build it and on which devices, how to show its diagnostics.
#pragma once

#include "command_line.h"
#include "diagnostics.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace polymux::tool {

/// The OpenCL C source a subcommand builds, and how.
struct SourceOptions {
  std::string path;                     ///< the .cl file
  std::vector<std::string> defines;     ///< -D NAME[=VALUE]
  std::vector<std::string> includeDirs; ///< -I DIR
  std::string extraOptions;             ///< --options "..." (OpenCL build options)
  std::string devices;                  ///< --device (DeviceList::select syntax)
  ColorMode color = ColorMode::Auto;    ///< --color, for the diagnostics
};

/// Consumes the current word when it is one of the SourceOptions options.
bool readSourceOption(CommandLine &line, SourceOptions &options);

/// The source text of `options.path`.
llvm::Expected<std::string> readSource(const SourceOptions &options);

/// The clBuildProgram options string: --options, then -D and -I (quoted for
/// the compiler's option splitter), then the source file's directory, so
/// that `#include "x.h"` finds headers beside the source as a C compiler
/// would.
std::string buildOptionString(const SourceOptions &options);

} // namespace polymux::tool
