// SGEMM C = A B (row-major n x n floats) with one portable tiled kernel in
// OpenCL C 1.2: 64 x 64 tiles of C per work-group staged through __local
// memory, a 4 x 4 register block per work-item. It is no match for a tuned
// library (CLBlast) but runs the same kernel on every driver, so the ratio
// compares the drivers' compilers and runtimes. GFLOPS = 2 n^3 / second.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>
#include <string>
#include <vector>

namespace bench {

/// Row labels, one per matrix size.
std::span<const std::string> sgemmLabels();

/// One figure per label. Sampled rows and columns of C are checked against
/// a double-precision product on the host, within the worst-case rounding
/// error of an n-term float dot product. Sizes a device should not run
/// (simulated devices above n=256; n=4096 on CPUs with --quick or on devices
/// with less than 1 GiB; a size whose launch would last over 2 minutes at
/// the previous size's rate) are `unsupported`.
std::vector<Figure> sgemm(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
