// mux::Queue on one Vulkan compute queue. A dispatch is handed to Vulkan
// only once every semaphore it waits on has its signal submitted (so the
// driver never sees a wait before its signal, and a dispatch that cannot
// run yet never blocks the VkQueue for those behind it); it then waits on
// the timeline values on the device. A command buffer split by user
// callbacks is submitted one segment at a time: the completion thread runs
// a segment's markers and callback once the segment has completed, then
// submits the next. The last segment signals the dispatch's semaphores.
// Those waits are the only ordering between submissions (command buffers
// have no barrier before their first command, as the HAL orders dispatches
// by semaphores only): a dispatch's first segment waits for its semaphores'
// values, each later segment for the one before it; a semaphore wait is a
// full memory dependency.
// A segment's timestamps are moved onto the host clock (device_clock.h)
// before its markers and callback run.
#pragma once

#include "device_handle.h"
#include "timestamp_window.h"

#include "mux/device_activity.h"
#include "mux/queue.h"
#include "mux/support/cpu_sync.h"

#include "llvm/ADT/SmallVector.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#include <volk.h>

namespace vulkan_target {

class CommandBuffer;
class DeviceClock;
class Semaphore;

class Queue final : public mux::Queue {
public:
  /// How long destruction waits for submitted work.
  static constexpr std::chrono::seconds kShutdownGrace{10};

  /// `spinBeforeBlocking`: how long the completion thread polls the
  /// timeline for a submission before it blocks on it. A GPU driver's blocking wait wakes the thread
  /// tens of µs after the work ended, which short kernels feel as launch
  /// latency; a CPU driver needs those cycles for the work itself (0).
  static llvm::Expected<std::unique_ptr<Queue>> create(SharedDevice device, VkQueue queue, std::string deviceName,
                                                       DeviceClock &clock, std::chrono::microseconds spinBeforeBlocking,
                                                       mux::DeviceActivity &activity);
  /// Finishes what was submitted or can be, abandons dispatches whose
  /// semaphores nobody will signal, and stops the completion thread. Work
  /// still running kShutdownGrace after that abandons the device
  /// (device_handle.h) instead of waiting for ever.
  ~Queue() override;

  llvm::Error dispatch(mux::CommandBuffer &commandBuffer, std::span<mux::Semaphore *const> waits,
                       std::span<mux::Semaphore *const> signals, mux::Fence *fence,
                       mux::CompletionCallback onComplete) override;
  void waitAll() override;

  /// Whether the device was lost (every later dispatch fails at once).
  bool deviceLost() const;

private:
  struct Dispatch {
    CommandBuffer *commandBuffer;
    llvm::SmallVector<Semaphore *, 4> waits;
    llvm::SmallVector<Semaphore *, 4> signals;
    mux::support::CpuFence *fence;
    mux::CompletionCallback onComplete;
    size_t nextSegment = 0;
    uint64_t previousSegmentValue = 0; ///< the timeline value of its last submitted segment
    mux::Outcome outcome;              ///< of the device's work (a failed submission, a lost device)
    /// The first command that failed on its own (a kernel's access outside
    /// its buffers): it fails the dispatch, not the commands after it.
    mux::Outcome commandFailure;
    /// Reported to the device's activity from its first submission to its
    /// end: as a kernel launch (its progress read from the launches'
    /// counters) or transfers.
    bool reportedBusy = false;
    mux::DeviceActivity::Work work = mux::DeviceActivity::Work::Transfer;
    uint64_t progressToken = 0; ///< from DeviceActivity::launchStarted
  };
  struct Submission {
    std::shared_ptr<Dispatch> dispatch;
    size_t segment;
    uint64_t value;         ///< on the timeline once it completed; 0: never submitted
    TimestampWindow window; ///< for a segment that writes timestamps
  };

  Queue(SharedDevice device, VkQueue queue, VkSemaphore timeline, VkFence probe, std::string deviceName,
        DeviceClock &clock, std::chrono::microseconds spinBeforeBlocking, mux::DeviceActivity &activity);

  /// Submits every held dispatch that can go now. Caller holds mutex_.
  void submitReady();
  /// Reports `dispatch`'s launches as started, their progress read from
  /// their counters from now on. Caller holds mutex_.
  void reportLaunchesStarted(Dispatch &dispatch);
  /// Submits `dispatch`'s next segment, or fails it when the device is lost.
  /// Caller holds mutex_.
  void submitSegment(const std::shared_ptr<Dispatch> &dispatch);
  bool waitsSubmitted(const Dispatch &dispatch) const;
  /// VK_SUCCESS once the timeline reached `value`, else VK_NOT_READY (or
  /// the error, VK_ERROR_DEVICE_LOST).
  VkResult timelineReached(uint64_t value) const;
  /// Blocks until the timeline reaches `value` (VK_SUCCESS), for at most
  /// kBlockingWaitNs (VK_TIMEOUT), or until the device is found lost
  /// (VK_ERROR_DEVICE_LOST). It blocks on probeFence_, in an empty
  /// submission made after the awaited one, not on the timeline: with
  /// NVIDIA's driver a kernel that lost the device left the wait on the
  /// timeline blocked (the process hung), where a fence reports the loss.
  /// Called with `lock` (on mutex_) released; returns with it released.
  VkResult waitBehindProbe(std::unique_lock<std::mutex> &lock, uint64_t value);
  void completionLoop();
  /// Until nothing submitted to the driver is left, the device is lost or
  /// `deadline` passes (process_exit.h: at exit, before the driver's
  /// teardown).
  void waitForSubmittedWork(std::chrono::steady_clock::time_point deadline);
  /// Host work after a segment completed; then the next segment or the end
  /// of the dispatch. Called without mutex_.
  void segmentCompleted(Submission submission, VkResult result);
  void finishDispatch(const std::shared_ptr<Dispatch> &dispatch);

  SharedDevice shared_;
  VkDevice device_;
  VkQueue queue_;
  /// Every submission sets its next value (timelineValue_: the latest
  /// submitted); the completion thread waits for those, and the mux
  /// semaphores' signals are those of the submissions that signal them
  /// (sync.h). The device's only queue, so a wait is for work earlier in
  /// submission order; the wait is what orders a command buffer's first
  /// command after that work (no barrier leads it).
  VkSemaphore timeline_;
  uint64_t timelineValue_ = 0;
  VkFence probeFence_;        ///< waitBehindProbe()
  bool probePending_ = false; ///< probeFence_ is in a submission not seen complete
  std::string deviceName_;
  DeviceClock &clock_;
  std::chrono::microseconds spinBeforeBlocking_;
  mux::DeviceActivity &activity_;
  mutable std::mutex mutex_;
  std::condition_variable workArrived_;
  std::condition_variable dispatchFinished_;
  std::list<std::shared_ptr<Dispatch>> held_;
  std::deque<Submission> inFlight_;
  /// Segments whose completion (host work) is running right now.
  size_t completing_ = 0;
  /// Dispatches not yet finished (held, in flight or between segments).
  size_t outstanding_ = 0;
  bool lost_ = false;
  bool stopping_ = false;
  std::thread completionThread_;
};

} // namespace vulkan_target
