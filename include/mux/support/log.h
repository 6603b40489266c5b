// POLYMUX_LOG: diagnostics on stderr, one line per event.
//
//   POLYMUX_LOG=<level>[:<category>[,<category>...]]
//
// <level> is error, warn (or warning), info or debug, or 1 to 4; unset, empty
// or 0 prints nothing. A level prints itself and every more severe level.
// Categories (compiler, queue, memory, or a target's name such as
// vulkan or riscv_sim) narrow warnings, info and debug lines to those
// categories; errors are printed whatever the categories. Lines read
//   polymux[<level>] <UTC time, microseconds> <category>: <text>
#pragma once

#include <string_view>

namespace mux::support {

enum class LogLevel { Error = 1, Warning = 2, Info = 3, Debug = 4 };

/// Whether POLYMUX_LOG asks for messages of `level` in `category` (read
/// once per process). Cheap: call it before building an expensive message.
bool logEnabled(LogLevel level, std::string_view category);

/// Writes one line when `level` is enabled for `category`; thread-safe (one
/// write per line).
void log(LogLevel level, std::string_view category, std::string_view message);

} // namespace mux::support
