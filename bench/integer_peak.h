// Integer compute in the manner of clpeak's integer and mul24 rows: every
// work-item runs dependent chains of 32-bit multiply-adds on int, written
// as `x * a + b`, as `mul24(x, a) + b` and as `mad24(x, a, b)`, so that the
// 24-bit forms can be compared with plain multiplies on the same device.
// GIOPS = 2 x multiply-adds / second.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>
#include <string>
#include <vector>

namespace bench {

/// One row per form, in the order above.
std::span<const std::string> integerComputeLabels();

/// One figure per label; each chain is checked on a sample of work-items
/// against the same chain computed on the host (its values stay within 24
/// bits, where mul24 and mad24 are exact).
std::vector<Figure> integerCompute(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
