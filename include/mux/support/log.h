// POLYMUX_LOG: diagnostics on stderr, by level. Unset or "0" prints nothing;
// "error", "warning", "info" and "debug" (or 1 to 4) print that level and
// every more severe one. Lines read "polymux[<level>] <component>: <text>".
#pragma once

#include <string_view>

namespace mux::support {

enum class LogLevel { Error = 1, Warning = 2, Info = 3, Debug = 4 };

/// Whether POLYMUX_LOG asks for messages of `level` (read once per process).
bool logEnabled(LogLevel level);

/// Writes one line when `level` is enabled; thread-safe (one write per line).
void log(LogLevel level, std::string_view component, std::string_view message);

} // namespace mux::support
