// The thread that runs application event callbacks (clSetEventCallback)
// whose event changed status on a device's timeline. A device thread that
// completes a command must not run them itself: a slow callback would stall
// every command after it on that device.
#pragma once

#include "event_impl.h"

namespace polymux::cl {

/// Marks the calling thread as running a device's timeline (a mux command
/// or dispatch callback) for the scope's lifetime: callbacks that become due
/// meanwhile are handed to the callback thread instead of running inline.
class DeviceTimelineScope {
public:
  DeviceTimelineScope();
  ~DeviceTimelineScope();
  DeviceTimelineScope(const DeviceTimelineScope &) = delete;
  DeviceTimelineScope &operator=(const DeviceTimelineScope &) = delete;

  static bool active();

private:
  bool previous_;
};

/// Runs `due` on the callback thread, in order, after everything handed to
/// it before. Empties `due`.
void postToCallbackThread(DueCallbacks &due);

} // namespace polymux::cl
