// cl_khr_command_buffer: the CommandBufferObject and the entry points that
// create, finalize, enqueue, query and release it (command_buffer.h). The
// clCommand*KHR recording entry points are in command_buffer_commands.cpp.
#include "command_buffer.h"

#include "batch.h"
#include "context.h"
#include "device.h"
#include "info.h"
#include "kernel.h"
#include "mutable_command.h"
#include "svm_allocations.h"

#include <algorithm>
#include <new>

namespace polymux::cl {

CommandBufferObject::CommandBufferObject(CommandQueue &queue, std::unique_ptr<mux::CommandBuffer> commands,
                                         std::vector<cl_command_buffer_properties_khr> properties,
                                         cl_command_buffer_flags_khr flags)
    : queue_(&queue), properties_(std::move(properties)), flags_(flags) {
  for (size_t i = 0; i + 1 < properties_.size(); i += 2)
    if (properties_[i] == CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR)
      asserts_ = properties_[i + 1];
  instances_.push_back(std::make_shared<Instance>());
  instances_.back()->commands = std::move(commands);
}

CommandBufferObject::~CommandBufferObject() = default;

bool CommandBufferObject::hasDeferred() const {
  return std::any_of(recorded_.begin(), recorded_.end(), [](const Recorded &recorded) { return recorded.deferred; });
}

cl_command_buffer_state_khr CommandBufferObject::state() const {
  std::lock_guard lock(mutex_);
  if (!finalized_)
    return CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
  return hasDeferred() ? CL_COMMAND_BUFFER_STATE_FINALIZED_KHR : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
}

cl_int CommandBufferObject::checkSyncPoints(cl_uint count, const cl_sync_point_khr *syncPoints) const {
  if ((count > 0) != (syncPoints != nullptr))
    return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
  // Sync points are 1 + the index of the command that returned them.
  for (cl_uint i = 0; i < count; ++i)
    if (syncPoints[i] == 0 || syncPoints[i] > recorded_.size())
      return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
  return CL_SUCCESS;
}

llvm::Error CommandBufferObject::recordOne(Instance &instance, size_t index) {
  const Recorded &command = recorded_[index];
  // A deferred launch cannot run yet (nor can the command buffer).
  if (command.deferred || !command.record)
    return llvm::Error::success();
  if (auto error = command.record(*instance.commands))
    return error;
  if (command.type != CL_COMMAND_NDRANGE_KERNEL)
    return llvm::Error::success();
  // Nobody observes the kernel, but a fault in it is still reported. The
  // context outlives the command buffer (its queue holds it).
  const Context *context = &queue_->context();
  return instance.commands->markCommandEnd([context, run = &instance.run](const mux::Outcome &outcome) {
    if (outcome.status == mux::Status::Success)
      return;
    context->notify(outcome.detail.empty() ? std::string("Polymux: a kernel in a command buffer failed: ") +
                                                 mux::statusName(outcome.status)
                                           : "Polymux: " + outcome.detail);
    std::lock_guard lock(run->mutex);
    if (!run->firstFailure)
      run->firstFailure = outcome;
  });
}

CommandBufferObject::Recorded CommandBufferObject::recordedFrom(Command &&command) {
  Recorded recorded;
  recorded.type = command.type;
  recorded.record = std::move(command.record);
  recorded.keepAlive = std::move(command.keepAlive);
  recorded.resources = std::move(command.resources);
  recorded.bufferUses = std::move(command.bufferUses);
  recorded.memoryUses = std::move(command.memoryUses);
  recorded.kernelBufferArgs = std::move(command.kernelBufferArgs);
  return recorded;
}

cl_int CommandBufferObject::append(Recorded recorded, cl_sync_point_khr *syncPoint, MutableCommand **handle) {
  // Called with mutex_ held, while recording: one instance.
  recorded_.push_back(std::move(recorded));
  if (cl_int code = clErrorFromError(recordOne(*instances_.front(), recorded_.size() - 1))) {
    recorded_.pop_back();
    return code;
  }
  if (handle) {
    mutableCommands_.push_back(std::make_unique<MutableCommand>(*this, recorded_.size() - 1));
    *handle = mutableCommands_.back().get();
  }
  if (syncPoint)
    *syncPoint = static_cast<cl_sync_point_khr>(recorded_.size());
  return CL_SUCCESS;
}

cl_int CommandBufferObject::record(Command &&command, cl_sync_point_khr *syncPoint, MutableCommand **handle) {
  return append(recordedFrom(std::move(command)), syncPoint, handle);
}

cl_int CommandBufferObject::recordDeferred(cl_sync_point_khr *syncPoint, MutableCommand **handle) {
  Recorded recorded;
  recorded.type = CL_COMMAND_NDRANGE_KERNEL;
  recorded.deferred = true;
  return append(std::move(recorded), syncPoint, handle);
}

cl_int CommandBufferObject::finalize() {
  std::lock_guard lock(mutex_);
  if (finalized_)
    return CL_INVALID_OPERATION;
  if (cl_int code = clErrorFromError(finishRecording(*instances_.front())))
    return code;
  finalized_ = true;
  return CL_SUCCESS;
}

llvm::Error CommandBufferObject::finishRecording(Instance &instance) {
  // Completes the enqueue's event on the device timeline, as the end marker
  // of a command in a batch does, rather than at the dispatch's completion.
  if (auto error = instance.commands->markCommandEnd(
          [run = &instance.run](const mux::Outcome &outcome) { finishPrerecordedRun(*run, outcome); }))
    return error;
  return instance.commands->finalize();
}

cl_int CommandBufferObject::rerecord(Instance &instance) {
  instance.commands->reset();
  for (size_t i = 0; i < recorded_.size(); ++i)
    if (cl_int code = clErrorFromError(recordOne(instance, i)))
      return code;
  return clErrorFromError(finishRecording(instance));
}

cl_int CommandBufferObject::claimInstance(std::shared_ptr<Instance> &claimed) {
  // Called with mutex_ held, so an idle instance stays idle until claimed
  // here; only the end of an enqueue marks one idle.
  for (const std::shared_ptr<Instance> &instance : instances_) {
    bool idle = false;
    if (instance->busy.compare_exchange_strong(idle, true, std::memory_order_acq_rel)) {
      claimed = instance;
      // A burst of overlapping enqueues left more instances than a steady
      // pipeline needs: a few idle ones are kept, the others freed.
      constexpr size_t kSpareInstances = 2;
      size_t spare = 0;
      std::erase_if(instances_, [&](const std::shared_ptr<Instance> &other) {
        return !other->busy.load(std::memory_order_acquire) && ++spare > kSpareInstances;
      });
      return CL_SUCCESS;
    }
  }
  auto commands = queue_->device().mux().createCommandBuffer();
  if (!commands) {
    llvm::consumeError(commands.takeError());
    return CL_OUT_OF_RESOURCES;
  }
  auto instance = std::make_shared<Instance>();
  instance->commands = std::move(*commands);
  instance->busy.store(true, std::memory_order_relaxed);
  if (cl_int code = rerecord(*instance))
    return code;
  instances_.push_back(instance);
  claimed = std::move(instance);
  return CL_SUCCESS;
}

cl_int CommandBufferObject::enqueue(CommandQueue &queue, cl_uint numEventsInWaitList, const cl_event *eventWaitList,
                                    cl_event *event) {
  Command command;
  {
    std::lock_guard lock(mutex_);
    // A mutable launch still waiting for its kernel arguments is the
    // Finalized state, not Executable.
    if (!finalized_ || hasDeferred())
      return CL_INVALID_OPERATION;
    std::shared_ptr<Instance> instance;
    if (cl_int code = claimInstance(instance))
      return code;
    command.type = CL_COMMAND_COMMAND_BUFFER_KHR;
    command.prerecorded = instance->commands.get();
    command.prerecordedRun = &instance->run;
    command.keepAlive.emplace_back(this);
    for (const Recorded &recorded : recorded_) {
      command.keepAlive.insert(command.keepAlive.end(), recorded.keepAlive.begin(), recorded.keepAlive.end());
      command.resources.insert(command.resources.end(), recorded.resources.begin(), recorded.resources.end());
      command.bufferUses.append(recorded.bufferUses.begin(), recorded.bufferUses.end());
      command.memoryUses.append(recorded.memoryUses.begin(), recorded.memoryUses.end());
      command.kernelBufferArgs.append(recorded.kernelBufferArgs.begin(), recorded.kernelBufferArgs.end());
    }
    // The instance is the enqueue's until the batch that runs it lets go of
    // its resources (at completion), or the command is dropped without
    // running; an update meanwhile leaves it out of instances_.
    command.resources.push_back(std::shared_ptr<void>(
        instance.get(), [instance](void *) { instance->busy.store(false, std::memory_order_release); }));
  }
  return queue.enqueue(std::move(command), numEventsInWaitList, eventWaitList, event);
}

cl_int CommandBufferObject::updateLaunches(std::vector<LaunchUpdate> &updates) {
  for (LaunchUpdate &update : updates) {
    if (update.deferred) {
      Recorded deferred;
      deferred.type = CL_COMMAND_NDRANGE_KERNEL;
      deferred.deferred = true;
      recorded_[update.command->index()] = std::move(deferred);
      continue;
    }
    update.built.record = [launch = std::move(update.launch)](mux::CommandBuffer &commandBuffer) {
      return recordKernelLaunch(commandBuffer, launch);
    };
    recorded_[update.command->index()] = recordedFrom(std::move(update.built));
  }
  // Instances in flight finish with the commands they were enqueued with;
  // they are gone from instances_ and freed when their enqueue lets go.
  // One idle instance is recorded again now, so that errors show here.
  std::shared_ptr<Instance> kept;
  for (const std::shared_ptr<Instance> &instance : instances_) {
    bool idle = false;
    if (instance->busy.compare_exchange_strong(idle, true, std::memory_order_acq_rel)) {
      kept = instance;
      break;
    }
  }
  instances_.clear();
  if (!kept) {
    auto commands = queue_->device().mux().createCommandBuffer();
    if (!commands) {
      llvm::consumeError(commands.takeError());
      return CL_OUT_OF_RESOURCES;
    }
    kept = std::make_shared<Instance>();
    kept->commands = std::move(*commands);
  }
  cl_int code = rerecord(*kept);
  kept->busy.store(false, std::memory_order_release);
  if (code == CL_SUCCESS)
    instances_.push_back(std::move(kept));
  return code;
}

cl_mutable_dispatch_fields_khr mutableDispatchCapabilities(const Device &device) {
  return CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
         CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
         (supportsSvm(device) ? CL_MUTABLE_DISPATCH_EXEC_INFO_KHR : 0);
}

namespace {

cl_command_buffer_khr fail(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
  return nullptr;
}

/// The flags a device's command buffers accept. Every enqueue may overlap
/// the ones before it (cl_khr_command_buffer 0.9.8), so simultaneous use,
/// which mutable dispatch 0.9.5 makes a flag of its own, needs no work.
cl_command_buffer_flags_khr supportedFlags(const Device &device) {
  return device.hasExtension("cl_khr_command_buffer_mutable_dispatch")
             ? CL_COMMAND_BUFFER_MUTABLE_KHR | CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
             : 0;
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_command_buffer_khr CL_API_CALL
clCreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue *queues,
                         const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret) try {
  // One queue: cl_khr_command_buffer_multi_device is not offered.
  if (num_queues != 1 || !queues)
    return fail(errcode_ret, CL_INVALID_VALUE);
  CommandQueue *queue = CommandQueue::fromHandle(queues[0]);
  if (!queue)
    return fail(errcode_ret, CL_INVALID_COMMAND_QUEUE);
  Device &device = queue->device();
  if (!device.hasExtension("cl_khr_command_buffer"))
    return fail(errcode_ret, CL_INVALID_COMMAND_QUEUE);

  std::vector<cl_command_buffer_properties_khr> array;
  cl_command_buffer_flags_khr flags = 0;
  if (properties) {
    bool flagsSeen = false, assertsSeen = false;
    const bool mutableDispatch = device.hasExtension("cl_khr_command_buffer_mutable_dispatch");
    for (const cl_command_buffer_properties_khr *p = properties; *p; p += 2) {
      if (p[0] == CL_COMMAND_BUFFER_FLAGS_KHR && !flagsSeen) {
        flagsSeen = true;
        flags = p[1];
      } else if (p[0] == CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR && mutableDispatch && !assertsSeen) {
        // A promise of the application's about its updates that needs
        // nothing of Polymux.
        if (p[1] & ~cl_command_buffer_properties_khr(CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR))
          return fail(errcode_ret, CL_INVALID_VALUE);
        assertsSeen = true;
      } else {
        return fail(errcode_ret, CL_INVALID_VALUE);
      }
      array.insert(array.end(), {p[0], p[1]});
    }
    array.push_back(0);
    const cl_command_buffer_flags_khr known = CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR | CL_COMMAND_BUFFER_MUTABLE_KHR;
    if (flags & ~known)
      return fail(errcode_ret, CL_INVALID_VALUE);
    if (flags & ~supportedFlags(device))
      return fail(errcode_ret, CL_INVALID_PROPERTY);
  }
  // Every queue property the device has is supported (an out-of-order
  // queue runs the command buffer's commands in their recording order).

  auto commands = device.mux().createCommandBuffer();
  if (!commands) {
    llvm::consumeError(commands.takeError());
    return fail(errcode_ret, CL_OUT_OF_RESOURCES);
  }
  auto *commandBuffer = new CommandBufferObject(*queue, std::move(*commands), std::move(array), flags);
  if (errcode_ret)
    *errcode_ret = CL_SUCCESS;
  return commandBuffer->handle();
} catch (const std::bad_alloc &) {
  return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
}

CL_API_ENTRY cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer) try {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(command_buffer);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  return commandBuffer->finalize();
} catch (const std::bad_alloc &) {
  return CL_OUT_OF_HOST_MEMORY;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(command_buffer);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  commandBuffer->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(command_buffer);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  // An enqueue in flight holds its own reference until it completes.
  commandBuffer->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues,
                                                          cl_command_buffer_khr command_buffer,
                                                          cl_uint num_events_in_wait_list,
                                                          const cl_event *event_wait_list, cl_event *event) try {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(command_buffer);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  if ((num_queues > 0) != (queues != nullptr) || num_queues > 1)
    return CL_INVALID_VALUE;
  CommandQueue *queue = &commandBuffer->queue();
  if (queues) {
    // Another queue may stand in for the creation queue: the recorded mux
    // command buffer belongs to the device, so it must be the same device.
    // Its properties may differ (revision 0.9.8): every queue property of
    // the device is supported, none required, and the commands run in
    // recording order on in-order and out-of-order queues alike.
    queue = CommandQueue::fromHandle(queues[0]);
    if (!queue)
      return CL_INVALID_COMMAND_QUEUE;
    if (&queue->context() != &commandBuffer->queue().context())
      return CL_INVALID_CONTEXT;
    if (&queue->device() != &commandBuffer->queue().device())
      return CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
  }
  return commandBuffer->enqueue(*queue, num_events_in_wait_list, event_wait_list, event);
} catch (const std::bad_alloc &) {
  return CL_OUT_OF_HOST_MEMORY;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                                                          cl_command_buffer_info_khr param_name,
                                                          size_t param_value_size, void *param_value,
                                                          size_t *param_value_size_ret) try {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(command_buffer);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  switch (param_name) {
  case CL_COMMAND_BUFFER_QUEUES_KHR:
    return writeInfo(param_value_size, param_value, param_value_size_ret,
                     static_cast<cl_command_queue>(commandBuffer->queue().handle()));
  case CL_COMMAND_BUFFER_CONTEXT_KHR:
    return writeInfo(param_value_size, param_value, param_value_size_ret,
                     static_cast<cl_context>(commandBuffer->queue().context().handle()));
  case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
    return writeInfo(param_value_size, param_value, param_value_size_ret, cl_uint{1});
  case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
    return writeInfo(param_value_size, param_value, param_value_size_ret,
                     static_cast<cl_uint>(commandBuffer->refCount()));
  case CL_COMMAND_BUFFER_STATE_KHR:
    return writeInfo(param_value_size, param_value, param_value_size_ret, commandBuffer->state());
  case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR: {
    const auto &array = commandBuffer->properties();
    return writeInfoBytes(param_value_size, param_value, param_value_size_ret, array.data(),
                          array.size() * sizeof(cl_command_buffer_properties_khr));
  }
  default:
    return CL_INVALID_VALUE;
  }
} catch (const std::bad_alloc &) {
  return CL_OUT_OF_HOST_MEMORY;
}

} // extern "C"
