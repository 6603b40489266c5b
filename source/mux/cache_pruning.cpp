#include "mux/support/cache_pruning.h"

#include "mux/support/log.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <vector>

namespace mux::support {
namespace {

/// Temporaries younger than this may belong to a writer that is still busy.
constexpr std::chrono::hours kTemporaryGrace{1};

std::optional<uint64_t> parseSize(llvm::StringRef text) {
  text = text.trim();
  unsigned shift = 0;
  if (!text.empty()) {
    switch (llvm::toUpper(text.back())) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    default:
      break;
    }
    if (shift)
      text = text.drop_back();
  }
  uint64_t value = 0;
  if (text.empty() || text.getAsInteger(10, value) || value > (UINT64_MAX >> shift))
    return std::nullopt;
  return value << shift;
}

struct Entry {
  std::string path;
  uint64_t size;
  llvm::sys::TimePoint<> used;
};

} // namespace

uint64_t cacheSizeLimit() {
  const char *setting = std::getenv("POLYMUX_CACHE_MAX");
  if (!setting || !*setting)
    return kDefaultCacheSizeLimit;
  if (std::optional<uint64_t> limit = parseSize(setting))
    return *limit;
  log(LogLevel::Warning, "memory",
      std::string("POLYMUX_CACHE_MAX='") + setting + "' is not a size (e.g. 512M); using 1G");
  return kDefaultCacheSizeLimit;
}

void markCacheEntryUsed(const std::string &path) {
  // Both times become now; a failure (the entry was just pruned) is harmless.
  (void)utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

void pruneCacheDirectory(const std::string &directory, uint64_t limit) {
  std::vector<Entry> entries;
  uint64_t total = 0;
  const auto now = std::chrono::system_clock::now();
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(directory, error), end; it != end && !error; it.increment(error)) {
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (!status || status->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    llvm::sys::TimePoint<> used = status->getLastModificationTime();
    if (llvm::StringRef(it->path()).ends_with(".tmp")) {
      if (now - used > kTemporaryGrace)
        llvm::sys::fs::remove(it->path());
      continue;
    }
    entries.push_back({it->path(), status->getSize(), used});
    total += status->getSize();
  }
  if (total <= limit)
    return;
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &entry : entries) {
    if (total <= limit)
      break;
    if (!llvm::sys::fs::remove(entry.path))
      log(LogLevel::Debug, "memory", "cache: pruned " + entry.path);
    total -= entry.size;
  }
}

} // namespace mux::support
