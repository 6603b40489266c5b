// mux::Semaphore as a Vulkan timeline semaphore, and the host-side record
// the queue keeps of it. mux::Fence is the shared CPU fence: it is signalled
// by the queue's completion thread, which knows the dispatch's status.
#pragma once

#include "device_handle.h"

#include "mux/queue.h"

#include <atomic>
#include <cstdint>
#include <volk.h>

namespace vulkan_target {

/// Each signal of the mux semaphore is the next value of the timeline; a
/// waiter waits for the value of the latest signal submitted before it.
/// "Signalled until reset()" is kept on the host: reset() makes later
/// waiters wait for a signal submitted after it. The queue's mutex guards
/// the value.
class Semaphore final : public mux::Semaphore {
public:
  static llvm::Expected<std::unique_ptr<Semaphore>> create(SharedDevice device);
  ~Semaphore() override;
  void reset() override;

  VkSemaphore handle() const { return semaphore_; }
  VkDevice vkDevice() const { return device_->get(); }

  // Used by the queue, under its mutex.
  /// Whether a signal has been submitted since the last reset().
  bool signalSubmitted() const { return signalSubmitted_.load(std::memory_order_acquire); }
  /// The value the latest submitted signal sets.
  uint64_t signalValue() const { return value_; }
  /// Takes the value for a signal about to be submitted.
  uint64_t nextSignalValue() { return ++value_; }
  void markSignalSubmitted() { signalSubmitted_.store(true, std::memory_order_release); }

private:
  Semaphore(SharedDevice device, VkSemaphore semaphore) : device_(std::move(device)), semaphore_(semaphore) {}
  SharedDevice device_;
  VkSemaphore semaphore_;
  uint64_t value_ = 0;
  std::atomic<bool> signalSubmitted_{false};
};

} // namespace vulkan_target
