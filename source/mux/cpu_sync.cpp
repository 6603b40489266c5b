#include "mux/support/cpu_sync.h"

#include "mux/support/spin_wait.h"

#include <algorithm>

namespace mux::support {

void CpuSemaphore::signal() {
  std::vector<SemaphoreListener *> listeners;
  {
    std::lock_guard lock(mutex_);
    signalled_.store(true, std::memory_order_release);
    listeners.swap(listeners_);
  }
  // Outside the lock: a listener takes its own lock and may register again.
  for (SemaphoreListener *listener : listeners)
    listener->semaphoreSignalled();
}

bool CpuSemaphore::listenIfUnsignalled(SemaphoreListener *listener) {
  std::lock_guard lock(mutex_);
  if (signalled_.load(std::memory_order_acquire))
    return false;
  if (std::find(listeners_.begin(), listeners_.end(), listener) == listeners_.end())
    listeners_.push_back(listener);
  return true;
}

void CpuSemaphore::removeListener(SemaphoreListener *listener) {
  std::lock_guard lock(mutex_);
  std::erase(listeners_, listener);
}

Status CpuFence::wait(std::chrono::nanoseconds timeout) {
  // Most waits follow a short dispatch: poll a little before sleeping.
  auto isSignalled = [&] { return signalled_.load(std::memory_order_acquire); };
  if (!spinUntil(isSignalled, std::min(timeout, std::chrono::nanoseconds(20'000)))) {
    std::unique_lock lock(mutex_);
    // Far-future deadlines overflow steady_clock arithmetic: wait unbounded.
    if (timeout >= std::chrono::hours(24 * 365)) {
      cv_.wait(lock, isSignalled);
    } else if (!cv_.wait_for(lock, timeout, isSignalled)) {
      return Status::Timeout;
    }
  }
  std::lock_guard lock(mutex_);
  return status_;
}

void CpuFence::reset() {
  std::lock_guard lock(mutex_);
  signalled_.store(false, std::memory_order_release);
  status_ = Status::Success;
}

void CpuFence::signal(Status status) {
  // Notified under the lock: a waiter that sees the fence signalled may
  // destroy it as soon as it returns, which it cannot do before taking the
  // lock (wait() reads the status under it) - so not during notify_all().
  std::lock_guard lock(mutex_);
  status_ = status;
  signalled_.store(true, std::memory_order_release);
  cv_.notify_all();
}

} // namespace mux::support
