// Event callbacks that are due but have not returned yet, counted on their
// event and on its queue. clWaitForEvents and clFinish return only once the
// callbacks of the events they waited for have returned, so that what a
// callback wrote is visible after them. The specification does not promise
// it (callbacks may run asynchronously), but applications and the
// conformance suites rely on it (cl_khr_command_buffer's
// return_event_callback checks a flag its callback sets, on the stack of a
// function that returns right after clFinish); a callback that ran later
// would write to freed stack.
//
// Waits made from inside an application callback do not wait for callbacks:
// the callback would wait for itself, or for the callbacks queued behind it
// on the callback thread.
#pragma once

#include "event.h"
#include "object.h"

#include <atomic>
#include <cstdint>

namespace polymux::cl {

/// Counts one due callback of `event` until it is destroyed (after the
/// callback ran, or when it is dropped). Move-only.
class DueCallbackToken {
public:
  DueCallbackToken() = default;
  explicit DueCallbackToken(Event &event);
  DueCallbackToken(DueCallbackToken &&other) noexcept : event_(std::move(other.event_)) {}
  DueCallbackToken &operator=(DueCallbackToken &&other) noexcept {
    if (this != &other) {
      release();
      event_ = std::move(other.event_);
    }
    return *this;
  }
  ~DueCallbackToken() { release(); }

private:
  void release();
  Ref<Event> event_;
};

/// Marks the calling thread as running an application's event callback for
/// the scope's lifetime.
class ApplicationCallbackScope {
public:
  ApplicationCallbackScope();
  ~ApplicationCallbackScope();
  ApplicationCallbackScope(const ApplicationCallbackScope &) = delete;
  ApplicationCallbackScope &operator=(const ApplicationCallbackScope &) = delete;
  static bool active();

private:
  bool previous_;
};

/// Waits until no callback of `event` is due.
void waitForDueCallbacks(Event &event);
/// Waits until no callback of an event of `queue` is due.
void waitForDueCallbacks(CommandQueue &queue);

} // namespace polymux::cl
