#include "user_event_mailbox.h"

#include "cl_error_name.h"
#include "tally.h"

namespace stress {

void UserEventMailbox::post(cl_event event, cl_int status, unsigned poster) {
  ok(clRetainEvent(event), "clRetainEvent");
  std::lock_guard lock(mutex_);
  pending_.push_back({Event(event), status, poster});
}

void UserEventMailbox::drain(Tally &tally, unsigned drainer) {
  std::deque<Pending> taken;
  {
    std::lock_guard lock(mutex_);
    taken.swap(pending_);
  }
  for (Pending &p : taken) {
    if (cl_int err = clSetUserEventStatus(p.event, p.status); err != CL_SUCCESS)
      tally.error("clSetUserEventStatus(" + std::to_string(p.status) + "): " + cltest::errorName(err));
    ++(p.status == CL_COMPLETE ? tally.userEventsCompleted : tally.userEventsFailed);
    if (p.poster != drainer)
      ++tally.userEventsSetByOtherThreads;
  }
}

} // namespace stress
