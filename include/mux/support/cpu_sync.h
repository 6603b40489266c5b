// Shared HAL helpers: semaphores and fences for targets whose queue runs on a
// host thread (host, template, simulators).
#pragma once

#include "mux/queue.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace mux::support {

/// Told when a semaphore it waits on becomes signalled.
class SemaphoreListener {
public:
  virtual void semaphoreSignalled() = 0;

protected:
  ~SemaphoreListener() = default;
};

class CpuSemaphore final : public Semaphore {
public:
  void reset() override { signalled_.store(false, std::memory_order_release); }
  /// Sets the semaphore and tells (then forgets) every registered listener.
  void signal();
  bool signalled() const { return signalled_.load(std::memory_order_acquire); }
  /// Registers `listener` for the next signal() unless already signalled;
  /// returns whether the semaphore is still unsignalled.
  bool listenIfUnsignalled(SemaphoreListener *listener);
  void removeListener(SemaphoreListener *listener);

private:
  std::atomic<bool> signalled_{false};
  std::mutex mutex_;
  std::vector<SemaphoreListener *> listeners_;
};

class CpuFence final : public Fence {
public:
  Status wait(std::chrono::nanoseconds timeout) override;
  void reset() override;
  void signal(Status status);

private:
  std::atomic<bool> signalled_{false};
  Status status_ = Status::Success;
  std::mutex mutex_;
  std::condition_variable cv_;
};

} // namespace mux::support
