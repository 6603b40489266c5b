// Events: the status lifecycle shared by command and user events, callbacks,
// waiting, profiling, and the clXxxEvent entry points.
#include "event.h"

#include "batch.h"
#include "callback_thread.h"
#include "command_type_name.h"
#include "completion_poll.h"
#include "context.h"
#include "device.h"
#include "event_impl.h"
#include "info.h"
#include "queue.h"

#include "CL/cl_ext_polymux.h"
#include "mux/support/log.h"

namespace polymux::cl {

Event::Impl::Impl(Context &context, CommandQueue *queue, cl_command_type type)
    : context(&context), queue(queue), type(type) {}

Event::Event(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Event::~Event() = default;

Context &Event::context() const { return *impl_->context; }
CommandQueue *Event::queue() const { return impl_->queue.get(); }
cl_command_type Event::commandType() const { return impl_->type; }
cl_int Event::status() const { return impl_->status.load(std::memory_order_acquire); }

Ref<Event> createCommandEvent(CommandQueue &queue, cl_command_type type) {
  auto impl = std::make_unique<Event::Impl>(queue.context(), &queue, type);
  if (queue.properties() & CL_QUEUE_PROFILING_ENABLE) {
    impl->profiling = true;
    impl->queuedNs = queue.device().mux().timestampNs();
  }
  return adopt(new Event(std::move(impl)));
}

void advanceEventStatus(Event &event, cl_int status, DueCallbacks &due) {
  auto &impl = event.impl();
  std::lock_guard lock(impl.mutex);
  cl_int current = impl.status.load(std::memory_order_relaxed);
  // Complete and failed are final; otherwise the status only moves forward.
  if (current <= CL_COMPLETE || status >= current)
    return;
  // Poisons or clears its buffers before anyone can see the final status.
  if (impl.errorModel && status <= CL_COMPLETE)
    settleErrorModelEvent(event, status);
  impl.status.store(status, std::memory_order_release);
  if (status < 0 && impl.queue)
    mux::support::log(mux::support::LogLevel::Warning, "queue",
                      "command " + commandTypeName(impl.type) + " on '" + impl.queue->device().info().name +
                          "' failed with status " + std::to_string(status));
  else if (status == CL_COMPLETE && impl.queue && mux::support::logEnabled(mux::support::LogLevel::Debug, "queue"))
    mux::support::log(mux::support::LogLevel::Debug, "queue",
                      "command " + commandTypeName(impl.type) + " on '" + impl.queue->device().info().name +
                          "' complete");
  for (auto it = impl.callbacks.begin(); it != impl.callbacks.end();) {
    // On failure every pending callback is called, with the error.
    if (status < 0 || it->onStatus >= status) {
      due.push_back(DueCallback{Ref<Event>(&event), it->fn, it->userData, status < 0 ? status : it->onStatus,
                                DueCallbackToken(event)});
      it = impl.callbacks.erase(it);
    } else {
      ++it;
    }
  }
  if (status <= CL_COMPLETE)
    impl.changed.notify_all();
}

void runDueCallbacks(DueCallbacks &due) {
  if (due.empty())
    return;
  if (SchedulerGuard *guard = SchedulerGuard::current()) {
    guard->deferCallbacks(due);
    return;
  }
  if (DeviceTimelineScope::active()) {
    postToCallbackThread(due);
    return;
  }
  {
    ApplicationCallbackScope scope;
    for (auto &callback : due)
      callback.fn(callback.event->handle(), callback.status, callback.userData);
  }
  due.clear();
}

void setEventStatus(Event &event, cl_int status) {
  DueCallbacks due;
  advanceEventStatus(event, status, due);
  runDueCallbacks(due);
}

cl_int waitForEvent(Event &event) {
  auto &impl = event.impl();
  if (event.status() > CL_COMPLETE && impl.queue) {
    SchedulerGuard guard;
    flushForEvent(event, guard);
  }
  // Polling before sleeping only where the work runs off the host
  // (completion_poll.h).
  auto done = [&] { return impl.status.load(std::memory_order_acquire) <= CL_COMPLETE; };
  const bool finished = impl.queue ? pollBriefly(impl.queue->device().info(), done) : done();
  if (!finished) {
    std::unique_lock lock(impl.mutex);
    impl.changed.wait(lock, done);
  }
  return impl.status.load(std::memory_order_acquire);
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (num_events == 0 || !event_list)
    return CL_INVALID_VALUE;
  llvm::SmallVector<Event *, 8> events;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event *event = Event::fromHandle(event_list[i]);
    if (!event)
      return CL_INVALID_EVENT;
    if (!events.empty() && &event->context() != &events.front()->context())
      return CL_INVALID_CONTEXT;
    events.push_back(event);
  }
  {
    // Flush everything first so the batches run while we wait on the first.
    SchedulerGuard guard;
    for (Event *event : events)
      if (event->queue() && event->status() > CL_COMPLETE)
        flushForEvent(*event, guard);
  }
  bool failed = false;
  for (Event *event : events)
    if (waitForEvent(*event) < 0)
      failed = true;
  for (Event *event : events)
    waitForDueCallbacks(*event);
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event handle, cl_event_info param_name, size_t param_value_size,
                                               void *param_value, size_t *param_value_size_ret) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE: {
    cl_command_queue queue = event->queue() ? event->queue()->handle() : nullptr;
    return writeInfo(param_value_size, param_value, param_value_size_ret, queue);
  }
  case CL_EVENT_CONTEXT:
    return writeInfo(param_value_size, param_value, param_value_size_ret, event->context().handle());
  case CL_EVENT_COMMAND_TYPE:
    return writeInfo(param_value_size, param_value, param_value_size_ret, event->commandType());
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    // Not a synchronisation point, but an application polling an event it
    // never flushed would spin forever: submit its batch.
    if (event->queue() && event->status() == CL_QUEUED) {
      SchedulerGuard guard;
      flushForEvent(*event, guard);
    }
    return writeInfo(param_value_size, param_value, param_value_size_ret, event->status());
  }
  case CL_EVENT_REFERENCE_COUNT:
    return writeInfo(param_value_size, param_value, param_value_size_ret, static_cast<cl_uint>(event->refCount()));
  case CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX: // cl_polymux_async_error_model
    return errorModelEventInfo(*event, param_name, param_value_size, param_value, param_value_size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context_handle, cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  auto *event = new Event(std::make_unique<Event::Impl>(*context, nullptr, CL_COMMAND_USER));
  event->impl().status.store(CL_SUBMITTED, std::memory_order_relaxed);
  if (errcode_ret)
    *errcode_ret = CL_SUCCESS;
  return event->handle();
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event handle) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  event->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event handle) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  event->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event handle, cl_int execution_status) {
  Event *event = Event::fromHandle(handle);
  if (!event || event->queue() || event->commandType() != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (execution_status != CL_COMPLETE && execution_status >= 0)
    return CL_INVALID_VALUE;
  auto &impl = event->impl();
  {
    std::lock_guard lock(impl.mutex);
    if (impl.userStatusSet)
      return CL_INVALID_OPERATION;
    impl.userStatusSet = true;
  }
  setEventStatus(*event, execution_status);
  // Batches held back by this event may go now (or fail).
  SchedulerGuard guard;
  pumpScheduler(guard);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event handle, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                                   void *user_data) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
      command_exec_callback_type != CL_COMPLETE)
    return CL_INVALID_VALUE;
  auto &impl = event->impl();
  cl_int status;
  {
    std::lock_guard lock(impl.mutex);
    status = impl.status.load(std::memory_order_relaxed);
    if (status > command_exec_callback_type) {
      impl.callbacks.push_back({command_exec_callback_type, pfn_notify, user_data});
      return CL_SUCCESS;
    }
  }
  // Already reached (or failed): call it now, with no lock held.
  ApplicationCallbackScope scope;
  pfn_notify(handle, status < 0 ? status : command_exec_callback_type, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event handle, cl_profiling_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  auto &impl = event->impl();
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED:
  case CL_PROFILING_COMMAND_SUBMIT:
  case CL_PROFILING_COMMAND_START:
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    break;
  case CL_PROFILING_COMMAND_INSTRUCTIONS_RETIRED_POLYMUX:
    // Only devices that count (cl_polymux_instruction_counters) know it.
    if (!impl.queue || !impl.queue->device().hasExtension(CL_POLYMUX_INSTRUCTION_COUNTERS_EXTENSION_NAME))
      return CL_INVALID_VALUE;
    break;
  default:
    return CL_INVALID_VALUE;
  }
  // User events, queues without profiling, and commands not (successfully)
  // complete have no timestamps.
  if (!impl.queue || !impl.profiling || event->status() != CL_COMPLETE ||
      !impl.timestampsValid.load(std::memory_order_acquire))
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  cl_ulong value = 0;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED:
    value = impl.queuedNs;
    break;
  case CL_PROFILING_COMMAND_SUBMIT:
    value = impl.submitNs;
    break;
  case CL_PROFILING_COMMAND_START:
    value = impl.startNs;
    break;
  case CL_PROFILING_COMMAND_INSTRUCTIONS_RETIRED_POLYMUX:
    value = impl.instructionsRetired;
    break;
  default: // END, COMPLETE (no child commands)
    value = impl.endNs;
    break;
  }
  return writeInfo(param_value_size, param_value, param_value_size_ret, value);
}

} // extern "C"
