// mux::Semaphore on the queue's timeline semaphore, and the host-side record
// the queue keeps of it. mux::Fence is the shared CPU fence: it is signalled
// by the queue's completion thread, which knows the dispatch's status.
#pragma once

#include "device_handle.h"

#include "mux/queue.h"

#include <atomic>
#include <cstdint>
#include <volk.h>

namespace vulkan_target {

/// A signal of the mux semaphore is a value of its device's queue timeline
/// (one VkSemaphore per queue, queue.h): the value the submission that
/// signals it sets. A waiter waits for the value of the latest signal
/// submitted before it. "Signalled until reset()" is kept on the host:
/// reset() makes later waiters wait for a signal submitted after it. The
/// queue's mutex guards the value.
///
/// Not a VkSemaphore of its own: creating a timeline semaphore took NVIDIA's
/// driver 190 to 270 µs, and the OpenCL layer makes a mux semaphore for
/// every batch of commands.
class Semaphore final : public mux::Semaphore {
public:
  static llvm::Expected<std::unique_ptr<Semaphore>> create(SharedDevice device);
  void reset() override;

  VkDevice vkDevice() const { return device_->get(); }

  // Used by the queue, under its mutex.
  /// Whether a signal has been submitted since the last reset().
  bool signalSubmitted() const { return signalSubmitted_.load(std::memory_order_acquire); }
  /// The queue timeline's value the latest submitted signal sets (0: none
  /// that will ever be waited for on the device).
  uint64_t timelineValue() const { return value_; }
  /// A signal was submitted; it sets `value` on the queue timeline.
  void markSignalSubmitted(uint64_t value) {
    value_ = value;
    signalSubmitted_.store(true, std::memory_order_release);
  }

private:
  explicit Semaphore(SharedDevice device) : device_(std::move(device)) {}
  SharedDevice device_;
  uint64_t value_ = 0;
  std::atomic<bool> signalSubmitted_{false};
};

} // namespace vulkan_target
