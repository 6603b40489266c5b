// Command queues: enqueued Commands are batched into mux command buffers and
// dispatched with semaphore chaining (DESIGN.md, "OpenCL layer").
#pragma once

#include "command.h"
#include "object.h"

namespace polymux::cl {

class Context;
class Device;

class CommandQueue final : public Object<_cl_command_queue, ObjectKind::CommandQueue> {
public:
  static CommandQueue *fromHandle(cl_command_queue handle) { return Object::fromHandle<CommandQueue>(handle); }

  Context &context() const;
  Device &device() const;
  cl_command_queue_properties properties() const;
  bool outOfOrder() const { return properties() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; }

  /// Validates the wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT),
  /// records `command` after its dependencies, creates *event when `event` is
  /// non-null, and with `blocking` waits for completion (returning
  /// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if a dependency failed).
  cl_int enqueue(Command command, cl_uint numEventsInWaitList, const cl_event *eventWaitList, cl_event *event,
                 bool blocking = false);

  /// A queue of the OpenCL layer itself (Context::transferQueue): out of
  /// order, never seen by the application, and not holding `context`.
  static Ref<CommandQueue> createTransferQueue(Context &context, Device &device);

  // Implementation details are private to queue.cpp (pimpl) so the batching
  // engine can change without touching every enqueue site.
  struct Impl;
  explicit CommandQueue(std::unique_ptr<Impl> impl);
  ~CommandQueue() override;
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace polymux::cl
