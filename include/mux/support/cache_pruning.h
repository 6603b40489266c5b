// Keeps the cache directory (cache_directory.h) within POLYMUX_CACHE_MAX:
// entries are ordered by their modification time, which a reader refreshes
// on every hit, and the least recently used go first.
#pragma once

#include <cstdint>
#include <string>

namespace mux::support {

/// The default POLYMUX_CACHE_MAX: 1 GiB.
inline constexpr uint64_t kDefaultCacheSizeLimit = uint64_t{1} << 30;

/// POLYMUX_CACHE_MAX, read at each call: a size in bytes with an optional
/// K, M or G suffix (powers of 1024); kDefaultCacheSizeLimit when unset or
/// unreadable (a warning says so).
uint64_t cacheSizeLimit();

/// Records that the entry at `path` was just used.
void markCacheEntryUsed(const std::string &path);

/// Deletes the least recently used files of `directory` until the rest hold
/// at most `limit` bytes. Temporary files (`*.tmp`) that a writer may still
/// be filling are left alone for an hour, then deleted as leftovers of a
/// process that died. Errors (e.g. another process pruning too) are ignored.
void pruneCacheDirectory(const std::string &directory, uint64_t limit);

} // namespace mux::support
