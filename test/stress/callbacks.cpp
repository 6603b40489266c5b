#include "callbacks.h"

#include "cl_calls.h"

#include <string>
#include <string_view>

namespace stress {
namespace {

struct EventWatch {
  Tally *tally;
  cl_int type;
  Expect expect;
};

void CL_CALLBACK onEvent(cl_event, cl_int status, void *data) {
  auto *watch = static_cast<EventWatch *>(data);
  bool right;
  if (watch->expect == Expect::Complete)
    right = status == watch->type;
  else
    right = watch->type == CL_COMPLETE ? status < 0 : status == watch->type || status < 0;
  if (!right)
    watch->tally->error(
        "an event callback for status " + std::to_string(watch->type) + " got status " + std::to_string(status) +
        (watch->expect == Expect::Complete ? " (the command should succeed)" : " (the command should fail)"));
  ++watch->tally->eventCallbacks.received;
  delete watch;
}

void CL_CALLBACK onDestructor(cl_mem, void *tally) { ++static_cast<Tally *>(tally)->destructorCallbacks.received; }

} // namespace

void watchEvent(Tally &tally, cl_event event, cl_int type, Expect expect) {
  auto *watch = new EventWatch{&tally, type, expect};
  ++tally.eventCallbacks.expected;
  if (cl_int err = clSetEventCallback(event, type, onEvent, watch); err != CL_SUCCESS) {
    --tally.eventCallbacks.expected;
    delete watch;
    ok(err, "clSetEventCallback");
  }
}

void watchDestructor(Tally &tally, cl_mem mem) {
  ++tally.destructorCallbacks.expected;
  if (cl_int err = clSetMemObjectDestructorCallback(mem, onDestructor, &tally); err != CL_SUCCESS) {
    --tally.destructorCallbacks.expected;
    ok(err, "clSetMemObjectDestructorCallback");
  }
}

void CL_CALLBACK onProgramBuilt(cl_program, void *tally) { ++static_cast<Tally *>(tally)->buildCallbacks.received; }

void *expectBuildCallback(Tally &tally) {
  ++tally.buildCallbacks.expected;
  return &tally;
}

void CL_CALLBACK onContextNotify(const char *message, const void *, size_t, void *data) {
  auto *tally = static_cast<Tally *>(data);
  std::string_view text = message ? message : "";
  if (text.find("fault") != std::string_view::npos)
    ++tally->faultNotifications.received;
  else
    ++tally->otherNotifications;
}

} // namespace stress
