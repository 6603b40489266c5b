// User events handed between threads: a worker posts the user event its
// commands wait on, with the status it wants, and whichever thread drains
// the mailbox next sets it. A worker drains the mailbox itself before it
// waits for those commands, so a user event is never left unset while its
// owner waits (no deadlock by construction), and most are set by another
// thread than the one that enqueued the commands.
#pragma once

#include "cl_calls.h"

#include <deque>
#include <mutex>

namespace stress {

struct Tally;

class UserEventMailbox {
public:
  /// Posts `event` (retained until set) to be set to `status`.
  void post(cl_event event, cl_int status, unsigned poster);
  /// Sets every posted event; `drainer` identifies the calling thread.
  void drain(Tally &tally, unsigned drainer);

private:
  struct Pending {
    Event event;
    cl_int status;
    unsigned poster;
  };
  std::mutex mutex_;
  std::deque<Pending> pending_;
};

} // namespace stress
