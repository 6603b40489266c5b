// Moving one submission's device timestamps onto the host's steady clock.
// A device clock drifts against the host's (an H100's by hundreds of µs
// over a test run), so no offset measured once stays right. What the host
// does know about each submission: its work ran after a reading taken
// before vkQueueSubmit2 and before one taken after its fence signalled.
// With VK_EXT_calibrated_timestamps both clocks are sampled before the
// submission (device_clock.h reuses a recent sample) and, for work longer
// than a few ms, after it: between two samples a timestamp is interpolated,
// its error that of the samples whatever the drift or the period's error;
// from one sample it is extrapolated at the nominal period (drift over a
// few ms: well under a µs). Without samples, an offset is used. The result
// is always kept in the window.
#pragma once

#include <cstdint>
#include <optional>

namespace vulkan_target {

/// The device clock (ticks) and the host clock (ns) read together.
struct ClockSample {
  uint64_t ticks = 0;
  uint64_t hostNs = 0;
};

/// When one submission's work may have run, on both clocks.
struct TimestampWindow {
  uint64_t submittedNs = 0; ///< host clock before the submission
  uint64_t completedNs = 0; ///< host clock after its fence signalled
  std::optional<ClockSample> before, after;
};

/// `ticks` (already masked to the valid bits) on the host clock, inside
/// [submittedNs, completedNs] (inside the samples' host readings when both
/// exist). `periodNs` extrapolates from a single sample; `offsetNs` (host
/// ns at device tick 0) serves only where no sample is usable (a wrapped
/// clock).
uint64_t timestampToHostNs(uint64_t ticks, const TimestampWindow &window, double periodNs, int64_t offsetNs);

} // namespace vulkan_target
