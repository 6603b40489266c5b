// Math builtin throughput: y[i] = f(x[i]) over a large array, one kernel per
// function and type, so that a slow builtin shows up next to the other
// platforms' figure for the same function.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>

namespace bench {

/// One row: an OpenCL C expression of `x` in `type`, the input interval,
/// and the host reference used to check the result.
struct MathCase {
  const char *label;      ///< e.g. "float exp"
  const char *type;       ///< "float" or "double"
  const char *expression; ///< OpenCL C, in terms of `x`
  double low, high;       ///< inputs are spread evenly over [low, high]
  double (*reference)(double);
  double tolerance; ///< largest relative error accepted (native_* may be loose)
};

/// The functions measured, in table order.
std::span<const MathCase> mathCases();

/// Millions of results per second (the best of back-to-back launches of
/// sizes.mathElements inputs, timed in batches). The result is checked against
/// `reference` within the case's tolerance (2^-19 for float, 2^-48 for
/// double: loose enough for every platform's accuracy, tight enough to catch
/// a wrong function). A device without fp64 gets an `unsupported` figure.
Figure mathThroughput(const DeviceSession &session, const MathCase &math, const Sizes &sizes);

} // namespace bench
