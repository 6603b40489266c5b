// What a device is doing, as cl_polymux_device_status reports it
// (doc/extensions/cl_polymux_device_status.md): global memory allocated, the
// progress of the kernel launch that is running, and how much of the last
// second the device spent running kernels and transfers. Targets feed it as
// they work (the shared helpers of mux/support do so for the CPU-memory
// targets); every member is thread-safe and cheap.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>

namespace mux {

class DeviceActivity {
public:
  /// Kinds of device work whose share of time is reported.
  enum class Work { Kernel, Transfer };
  /// The window utilisation is measured over.
  static constexpr uint64_t kWindowNs = 1'000'000'000;

  // Memory.
  void memoryAllocated(uint64_t bytes) { allocated_.fetch_add(bytes, std::memory_order_relaxed); }
  void memoryReleased(uint64_t bytes) { allocated_.fetch_sub(bytes, std::memory_order_relaxed); }
  /// Bytes of device memory allocated now.
  uint64_t bytesAllocated() const { return allocated_.load(std::memory_order_relaxed); }

  // The running kernel launch.
  /// A launch of `workGroups` groups starts (0: the target cannot count
  /// them; progress then stays 0 until launchEnded()). A target that runs
  /// several launches at once calls it for each; progress is then 0 (or
  /// that of the last counted launch) until all have ended.
  void launchStarted(uint64_t workGroups);
  /// `count` more work-groups of the running launch have finished.
  void workGroupsDone(uint64_t count) { groupsDone_.fetch_add(count, std::memory_order_relaxed); }
  void launchEnded();
  /// For a target whose device counts what has finished in memory the host
  /// reads (vulkan: work-items): a launch of `units` starts, and until the
  /// launchEnded(token) with the token returned here, launchProgress()
  /// calls `unitsDone` (under a lock, so it may read memory that the caller
  /// frees after launchEnded(token)). 0 units: progress stays 0.
  uint64_t launchStarted(uint64_t units, std::function<uint64_t()> unitsDone);
  void launchEnded(uint64_t token);
  /// 0..100: the share of the running launch's work-groups that have
  /// finished, rounded down (at most 99 until it ends); 100 when no launch
  /// is running.
  uint32_t launchProgress() const;

  // Utilisation.
  /// `kind` of work starts or ends now (steadyNs() clock). Calls of one kind
  /// nest: work is busy from the first begin to the matching last end.
  void begin(Work kind, uint64_t nowNs);
  void end(Work kind, uint64_t nowNs);
  /// 0..100: the share of the last kWindowNs (ending at `nowNs`) during
  /// which `kind` of work was running.
  uint32_t utilization(Work kind, uint64_t nowNs) const;

  /// Nanoseconds on the steady clock (the clock begin/end/utilization use).
  static uint64_t steadyNs();

private:
  /// Busy time per 10 ms slice of the last second (a ring).
  static constexpr uint64_t kSliceNs = 10'000'000;
  static constexpr size_t kSlices = kWindowNs / kSliceNs + 1;
  struct Timeline {
    std::array<uint64_t, kSlices> sliceIndex{};
    std::array<uint64_t, kSlices> busyNs{};
    uint32_t depth = 0;     ///< begin() calls not yet ended
    uint64_t busySince = 0; ///< while depth > 0
    void add(uint64_t beginNs, uint64_t endNs);
  };

  std::atomic<uint64_t> allocated_{0};
  std::atomic<uint64_t> groupsTotal_{0};
  std::atomic<uint64_t> groupsDone_{0};
  std::atomic<uint32_t> launchesRunning_{0};
  mutable std::mutex readerMutex_; ///< guards the two below
  std::function<uint64_t()> unitsDone_;
  uint64_t readerToken_ = 0; ///< of the launch unitsDone_ belongs to
  mutable std::mutex mutex_; ///< guards timelines_
  std::array<Timeline, 2> timelines_;
};

} // namespace mux
