// The benchmark workloads. Each runs on one DeviceSession and returns a
// figure, or an error/wrong-result note instead of a figure.
#pragma once

#include "bench_cl.h"

#include <cstddef>
#include <optional>
#include <string>

namespace bench {

struct Sizes {
  /// --quick: the throughput workloads (peak compute, global bandwidth,
  /// SGEMM) size themselves per device and take smaller sizes.
  bool quick = false;
  size_t latencyRuns = 1000;                ///< empty-kernel launches measured
  size_t transferBytes = size_t{256} << 20; ///< buffer read/write size
  size_t transferRuns = 5;
  size_t triadElements = size_t{1} << 25; ///< floats per array (3 arrays)
  size_t triadRuns = 20;
  size_t mathElements = size_t{1} << 22; ///< inputs per math function
};

/// A figure, or why there is none. `wrong` marks a result that did not
/// check out (as opposed to an API error); both make the harness fail.
/// `unsupported` marks a workload the device does not offer (no fp64),
/// which does not.
struct Figure {
  std::optional<double> value;
  std::string problem;
  bool wrong = false;
  bool unsupported = false;
};

/// Median enqueue -> clFinish time of an empty kernel, in microseconds.
Figure launchLatencyUs(const DeviceSession &session, const Sizes &sizes);

/// Blocking clEnqueueWriteBuffer / clEnqueueReadBuffer bandwidth in GB/s
/// (best run); the data read back is checked against what was written.
struct TransferFigures {
  Figure write;
  Figure read;
};
TransferFigures transferBandwidth(const DeviceSession &session, const Sizes &sizes);

/// STREAM triad a[i] = b[i] + s*c[i] on floats, GB/s counting 3 arrays
/// (best run); the result is checked.
Figure triadBandwidth(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
