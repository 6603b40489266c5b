// Command queues: the CommandQueue class, the clXxxCommandQueue entry points,
// flush/finish, and markers/barriers. The batching itself is in batch.cpp.
#include "queue.h"

#include "batch.h"
#include "context.h"
#include "device.h"
#include "event_impl.h"
#include "info.h"
#include "migration.h"

namespace polymux::cl {

CommandQueue::CommandQueue(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CommandQueue::~CommandQueue() = default;

Context &CommandQueue::context() const { return *impl_->context; }
Device &CommandQueue::device() const { return *impl_->device; }
cl_command_queue_properties CommandQueue::properties() const { return impl_->properties; }

Ref<CommandQueue> CommandQueue::createTransferQueue(Context &context, Device &device) {
  auto impl = std::make_unique<Impl>();
  impl->context = &context;
  impl->device = &device;
  impl->properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  return adopt(new CommandQueue(std::move(impl)));
}

cl_int CommandQueue::enqueue(Command command, cl_uint numEventsInWaitList, const cl_event *eventWaitList,
                             cl_event *event, bool blocking) {
  if ((numEventsInWaitList > 0) != (eventWaitList != nullptr))
    return CL_INVALID_EVENT_WAIT_LIST;
  llvm::SmallVector<Event *, 8> waits;
  for (cl_uint i = 0; i < numEventsInWaitList; ++i) {
    Event *wait = Event::fromHandle(eventWaitList[i]);
    if (!wait)
      return CL_INVALID_EVENT_WAIT_LIST;
    if (&wait->context() != &context())
      return CL_INVALID_CONTEXT;
    waits.push_back(wait);
  }

  // Commands nobody observes need no event; a command writing buffers of a
  // multi-device context is observed by the migrations out of its device.
  Ref<Event> commandEvent;
  // The poison error model tracks every command (error_model.h).
  if (event || blocking || command.onComplete || writesBuffers(command) || context().poisonErrorModel())
    commandEvent = createCommandEvent(*this, command.type);
  cl_int code;
  {
    SchedulerGuard guard;
    if (command.bufferUses.empty())
      code = submitCommand(*this, command, waits, commandEvent, guard);
    else
      code = submitWithMigrations(*this, command, waits, commandEvent, guard);
  }
  if (code != CL_SUCCESS)
    return code;
  if (event) {
    commandEvent->retain(); // the application's reference
    *event = commandEvent->handle();
  }
  if (blocking) {
    cl_int status = waitForEvent(*commandEvent);
    if (status < 0)
      return status;
  }
  return CL_SUCCESS;
}

namespace {

constexpr cl_command_queue_properties kHostQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
constexpr cl_command_queue_properties kDeviceQueueProperties = CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

cl_command_queue fail(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
  return nullptr;
}

/// Shared by both creation entry points once the properties are known.
/// `deviceQueuesAllowed`: the 2.0+ entry point knows CL_QUEUE_ON_DEVICE.
cl_command_queue createQueue(cl_context contextHandle, cl_device_id deviceHandle,
                             cl_command_queue_properties properties, std::vector<cl_queue_properties> array,
                             bool deviceQueuesAllowed, bool sizeGiven, cl_int *errcodeRet) {
  Context *context = Context::fromHandle(contextHandle);
  if (!context)
    return fail(errcodeRet, CL_INVALID_CONTEXT);
  Device *device = Device::fromHandle(deviceHandle);
  if (!device || !context->hasDevice(device))
    return fail(errcodeRet, CL_INVALID_DEVICE);

  const cl_command_queue_properties known = kHostQueueProperties | (deviceQueuesAllowed ? kDeviceQueueProperties : 0);
  if (properties & ~known)
    return fail(errcodeRet, CL_INVALID_VALUE);
  if (properties & kDeviceQueueProperties) {
    // Valid combinations are refused as unsupported: no device has
    // device-side enqueue.
    if (!(properties & CL_QUEUE_ON_DEVICE) || !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
      return fail(errcodeRet, CL_INVALID_VALUE);
    return fail(errcodeRet, CL_INVALID_QUEUE_PROPERTIES);
  }
  if (sizeGiven)
    return fail(errcodeRet, CL_INVALID_VALUE); // CL_QUEUE_SIZE needs CL_QUEUE_ON_DEVICE

  auto impl = std::make_unique<CommandQueue::Impl>();
  impl->context = context;
  impl->contextOwner = Ref<Context>(context);
  impl->device = device;
  impl->properties = properties;
  impl->propertiesArray = std::move(array);
  auto *queue = new CommandQueue(std::move(impl));
  if (errcodeRet)
    *errcodeRet = CL_SUCCESS;
  return queue->handle();
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties properties,
                                                               cl_int *errcode_ret) {
  return createQueue(context, device, properties, {}, /*deviceQueuesAllowed=*/false, /*sizeGiven=*/false, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                             const cl_queue_properties *properties,
                                                                             cl_int *errcode_ret) {
  cl_command_queue_properties bits = 0;
  bool bitsGiven = false;
  bool sizeGiven = false;
  std::vector<cl_queue_properties> array;
  if (properties) {
    const cl_queue_properties *p = properties;
    for (; *p; p += 2) {
      switch (p[0]) {
      case CL_QUEUE_PROPERTIES:
        if (bitsGiven)
          return fail(errcode_ret, CL_INVALID_VALUE);
        bitsGiven = true;
        bits = static_cast<cl_command_queue_properties>(p[1]);
        break;
      case CL_QUEUE_SIZE:
        if (sizeGiven)
          return fail(errcode_ret, CL_INVALID_VALUE);
        sizeGiven = true;
        break;
      default:
        // Priority and throttle hints (cl_khr_priority_hints, ...) are not
        // supported.
        if (!Context::fromHandle(context))
          return fail(errcode_ret, CL_INVALID_CONTEXT);
        return fail(errcode_ret, CL_INVALID_VALUE);
      }
    }
    array.assign(properties, p + 1);
  }
  return createQueue(context, device, bits, std::move(array), /*deviceQueuesAllowed=*/true, sizeGiven, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue handle) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  queue->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue handle) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  {
    // Implicit flush. Batches in flight hold the queue until they complete.
    SchedulerGuard guard;
    flushQueue(*queue, guard);
  }
  queue->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue handle, cl_command_queue_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  switch (param_name) {
  case CL_QUEUE_CONTEXT:
    return writeInfo(param_value_size, param_value, param_value_size_ret, queue->context().handle());
  case CL_QUEUE_DEVICE:
    return writeInfo(param_value_size, param_value, param_value_size_ret, queue->device().handle());
  case CL_QUEUE_REFERENCE_COUNT:
    return writeInfo(param_value_size, param_value, param_value_size_ret, static_cast<cl_uint>(queue->refCount()));
  case CL_QUEUE_PROPERTIES:
    return writeInfo(param_value_size, param_value, param_value_size_ret, queue->properties());
  case CL_QUEUE_PROPERTIES_ARRAY:
    return writeInfoArray(param_value_size, param_value, param_value_size_ret,
                          std::span<const cl_queue_properties>(queue->impl().propertiesArray));
  case CL_QUEUE_SIZE:
    // Only device queues have a size, and there are none.
    return CL_INVALID_COMMAND_QUEUE;
  case CL_QUEUE_DEVICE_DEFAULT:
    return writeInfo(param_value_size, param_value, param_value_size_ret, cl_command_queue{nullptr});
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue handle, cl_command_queue_properties, cl_bool,
                                                          cl_command_queue_properties *) {
  if (!CommandQueue::fromHandle(handle))
    return CL_INVALID_COMMAND_QUEUE;
  // Deprecated in OpenCL 1.1; properties are fixed at creation.
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue handle) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  SchedulerGuard guard;
  flushQueue(*queue, guard);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue handle) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  finishQueue(*queue);
  waitForDueCallbacks(*queue);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue handle, cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list, cl_event *event) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  Command command;
  command.type = CL_COMMAND_MARKER;
  command.waitsForAllPrevious = num_events_in_wait_list == 0;
  return queue->enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue handle, cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list, cl_event *event) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  Command command;
  command.type = CL_COMMAND_BARRIER;
  command.waitsForAllPrevious = num_events_in_wait_list == 0;
  command.blocksLaterCommands = true;
  return queue->enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue handle, cl_event *event) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  if (!event)
    return CL_INVALID_VALUE;
  Command command;
  command.type = CL_COMMAND_MARKER;
  command.waitsForAllPrevious = true;
  return queue->enqueue(std::move(command), 0, nullptr, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue handle) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  Command command;
  command.type = CL_COMMAND_BARRIER;
  command.waitsForAllPrevious = true;
  command.blocksLaterCommands = true;
  return queue->enqueue(std::move(command), 0, nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue handle, cl_uint num_events,
                                                       const cl_event *event_list) {
  CommandQueue *queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  if (num_events == 0 || !event_list)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event *event = Event::fromHandle(event_list[i]);
    if (!event)
      return CL_INVALID_EVENT;
    if (&event->context() != &queue->context())
      return CL_INVALID_CONTEXT;
  }
  // A barrier on the listed events: later commands wait for them.
  Command command;
  command.type = CL_COMMAND_BARRIER;
  command.blocksLaterCommands = true;
  return queue->enqueue(std::move(command), num_events, event_list, nullptr);
}

} // extern "C"
