// The device's timestamp clock against the host's steady clock
// (Device::timestampNs(), CLOCK_MONOTONIC). Every submission that writes
// timestamps is bracketed by host readings, and by samples of both clocks
// where the device has VK_EXT_calibrated_timestamps; its results are moved
// onto the host clock once its fence signalled (timestamp_window.h), before
// any of its markers or callbacks run.
#pragma once

#include "physical_device.h"
#include "query_pool.h"
#include "timestamp_window.h"

#include <atomic>
#include <mutex>
#include <span>
#include <string>

namespace vulkan_target {

class DeviceClock {
public:
  DeviceClock(VkDevice device, const PhysicalDevice &facts) : device_(device), facts_(facts) {}

  /// Measures the offset used where clock samples are missing: with
  /// calibrated timestamps, both clocks read together; otherwise a
  /// timestamp written on `queue` between two host readings.
  llvm::Error calibrate(VkQueue queue, const std::string &deviceName);

  /// Right before a submission that writes timestamps.
  TimestampWindow open() const;
  /// Right after that submission's fence signalled.
  void close(TimestampWindow &window) const;
  /// Stores the results of `slots` (in recording order) on the host clock.
  /// One queue runs its work in order (each command waits for everything
  /// submitted before it), so results never go back in time across calls.
  void resolve(std::span<const TimestampSlot> slots, const TimestampWindow &window);

private:
  /// Both clocks read together (the best of a few tries), when the device
  /// has calibrated timestamps.
  std::optional<ClockSample> sample() const;

  VkDevice device_;
  const PhysicalDevice &facts_;
  /// Host ns at device tick 0 (may be negative).
  std::atomic<int64_t> offsetNs_{0};
  std::mutex mutex_;
  uint64_t latestNs_ = 0; ///< the latest result resolve() stored
};

} // namespace vulkan_target
