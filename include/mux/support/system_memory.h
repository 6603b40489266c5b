// What the operating system can still give this process. Allocations on
// the host are committed lazily (a page when it is first touched), so a
// buffer larger than what is left would be granted and the process killed
// by the kernel's out-of-memory killer when a kernel fills it; the heap
// arena asks these before it hands out a large block.
#pragma once

#include <cstdint>
#include <optional>

namespace mux::support {

/// Allocations from this size on are checked with systemMemoryCanHold;
/// smaller ones cannot exhaust the system on their own, and reading /proc
/// for each would slow them down.
inline constexpr uint64_t kSystemMemoryCheckedBytes = uint64_t{64} << 20;

/// Bytes the system can still commit to this process: MemAvailable from
/// /proc/meminfo, less what the process's cgroup (v2) limit leaves when
/// that is smaller. None when neither can be read.
std::optional<uint64_t> systemMemoryAvailable();

/// Bytes of RAM the process has touched and that are its own (resident
/// pages less those shared with other processes, /proc/self/statm).
uint64_t processPrivateResidentBytes();

/// Whether `bytes` more can be committed while `uncommitted` bytes the
/// process was already granted may still be touched, keeping a reserve of
/// a sixteenth of the available memory (at least 256 MiB) for everything
/// else. True when the system does not say.
bool systemMemoryCanHold(uint64_t bytes, uint64_t uncommitted);

} // namespace mux::support
