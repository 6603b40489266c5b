#include "device_clock.h"

#include "one_time_commands.h"
#include "vulkan_result.h"

#include "mux/support/host_command_buffer.h"
#include "mux/support/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vulkan_target {
namespace {

/// Writes one timestamp on `queue` and returns it in device ticks, with the
/// host clock before submission and after completion.
llvm::Error sampleDeviceClock(VkDevice device, VkQueue queue, uint32_t family, uint64_t &ticks, uint64_t &before,
                              uint64_t &after) {
  VkQueryPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  poolInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  poolInfo.queryCount = 1;
  VkQueryPool pool = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateQueryPool(device, &poolInfo, nullptr, &pool), "vkCreateQueryPool"))
    return error;
  std::unique_ptr<OneTimeCommands> run;
  llvm::Error error = OneTimeCommands::begin(device, family).moveInto(run);
  bool submitted = false, finished = false;
  if (!error) {
    vkCmdResetQueryPool(run->commands(), pool, 0, 1);
    vkCmdWriteTimestamp2(run->commands(), VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pool, 0);
    error = run->end();
  }
  if (!error) {
    before = mux::support::hostClockNs();
    error = run->submit(queue);
    submitted = !error;
    if (submitted) {
      error = run->wait(UINT64_MAX);
      finished = !error;
    }
    after = mux::support::hostClockNs();
  }
  if (finished)
    error = check(vkGetQueryPoolResults(device, pool, 0, 1, sizeof(ticks), &ticks, sizeof(ticks),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                  "vkGetQueryPoolResults");
  run.reset();                // the commands go before the pool they use
  if (!submitted || finished) // else the work may still write it
    vkDestroyQueryPool(device, pool, nullptr);
  return error;
}

} // namespace

std::optional<ClockSample> DeviceClock::sample() const {
  if (!facts_.calibratedTimestamps || !vkGetCalibratedTimestampsEXT)
    return std::nullopt;
  VkCalibratedTimestampInfoEXT infos[2] = {{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT},
                                           {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT}};
  infos[0].timeDomain = VK_TIME_DOMAIN_DEVICE_EXT;
  infos[1].timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
  std::optional<ClockSample> best;
  uint64_t bestDeviation = std::numeric_limits<uint64_t>::max();
  // A preempted reading has a wide deviation: keep the narrowest of a few.
  for (int attempt = 0; attempt < 3; ++attempt) {
    uint64_t values[2] = {0, 0};
    uint64_t deviation = 0;
    if (vkGetCalibratedTimestampsEXT(device_, 2, infos, values, &deviation) != VK_SUCCESS)
      break;
    if (deviation < bestDeviation) {
      bestDeviation = deviation;
      uint64_t ticks = values[0];
      if (facts_.timestampValidBits < 64)
        ticks &= (uint64_t(1) << facts_.timestampValidBits) - 1;
      best = ClockSample{ticks, values[1]};
    }
  }
  return best;
}

llvm::Error DeviceClock::calibrate(VkQueue queue, const std::string &deviceName) {
  if (facts_.timestampValidBits == 0)
    return llvm::Error::success(); // no timestamps: query pools are refused
  const double period = facts_.properties.limits.timestampPeriod;
  if (std::optional<ClockSample> both = sample()) {
    offsetNs_ = static_cast<int64_t>(both->hostNs) - static_cast<int64_t>(std::llround(double(both->ticks) * period));
    return llvm::Error::success();
  }
  uint64_t bestWindow = std::numeric_limits<uint64_t>::max();
  for (int attempt = 0; attempt < 5; ++attempt) {
    uint64_t ticks = 0, before = 0, after = 0;
    if (llvm::Error error = sampleDeviceClock(device_, queue, facts_.computeQueueFamily, ticks, before, after))
      return error;
    const uint64_t deviceNs = static_cast<uint64_t>(std::llround(double(ticks) * period));
    if (deviceNs >= before && deviceNs <= after) {
      offsetNs_ = 0; // the device's clock is the host's
      return llvm::Error::success();
    }
    if (after - before < bestWindow) {
      bestWindow = after - before;
      offsetNs_ = static_cast<int64_t>(before + (after - before) / 2) - static_cast<int64_t>(deviceNs);
    }
  }
  mux::support::log(mux::support::LogLevel::Info, "vulkan",
                    "device '" + deviceName + "': timestamps calibrated to the host clock within " +
                        std::to_string(bestWindow / 2) + " ns at creation, then kept inside each submission's window");
  return llvm::Error::success();
}

std::optional<ClockSample> DeviceClock::recentSample(uint64_t nowNs) {
  if (!facts_.calibratedTimestamps || !vkGetCalibratedTimestampsEXT)
    return std::nullopt;
  std::lock_guard lock(sampleMutex_);
  if (!latestSample_ || nowNs - latestSample_->hostNs >= kResampleIntervalNs)
    if (std::optional<ClockSample> fresh = sample())
      latestSample_ = fresh;
  return latestSample_;
}

TimestampWindow DeviceClock::open() {
  TimestampWindow window;
  window.submittedNs = mux::support::hostClockNs();
  // A sample taken before the submission (perhaps for an earlier one)
  // anchors it.
  window.before = recentSample(window.submittedNs);
  return window;
}

void DeviceClock::close(TimestampWindow &window) {
  const uint64_t now = mux::support::hostClockNs();
  // Work that outlasted the interval gets a sample after it: its
  // timestamps are then interpolated, whatever the drift.
  if (!window.before || now - window.before->hostNs >= kResampleIntervalNs)
    if (std::optional<ClockSample> fresh = recentSample(now);
        fresh && (!window.before || fresh->hostNs > window.before->hostNs))
      window.after = fresh;
  window.completedNs = mux::support::hostClockNs();
}

void DeviceClock::resolve(std::span<const TimestampSlot> slots, const TimestampWindow &window) {
  const double period = facts_.properties.limits.timestampPeriod;
  std::lock_guard lock(mutex_);
  for (const TimestampSlot &slot : slots) {
    std::optional<uint64_t> ticks = slot.pool->readTicks(slot.index);
    if (!ticks) {
      slot.pool->setResult(slot.index, 0);
      continue;
    }
    latestNs_ = std::max(latestNs_, timestampToHostNs(*ticks, window, period, offsetNs_.load()));
    slot.pool->setResult(slot.index, latestNs_);
  }
}

} // namespace vulkan_target
