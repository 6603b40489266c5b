// Parsing of the build options clBuildProgram, clCompileProgram and
// clLinkProgram accept (OpenCL 3.0 section 5.8.6 and 5.8.7).
#pragma once

#include "llvm/Support/Error.h"

#include <string>
#include <string_view>
#include <vector>

namespace compiler {

/// Which API call the options were given to; each accepts a different set.
enum class OptionsUse { Compile, Link, Build };

struct BuildOptions {
  /// OpenCL C version as 100 * major + 10 * minor (120 for CL1.2).
  unsigned clStd = 120;
  bool clStdGiven = false;
  /// Preprocessor definitions (`NAME` or `NAME=value`) and include paths.
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  bool optDisable = false;
  bool madEnable = false;
  bool noSignedZeros = false;
  bool unsafeMath = false;
  bool finiteMathOnly = false;
  bool fastRelaxedMath = false;
  bool denormsAreZero = false;
  bool singlePrecisionConstant = false;
  bool correctlyRoundedDivideSqrt = false;
  bool kernelArgInfo = false;
  bool uniformWorkGroupSize = false;
  bool noSubgroupIfp = false;
  bool noWarnings = false;        ///< -w
  bool warningsAsErrors = false;  ///< -Werror
  bool debugInfo = false;         ///< -g
  bool createLibrary = false;     ///< -create-library (link only)
  bool enableLinkOptions = false; ///< -enable-link-options (link only)
};

/// Parses `text`. An option the spec does not name for `use`, or a malformed
/// one, fails with a mux::StatusError of Status::InvalidArgument whose message
/// starts with "invalid build option" (the OpenCL layer maps it to
/// CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS).
llvm::Expected<BuildOptions> parseBuildOptions(std::string_view text, OptionsUse use);

/// Splits an option string into words, honouring '...' and "..." quoting and
/// backslash escapes as a shell would.
llvm::Expected<std::vector<std::string>> splitOptions(std::string_view text);

} // namespace compiler
