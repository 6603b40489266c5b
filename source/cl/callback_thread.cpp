// One process-wide thread runs the posted callbacks in posting order, so the
// callbacks of one event (and of the commands of one in-order queue) keep the
// order their status changes had.
#include "callback_thread.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace polymux::cl {
namespace {

thread_local bool tOnDeviceTimeline = false;

class CallbackThread {
public:
  void post(DueCallbacks &due) {
    {
      std::lock_guard lock(mutex_);
      for (auto &callback : due)
        pending_.push_back(std::move(callback));
      if (!started_) {
        // Detached: it lives as long as the process, and the process may
        // exit while the application still holds events.
        std::thread([this] { run(); }).detach();
        started_ = true;
      }
    }
    due.clear();
    wake_.notify_one();
  }

private:
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return !pending_.empty(); });
      {
        DueCallback callback = std::move(pending_.front());
        pending_.pop_front();
        lock.unlock();
        ApplicationCallbackScope scope;
        callback.fn(callback.event->handle(), callback.status, callback.userData);
      } // destroyed unlocked: its release may destroy the event
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<DueCallback> pending_;
  bool started_ = false;
};

/// Never destroyed: the detached thread uses it until the process ends.
CallbackThread &callbackThread() {
  static auto *thread = new CallbackThread;
  return *thread;
}

} // namespace

DeviceTimelineScope::DeviceTimelineScope() : previous_(tOnDeviceTimeline) { tOnDeviceTimeline = true; }
DeviceTimelineScope::~DeviceTimelineScope() { tOnDeviceTimeline = previous_; }
bool DeviceTimelineScope::active() { return tOnDeviceTimeline; }

void postToCallbackThread(DueCallbacks &due) {
  if (!due.empty())
    callbackThread().post(due);
}

} // namespace polymux::cl
