// Waiting for commands of a device whose work runs off the host (a GPU):
// the last step of a short command is the wake-up of the waiting thread,
// which adds tens of µs to every clFinish. There the waiter polls briefly
// first; the device's work does not need this core. On CPU devices (and on
// simulators, which run on host threads) it sleeps at once: measured on an
// oversubscribed machine, polling there cost the device thread its core.
#pragma once

#include "mux/device_info.h"

#include <chrono>
#include <thread>

namespace polymux::cl {

/// As long as a GPU target's own completion thread polls before it blocks
/// (1 ms): a kernel of up to a millisecond is then never waited for through
/// a sleeping thread.
inline constexpr std::chrono::microseconds kCompletionPoll{1000};

/// Polls `done` for up to kCompletionPoll on a GPU; returns done().
template <typename Done> bool pollBriefly(const mux::DeviceInfo &info, Done done) {
  if (info.type != mux::DeviceType::GPU)
    return done();
  const auto until = std::chrono::steady_clock::now() + kCompletionPoll;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until)
      return false;
    std::this_thread::yield();
  }
  return true;
}

} // namespace polymux::cl
