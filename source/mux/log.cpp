#include "mux/support/log.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace mux::support {
namespace {

struct LogSetting {
  int level = 0;
  /// Empty: every category.
  llvm::SmallVector<std::string, 4> categories;
};

int parseLevel(llvm::StringRef value) {
  if (value.empty())
    return 0;
  if (value.size() == 1 && value[0] >= '0' && value[0] <= '4')
    return value[0] - '0';
  if (value == "error")
    return 1;
  if (value == "warn" || value == "warning")
    return 2;
  if (value == "info")
    return 3;
  if (value == "debug")
    return 4;
  return 2; // an unknown word still means "tell me something"
}

LogSetting parseSetting(const char *text) {
  LogSetting setting;
  if (!text)
    return setting;
  auto [level, categories] = llvm::StringRef(text).split(':');
  setting.level = parseLevel(level.trim());
  llvm::SmallVector<llvm::StringRef, 4> names;
  categories.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names)
    if (!name.trim().empty())
      setting.categories.push_back(name.trim().str());
  return setting;
}

const LogSetting &setting() {
  static const LogSetting parsed = parseSetting(std::getenv("POLYMUX_LOG"));
  return parsed;
}

const char *levelName(LogLevel level) {
  switch (level) {
  case LogLevel::Error:
    return "error";
  case LogLevel::Warning:
    return "warn";
  case LogLevel::Info:
    return "info";
  case LogLevel::Debug:
    return "debug";
  }
  return "?";
}

/// "2026-11-28T19:04:05.123456Z".
std::string timestamp() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t seconds = system_clock::to_time_t(now);
  const auto micros = duration_cast<microseconds>(now.time_since_epoch()).count() % 1000000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<long long>(micros));
  return text;
}

} // namespace

bool logEnabled(LogLevel level, std::string_view category) {
  const LogSetting &current = setting();
  if (static_cast<int>(level) > current.level)
    return false;
  if (level == LogLevel::Error || current.categories.empty())
    return true;
  for (const std::string &name : current.categories)
    if (name == category)
      return true;
  return false;
}

void log(LogLevel level, std::string_view category, std::string_view message) {
  if (!logEnabled(level, category))
    return;
  std::string line = "polymux[";
  line += levelName(level);
  line += "] ";
  line += timestamp();
  line += ' ';
  line += category;
  line += ": ";
  line += message;
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace mux::support
