// The multi-threaded part of a run on one device: the workers and the
// disruptor on one shared context for the requested time, then every
// callback they were owed, checked and reported.
#pragma once

#include "cl_calls.h"
#include "options.h"

namespace stress {

class Watchdog;

/// Runs and reports; returns the number of failures (wrong results,
/// unexpected errors, lost callbacks).
uint64_t runStress(const Options &options, const DeviceFacts &device, Watchdog &watchdog);

} // namespace stress
