#include "text_format.h"

#include "mux/status.h"

#include <cstdio>

namespace polymux::tool {

std::string formatBytes(uint64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0 || value == static_cast<double>(static_cast<uint64_t>(value)))
    std::snprintf(text, sizeof text, "%llu %s", static_cast<unsigned long long>(value), units[unit]);
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

std::string wrapWords(std::span<const std::string> words, size_t indent, size_t width) {
  std::string result;
  size_t column = indent;
  for (const std::string &word : words) {
    if (!result.empty()) {
      if (column + 1 + word.size() > width) {
        result += '\n';
        result.append(indent, ' ');
        column = indent;
      } else {
        result += ' ';
        ++column;
      }
    }
    result += word;
    column += word.size();
  }
  return result;
}

std::string formatSeconds(double seconds) {
  char text[32];
  if (seconds >= 1)
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  else if (seconds >= 1e-3)
    std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.1f us", seconds * 1e6);
  return text;
}

std::string messageOf(llvm::Error error) {
  std::string message;
  llvm::handleAllErrors(
      std::move(error), [&](const mux::StatusError &e) { message = e.message(); },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  return message;
}

std::string padded(std::string_view text, size_t width) {
  std::string result(text);
  if (result.size() < width)
    result.append(width - result.size(), ' ');
  return result;
}

} // namespace polymux::tool
