// Build logs as a C compiler prints its diagnostics: Clang's text with the
// source file's name instead of the driver's "<program source>", coloured
// as Clang colours it when the stream shows colours.
#pragma once

#include "llvm/Support/raw_ostream.h"

#include <string_view>

namespace polymux::tool {

/// --color: whether diagnostics are coloured.
enum class ColorMode { Auto, Always, Never };

/// Parses "auto", "always" or "never".
bool parseColorMode(std::string_view text, ColorMode &mode);

/// Enables colours on `out` as `mode` says (Auto: when it is a terminal).
void applyColorMode(llvm::raw_ostream &out, ColorMode mode);

/// Writes `log` to `out` with `sourcePath` for the program source, in
/// Clang's colours when colours are enabled on `out`.
void printDiagnostics(llvm::raw_ostream &out, std::string_view log, std::string_view sourcePath);

} // namespace polymux::tool
