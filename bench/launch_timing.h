// Timing of throughput kernels that may last microseconds (a GPU) or seconds
// (a CPU at n=4096): launches go back to back in batches long enough that the
// host's enqueue -> clFinish overhead (15 us on a GPU driver) does not count,
// and a time budget stops slow devices after the first measured launch.
#pragma once

#include "bench_cl.h"
#include "device_facts.h"

#include <array>
#include <cstddef>
#include <functional>

namespace bench {

struct TimingPlan {
  bool warmUp = true;         ///< one launch first, not counted (compilation at enqueue, first touch)
  size_t batches = 3;         ///< measured batches after the first timed launch
  double batchSeconds = 0.05; ///< a batch holds as many launches as last about this long
  double budgetSeconds = 3;   ///< no further batch once this much was measured
};

/// A plan by device kind: more and longer batches for GPUs, few for CPUs,
/// a single timed launch for simulated devices; `quick` shortens each.
TimingPlan timingPlan(const DeviceFacts &facts, bool quick);

/// One kernel launch: `dims` dimensions, `local` null to let the driver choose.
struct Launch {
  cl_kernel kernel = nullptr;
  cl_uint dims = 1;
  std::array<size_t, 2> global{1, 1};
  std::array<size_t, 2> local{1, 1};
  bool driverChoosesLocal = false;
};

/// Seconds per launch: the best of the first timed launch and the batches
/// (each batch timed from its first enqueue to clFinish, divided by its size).
double secondsPerLaunch(const DeviceSession &session, const Launch &launch, const TimingPlan &plan);

/// secondsPerLaunch of `kernel` over `items` work-items in one dimension,
/// in work-groups the driver chooses.
double secondsPerLaunch(const DeviceSession &session, cl_kernel kernel, size_t items, const TimingPlan &plan);

/// The same for any work `enqueue` puts on the session's queue (a library
/// call that launches kernels of its own).
double secondsPerCall(const DeviceSession &session, const std::function<void()> &enqueue, const TimingPlan &plan);

} // namespace bench
