// Sub-group collectives: how fast a device sums and scans within its
// sub-groups, the building block of reductions and stream compaction.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <string>

namespace bench {

const std::string &subGroupCollectivesLabel();

/// out[i] = sub_group_reduce_add(in[i]) + sub_group_scan_inclusive_add(in[i])
/// on int over a 1-D range in work-groups of 64, in G elements per second.
/// The result is checked on every element against the sub-group mapping
/// the device's own get_sub_group_id / get_sub_group_local_id report. A
/// device without sub-groups gets an `unsupported` figure.
Figure subGroupCollectives(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
