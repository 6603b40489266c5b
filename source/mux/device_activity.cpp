#include "mux/device_activity.h"

#include <algorithm>
#include <chrono>

namespace mux {

void DeviceActivity::launchStarted(uint64_t workGroups) {
  groupsDone_.store(0, std::memory_order_relaxed);
  groupsTotal_.store(workGroups, std::memory_order_relaxed);
  launchesRunning_.fetch_add(1, std::memory_order_release);
}

void DeviceActivity::launchEnded() {
  uint32_t running = launchesRunning_.load(std::memory_order_relaxed);
  while (running > 0 && !launchesRunning_.compare_exchange_weak(running, running - 1, std::memory_order_release))
    ;
}

uint64_t DeviceActivity::launchStarted(uint64_t units, std::function<uint64_t()> unitsDone) {
  std::lock_guard lock(readerMutex_);
  launchStarted(units);
  unitsDone_ = std::move(unitsDone);
  return ++readerToken_;
}

void DeviceActivity::launchEnded(uint64_t token) {
  {
    std::lock_guard lock(readerMutex_);
    if (token == readerToken_)
      unitsDone_ = nullptr;
  }
  launchEnded();
}

uint32_t DeviceActivity::launchProgress() const {
  if (launchesRunning_.load(std::memory_order_acquire) == 0)
    return 100;
  uint64_t total = groupsTotal_.load(std::memory_order_relaxed);
  uint64_t done = groupsDone_.load(std::memory_order_relaxed);
  {
    std::lock_guard lock(readerMutex_);
    if (unitsDone_)
      done += unitsDone_();
  }
  if (total == 0)
    return 0;
  // A launch reports 100 only once it has ended.
  return static_cast<uint32_t>(std::min<uint64_t>(99, done * 100 / total));
}

void DeviceActivity::Timeline::add(uint64_t beginNs, uint64_t endNs) {
  // Only the last window matters.
  if (endNs > kWindowNs + kSliceNs && beginNs < endNs - kWindowNs - kSliceNs)
    beginNs = endNs - kWindowNs - kSliceNs;
  while (beginNs < endNs) {
    uint64_t index = beginNs / kSliceNs;
    uint64_t sliceEnd = std::min(endNs, (index + 1) * kSliceNs);
    size_t slot = index % kSlices;
    if (sliceIndex[slot] != index) {
      sliceIndex[slot] = index;
      busyNs[slot] = 0;
    }
    busyNs[slot] += sliceEnd - beginNs;
    beginNs = sliceEnd;
  }
}

void DeviceActivity::begin(Work kind, uint64_t nowNs) {
  std::lock_guard lock(mutex_);
  Timeline &timeline = timelines_[static_cast<size_t>(kind)];
  if (timeline.depth++ == 0)
    timeline.busySince = nowNs;
}

void DeviceActivity::end(Work kind, uint64_t nowNs) {
  std::lock_guard lock(mutex_);
  Timeline &timeline = timelines_[static_cast<size_t>(kind)];
  if (timeline.depth == 0)
    return;
  if (--timeline.depth == 0)
    timeline.add(timeline.busySince, std::max(nowNs, timeline.busySince));
}

uint32_t DeviceActivity::utilization(Work kind, uint64_t nowNs) const {
  std::lock_guard lock(mutex_);
  const Timeline &timeline = timelines_[static_cast<size_t>(kind)];
  const uint64_t windowStart = nowNs > kWindowNs ? nowNs - kWindowNs : 0;
  const uint64_t firstSlice = windowStart / kSliceNs;
  const uint64_t lastSlice = nowNs / kSliceNs;
  uint64_t busy = 0;
  for (size_t slot = 0; slot < kSlices; ++slot) {
    uint64_t index = timeline.sliceIndex[slot];
    if (index < firstSlice || index > lastSlice || timeline.busyNs[slot] == 0)
      continue;
    uint64_t slice = timeline.busyNs[slot];
    // The oldest slice lies partly before the window: count its share.
    if (index == firstSlice)
      slice = slice * ((index + 1) * kSliceNs - windowStart) / kSliceNs;
    busy += slice;
  }
  if (timeline.depth > 0 && timeline.busySince < nowNs)
    busy += nowNs - std::max(timeline.busySince, windowStart);
  return static_cast<uint32_t>(std::min<uint64_t>(100, busy * 100 / kWindowNs));
}

uint64_t DeviceActivity::steadyNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

} // namespace mux
