// The soak part of a run on one device: every kind of object created and
// released many times (cycle_kinds.h) while the process's resident set,
// open file descriptors and heap are measured before, after a warm-up (a
// tenth of the cycles, which fills caches and pools that are meant to
// stay) and at the end, each time once every callback due has run (until
// then the driver holds what it passes them). Growth after the warm-up
// fails the run:
//  - any open file descriptor more;
//  - more heap in use than kHeapGrowthBound;
//  - a resident set larger by more than kResidentGrowthBound.
#pragma once

#include "cl_calls.h"
#include "options.h"

#include <cstdint>

namespace stress {

class Watchdog;

/// 1 MiB: over the 90,000 cycles after the warm-up of the long mode, a leak
/// of 12 bytes a cycle; any leaked OpenCL object (hundreds of bytes) shows
/// at 2,000 cycles (the short mode). The heap in use is what glibc's
/// allocator hands out, exact to the byte; it moves by the driver's own
/// caches, which the warm-up fills, and by state made once at a moment that
/// depends on timing, so the heap also has to grow in each half of the
/// measured cycles, by more than a quarter of this (a leak grows it by
/// about half in each).
inline constexpr uint64_t kHeapGrowthBound = 1 << 20;
/// 8 MiB: the resident set also moves with allocator fragmentation and
/// arenas of threads that the heap measure does not count, by up to a few
/// MiB in runs without leaks.
inline constexpr uint64_t kResidentGrowthBound = 8 << 20;

/// Runs and reports every kind; returns the number of failures.
uint64_t runCycles(const Options &options, const DeviceFacts &device, Watchdog &watchdog);

} // namespace stress
