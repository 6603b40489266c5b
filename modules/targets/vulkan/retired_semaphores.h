// Timeline semaphores released by the HAL but not yet reusable. lavapipe
// 22.3's queue thread touches a semaphore after the fence of the submission
// that waited on or signalled it has signalled, even after the semaphore has
// reached its value (CTS test_events' out-of-order tests crashed it in that
// thread every run). A released semaphore is therefore reused (or destroyed)
// only once a submission made after its release has completed (one VkQueue
// processes submissions in order, so the earlier ones are then entirely
// done), or when the queue is idle.
//
// Reused rather than destroyed: creating a timeline semaphore took NVIDIA's
// driver about 270 µs, and the OpenCL layer makes one per batch of
// commands, which an application that flushes after every launch pays per
// launch. A reused semaphore keeps counting from the value its last signal
// set.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
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

  /// A semaphore free for reuse, and the value its last signal set.
  struct Reusable {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t value = 0;
  };

  /// Takes `semaphore`, which no submission made from now on refers to;
  /// `value` is what its last signal sets.
  void retire(VkSemaphore semaphore, uint64_t value);
  /// A semaphore retired earlier that nothing refers to any more, if any.
  std::optional<Reusable> reuse();
  /// The queue made a submission; returns its sequence number.
  uint64_t submitted();
  /// Submission `sequence` completed: what was retired before it was made
  /// becomes reusable.
  void completed(uint64_t sequence);
  bool empty() const;
  /// Makes everything retired reusable. Only when no submission is in
  /// flight and the queue is idle (vkQueueWaitIdle returned).
  void releaseAll();
  /// Destroys every semaphore, retired or reusable: with the device idle.
  void destroyAll();

private:
  /// More reusable semaphores than this are destroyed.
  static constexpr size_t kMaxReusable = 256;
  struct Retired {
    Reusable semaphore;
    uint64_t lastSubmissionBefore; ///< sequence number of the last submission made before retire()
  };
  /// Under mutex_.
  void makeReusable(const Reusable &semaphore);
  VkDevice device_;
  mutable std::mutex mutex_;
  uint64_t submissions_ = 0;
  std::vector<Retired> retired_;
  std::vector<Reusable> reusable_;
};

} // namespace vulkan_target
