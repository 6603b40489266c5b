// What every thread of one device's stress run shares: the context, the
// device's facts, the programs built for everyone, the user-event mailbox
// and the tally.
#pragma once

#include "cl_calls.h"
#include "options.h"
#include "shared_programs.h"
#include "tally.h"
#include "user_event_mailbox.h"

#include <atomic>

namespace stress {

struct RunState {
  RunState(const Options &options, const DeviceFacts &device);

  const Options &options;
  const DeviceFacts device;
  unsigned elements = 0; ///< the largest buffer of an operation, in uint32 (set before the workers start)
  Tally tally;
  Context context; ///< its pfn_notify counts into tally
  SharedPrograms programs;
  UserEventMailbox mailbox;
  std::atomic<bool> stop{false};
};

} // namespace stress
