// The device's timestamp clock against the host's steady clock
// (Device::timestampNs(), CLOCK_MONOTONIC). Every submission that writes
// timestamps is bracketed by host readings and, where the device has
// VK_EXT_calibrated_timestamps, anchored to a sample of both clocks; its
// results are moved onto the host clock once its fence signalled
// (timestamp_window.h), before any of its markers or callbacks run.
//
// A sample costs about 10 µs on NVIDIA's driver (three tries on each side
// of every submission made a profiled launch 60 µs slower), so one is
// taken at most every kResampleInterval: a submission opened within that
// time of the latest sample is anchored to it, and takes a second sample at
// its end only when its work outlasted the interval.
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

  /// Drift between the clocks over this time (60 ppm measured on an H100:
  /// 0.3 µs) is the error of extrapolating from a sample.
  static constexpr uint64_t kResampleIntervalNs = 5'000'000;

  /// Right before a submission that writes timestamps.
  TimestampWindow open();
  /// Right after that submission's fence signalled.
  void close(TimestampWindow &window);
  /// Stores the results of `slots` (in recording order) on the host clock.
  /// One queue runs its work in order (each command waits for everything
  /// submitted before it), so results never go back in time across calls.
  void resolve(std::span<const TimestampSlot> slots, const TimestampWindow &window);

private:
  /// Both clocks read together (the best of a few tries), when the device
  /// has calibrated timestamps.
  std::optional<ClockSample> sample() const;
  /// The latest sample if it is younger than kResampleIntervalNs at host
  /// time `nowNs`, else a new one.
  std::optional<ClockSample> recentSample(uint64_t nowNs);

  VkDevice device_;
  const PhysicalDevice &facts_;
  /// Host ns at device tick 0 (may be negative).
  std::atomic<int64_t> offsetNs_{0};
  std::mutex mutex_;
  uint64_t latestNs_ = 0; ///< the latest result resolve() stored
  std::mutex sampleMutex_;
  std::optional<ClockSample> latestSample_;
};

} // namespace vulkan_target
