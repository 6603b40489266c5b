#include "callback_drain.h"

#include "batch.h"
#include "event_impl.h"

#include <condition_variable>
#include <mutex>

namespace polymux::cl {
namespace {

thread_local bool tInApplicationCallback = false;

/// One process-wide mutex and condition for every count: a count reaching
/// zero is rare enough (once per batch of callbacks) that sharing them costs
/// nothing worth a member per event.
std::mutex &drainMutex() {
  static auto *mutex = new std::mutex;
  return *mutex;
}
std::condition_variable &drained() {
  static auto *condition = new std::condition_variable;
  return *condition;
}

void waitUntilZero(const std::atomic<uint32_t> &count) {
  if (tInApplicationCallback || count.load(std::memory_order_acquire) == 0)
    return;
  std::unique_lock lock(drainMutex());
  drained().wait(lock, [&] { return count.load(std::memory_order_acquire) == 0; });
}

} // namespace

DueCallbackToken::DueCallbackToken(Event &event) : event_(&event) {
  event.impl().callbacksDue.fetch_add(1, std::memory_order_acq_rel);
  if (CommandQueue *queue = event.impl().queue.get())
    queue->impl().callbacksDue.fetch_add(1, std::memory_order_acq_rel);
}

void DueCallbackToken::release() {
  if (!event_)
    return;
  auto &impl = event_->impl();
  bool zero = impl.callbacksDue.fetch_sub(1, std::memory_order_acq_rel) == 1;
  if (CommandQueue *queue = impl.queue.get())
    zero |= queue->impl().callbacksDue.fetch_sub(1, std::memory_order_acq_rel) == 1;
  if (zero) {
    // Under the mutex, so that a waiter between its check and its sleep
    // cannot miss the notification.
    std::lock_guard lock(drainMutex());
    drained().notify_all();
  }
  event_ = nullptr;
}

ApplicationCallbackScope::ApplicationCallbackScope() : previous_(tInApplicationCallback) {
  tInApplicationCallback = true;
}
ApplicationCallbackScope::~ApplicationCallbackScope() { tInApplicationCallback = previous_; }
bool ApplicationCallbackScope::active() { return tInApplicationCallback; }

void waitForDueCallbacks(Event &event) { waitUntilZero(event.impl().callbacksDue); }
void waitForDueCallbacks(CommandQueue &queue) { waitUntilZero(queue.impl().callbacksDue); }

} // namespace polymux::cl
