// Peak compute in the manner of clpeak: every work-item runs
// dependent chains of mad() on float, float2, ... float16 (one chain per
// lane), so the figure is the rate at which the device retires
// multiply-adds. GFLOPS = 2 x multiply-adds / second.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>
#include <string>
#include <vector>

namespace bench {

/// Row labels: the best width first, then one per vector width.
std::span<const std::string> peakComputeLabels();

/// One figure per label; each width's outputs are checked on a sample of
/// work-items against the same chain computed on the host.
std::vector<Figure> peakCompute(const DeviceSession &session, const Sizes &sizes);

/// The same chains on scalar double (clpeak's double row); unsupported on
/// a device without fp64.
const std::string &peakComputeDoubleLabel();
Figure peakComputeDouble(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
