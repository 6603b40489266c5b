// Global memory bandwidth in the manner of clpeak: each work-item loads 16
// float, float4 or float16 values from one large buffer and writes their sum,
// so nearly all traffic is reads. GB/s counts the bytes loaded.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>
#include <string>
#include <vector>

namespace bench {

/// Row labels: the best width first, then one per load width.
std::span<const std::string> globalBandwidthLabels();

/// One figure per label; every work-item's sum is checked against
/// the sum of the same elements computed on the host.
std::vector<Figure> globalBandwidth(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
