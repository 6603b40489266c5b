// What a run did and what went wrong: operation counters, expected and
// received callbacks, and the failures (wrong results, unexpected errors,
// callbacks with the wrong status), shared by every thread of a run.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace stress {

/// Callbacks of one kind: how many the run was owed and how many came.
struct CallbackCount {
  std::atomic<uint64_t> expected{0};
  std::atomic<uint64_t> received{0};
  bool allArrived() const { return received.load() == expected.load(); }
};

struct Tally {
  // Work done.
  std::atomic<uint64_t> operations{0};
  std::atomic<uint64_t> checks{0}; ///< results compared with the host's
  std::atomic<uint64_t> kernels{0};
  std::atomic<uint64_t> transfers{0}; ///< reads, writes, copies, fills
  std::atomic<uint64_t> maps{0};
  std::atomic<uint64_t> markersAndBarriers{0};
  std::atomic<uint64_t> programsBuilt{0};
  std::atomic<uint64_t> userEventsCompleted{0};
  std::atomic<uint64_t> userEventsFailed{0};
  std::atomic<uint64_t> userEventsSetByOtherThreads{0};
  std::atomic<uint64_t> dependantsFailed{0}; ///< commands failed by a failed wait-list event
  // Disruptions.
  std::atomic<uint64_t> faults{0};
  std::atomic<uint64_t> longKernels{0};
  std::atomic<double> longKernelSeconds{0};
  std::atomic<uint64_t> localMemoryRefusals{0};
  std::atomic<int32_t> faultStatus{0};
  std::atomic<int32_t> localMemoryError{0};
  std::string staticLocalOutcome; ///< set once by the disruptor

  // Callbacks.
  CallbackCount eventCallbacks;
  CallbackCount destructorCallbacks;
  CallbackCount buildCallbacks;
  CallbackCount faultNotifications; ///< context pfn_notify for faulting kernels
  std::atomic<uint64_t> otherNotifications{0};

  // Failures.
  std::atomic<uint64_t> wrongResults{0};
  std::atomic<uint64_t> errors{0}; ///< unexpected API results, wrong callback statuses, lost callbacks

  void wrongResult(const std::string &what);
  void error(const std::string &what);
  uint64_t failures() const { return wrongResults + errors; }
  /// The first failures' descriptions (the rest are only counted).
  std::vector<std::string> failureMessages() const;

private:
  void record(const std::string &what);
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

} // namespace stress
