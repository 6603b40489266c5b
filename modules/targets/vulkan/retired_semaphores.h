// Timeline semaphores released by the HAL but not yet destroyed. lavapipe
// 22.3's queue thread touches a semaphore after the fence of the submission
// that waited on or signalled it has signalled, even after the semaphore has
// reached its value (CTS test_events' out-of-order tests crashed it in that
// thread every run). A released semaphore is therefore destroyed only once a
// submission made after its release has completed (one VkQueue processes
// submissions in order, so the earlier ones are then entirely done), or when
// the queue is idle.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>
#include <volk.h>

namespace vulkan_target {

class RetiredSemaphores {
public:
  /// Destroys nothing: the device's owner calls destroyAll() when the device
  /// is idle, or leaks the semaphores with an abandoned device.
  explicit RetiredSemaphores(VkDevice device) : device_(device) {}
  RetiredSemaphores(const RetiredSemaphores &) = delete;
  RetiredSemaphores &operator=(const RetiredSemaphores &) = delete;

  /// Takes `semaphore`, which no submission made from now on refers to.
  void retire(VkSemaphore semaphore);
  /// The queue made a submission; returns its sequence number.
  uint64_t submitted();
  /// Submission `sequence` completed: destroys what was retired before it
  /// was made.
  void completed(uint64_t sequence);
  bool empty() const;
  /// Destroys everything retired. Only when no submission is in flight and
  /// the queue is idle (vkQueueWaitIdle returned).
  void destroyAll();

private:
  struct Retired {
    VkSemaphore semaphore;
    uint64_t lastSubmissionBefore; ///< sequence number of the last submission made before retire()
  };
  VkDevice device_;
  mutable std::mutex mutex_;
  uint64_t submissions_ = 0;
  std::vector<Retired> retired_;
};

} // namespace vulkan_target
