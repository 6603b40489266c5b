#include "timestamp_window.h"

#include <algorithm>
#include <cmath>

namespace vulkan_target {
namespace {

/// Samples are at most a few ms old (device_clock.h); a timestamp seconds
/// away from one comes from a clock that wrapped.
constexpr long double kLongestExtrapolationNs = 1e9;

} // namespace

uint64_t timestampToHostNs(uint64_t ticks, const TimestampWindow &window, double periodNs, int64_t offsetNs) {
  const uint64_t low = window.submittedNs, high = std::max(window.completedNs, window.submittedNs);
  long double host;
  const bool interpolate = window.before && window.after && window.after->ticks >= window.before->ticks &&
                           window.after->hostNs >= window.before->hostNs;
  if (interpolate) {
    // Linear between the samples: the device clock's rate over the window
    // is measured, not assumed. A timestamp outside the samples' ticks can
    // only be the samples' own error, so it is held at the nearer one.
    const ClockSample &first = *window.before, &last = *window.after;
    const uint64_t at = std::clamp(ticks, first.ticks, last.ticks);
    const uint64_t tickSpan = last.ticks - first.ticks;
    host = tickSpan == 0 ? static_cast<long double>(last.hostNs)
                         : first.hostNs + static_cast<long double>(at - first.ticks) *
                                              static_cast<long double>(last.hostNs - first.hostNs) / tickSpan;
  } else {
    host = static_cast<long double>(ticks) * periodNs + offsetNs;
    if (const std::optional<ClockSample> &anchor = window.before ? window.before : window.after) {
      // A single sample: extrapolated, unless the clock wrapped since.
      const long double sinceNs =
          (static_cast<long double>(ticks) - static_cast<long double>(anchor->ticks)) * periodNs;
      if (std::fabs(sinceNs) < kLongestExtrapolationNs)
        host = anchor->hostNs + sinceNs;
    }
  }
  // The work ran inside the window whatever the calibration says.
  host = std::clamp(std::round(host), static_cast<long double>(low), static_cast<long double>(high));
  return static_cast<uint64_t>(host);
}

} // namespace vulkan_target
