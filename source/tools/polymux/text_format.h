// Small text helpers for the tool's reports.
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace polymux::tool {

/// "512 B", "64 KiB", "11.7 GiB".
std::string formatBytes(uint64_t bytes);

/// `words` joined by spaces and wrapped at `width` columns, lines after the
/// first starting with `indent` spaces (the first line is assumed to start
/// at column `indent` too).
std::string wrapWords(std::span<const std::string> words, size_t indent, size_t width = 100);

/// "1.23 s", "4.56 ms", "789 us".
std::string formatSeconds(double seconds);

/// The message of `error` (a mux::StatusError's without its status name).
std::string messageOf(llvm::Error error);

/// `text` padded with spaces to `width` columns (never cut).
std::string padded(std::string_view text, size_t width);

} // namespace polymux::tool
