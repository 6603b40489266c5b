#include "mux/support/log.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace mux::support {
namespace {

int parseLevel(const char *setting) {
  if (!setting || !*setting)
    return 0;
  std::string_view value(setting);
  if (value.size() == 1 && value[0] >= '0' && value[0] <= '4')
    return value[0] - '0';
  if (value == "error")
    return 1;
  if (value == "warning")
    return 2;
  if (value == "info")
    return 3;
  if (value == "debug")
    return 4;
  return 2; // an unknown word still means "tell me something"
}

const char *levelName(LogLevel level) {
  switch (level) {
  case LogLevel::Error:
    return "error";
  case LogLevel::Warning:
    return "warning";
  case LogLevel::Info:
    return "info";
  case LogLevel::Debug:
    return "debug";
  }
  return "?";
}

} // namespace

bool logEnabled(LogLevel level) {
  static const int enabled = parseLevel(std::getenv("POLYMUX_LOG"));
  return static_cast<int>(level) <= enabled;
}

void log(LogLevel level, std::string_view component, std::string_view message) {
  if (!logEnabled(level))
    return;
  std::string line = "polymux[";
  line += levelName(level);
  line += "] ";
  line += component;
  line += ": ";
  line += message;
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace mux::support
