// cl_khr_command_buffer: a CommandBufferObject records commands once, into
// a mux command buffer on its queue's device, and clEnqueueCommandBufferKHR
// dispatches that mux command buffer (Command::prerecorded), chained into the
// queue's batches like any other command.
//
// A mux command buffer is never dispatched again before its previous dispatch
// has completed (the HAL does not promise that to work): an enqueue while
// every instance of the command buffer is still in flight records one more
// (Instance). Mutable-dispatch updates drop the instances in flight, which
// finish with the commands they were enqueued with.
//
// A mux command buffer runs its commands in recording order, each complete
// before the next starts, so every sync-point dependency is met by the order
// alone: sync points are validated, then need no work.
#pragma once

#include "command.h"
#include "command_builders.h"
#include "object.h"
#include "queue.h"

#include "CL/cl_khr_command_buffer_next.h"
#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

namespace polymux::cl {

class MutableCommand;

class CommandBufferObject final : public Object<_cl_command_buffer_khr, ObjectKind::CommandBuffer> {
public:
  static CommandBufferObject *fromHandle(cl_command_buffer_khr handle) {
    return Object::fromHandle<CommandBufferObject>(handle);
  }

  CommandBufferObject(CommandQueue &queue, std::unique_ptr<mux::CommandBuffer> commands,
                      std::vector<cl_command_buffer_properties_khr> properties, cl_command_buffer_flags_khr flags);
  ~CommandBufferObject() override;

  CommandQueue &queue() const { return *queue_; }
  cl_command_buffer_flags_khr flags() const { return flags_; }
  const std::vector<cl_command_buffer_properties_khr> &properties() const { return properties_; }
  cl_command_buffer_state_khr state() const;
  bool mutableDispatch() const { return flags_ & CL_COMMAND_BUFFER_MUTABLE_KHR; }
  /// CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR, for every launch in it.
  cl_mutable_dispatch_asserts_khr mutableDispatchAsserts() const { return asserts_; }

  /// Checks a command's sync-point wait list against the commands recorded
  /// so far (CL_INVALID_SYNC_POINT_WAIT_LIST_KHR).
  cl_int checkSyncPoints(cl_uint count, const cl_sync_point_khr *syncPoints) const;
  /// Records `command` (under mutex()); returns its sync point through
  /// `syncPoint` (may be null). With `handle`, it receives the command's
  /// mutable handle.
  cl_int record(Command &&command, cl_sync_point_khr *syncPoint, MutableCommand **handle = nullptr);
  /// Records a mutable kernel launch whose kernel arguments are not all set
  /// yet: it records nothing until an update sets them, and the command
  /// buffer cannot be enqueued until then (CL_COMMAND_BUFFER_STATE_FINALIZED_KHR).
  cl_int recordDeferred(cl_sync_point_khr *syncPoint, MutableCommand **handle);
  /// clFinalizeCommandBufferKHR.
  cl_int finalize();
  /// clEnqueueCommandBufferKHR on `queue` (the creation queue or one that
  /// may stand in for it).
  cl_int enqueue(CommandQueue &queue, cl_uint numEventsInWaitList, const cl_event *eventWaitList, cl_event *event);

  /// cl_khr_command_buffer_mutable_dispatch: replaces kernel launches and
  /// records the command buffer again (under mutex(), finalized). Enqueues in
  /// flight keep what they were enqueued with.
  struct LaunchUpdate;
  cl_int updateLaunches(std::vector<LaunchUpdate> &updates);
  /// Held while recording into, updating or enqueueing the command buffer.
  std::mutex &mutex() const { return mutex_; }
  /// Under mutex().
  bool finalized() const { return finalized_; }

private:
  /// One mux command buffer with every recorded command, and the enqueue
  /// that runs it now (its event and first failure). Shared with that
  /// enqueue's Command, which marks it idle again when the batch running it
  /// lets go of its resources (after completion) or is dropped unrun.
  struct Instance {
    std::unique_ptr<mux::CommandBuffer> commands;
    PrerecordedRun run;
    std::atomic<bool> busy{false};
  };
  /// Records every command into `instance` again and finalizes it.
  cl_int rerecord(Instance &instance);
  llvm::Error recordOne(Instance &instance, size_t index);
  /// Records the end marker that completes the run's event, then finalizes.
  static llvm::Error finishRecording(Instance &instance);
  /// Claims an idle instance (busy), or records a new one when all are in
  /// flight.
  cl_int claimInstance(std::shared_ptr<Instance> &claimed);
  /// Whether a mutable launch still waits for kernel arguments.
  bool hasDeferred() const;

  Ref<CommandQueue> queue_;
  std::vector<cl_command_buffer_properties_khr> properties_;
  cl_command_buffer_flags_khr flags_;
  cl_mutable_dispatch_asserts_khr asserts_ = 0;

  mutable std::mutex mutex_;
  bool finalized_ = false;
  /// Every instance holds the recorded commands as they are now; the first
  /// is recorded into while the command buffer is recording.
  std::vector<std::shared_ptr<Instance>> instances_;

  /// One recorded command: how to record it, and what every enqueue of the
  /// command buffer must keep alive and track for it (Command's fields).
  struct Recorded {
    cl_command_type type = 0;
    bool deferred = false; ///< a launch waiting for its kernel arguments
    std::function<llvm::Error(mux::CommandBuffer &)> record;
    std::vector<Ref<ObjectBase>> keepAlive;
    std::vector<std::shared_ptr<void>> resources;
    llvm::SmallVector<BufferUse, 2> bufferUses;
    llvm::SmallVector<MemoryUse, 2> memoryUses;
    llvm::SmallVector<KernelBufferArg, 2> kernelBufferArgs;
  };
  static Recorded recordedFrom(Command &&command);
  cl_int append(Recorded recorded, cl_sync_point_khr *syncPoint, MutableCommand **handle);

  std::vector<Recorded> recorded_;
  std::vector<std::unique_ptr<MutableCommand>> mutableCommands_;
};

/// The checks every recording entry point shares, then `build` with a sink
/// that records into the command buffer. Only kernel launches have
/// properties and mutable handles, and they check theirs themselves
/// (recordKernelCommand), passing null for both here.
template <class Build>
cl_int recordCommand(cl_command_buffer_khr handle, cl_command_queue queue, const cl_command_properties_khr *properties,
                     cl_uint numSyncPoints, const cl_sync_point_khr *syncPointWaitList, cl_sync_point_khr *syncPoint,
                     cl_mutable_command_khr *mutableHandle, Build build) try {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(handle);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  // A command queue other than the command buffer's needs
  // cl_khr_command_buffer_multi_device, which is not offered.
  if (queue)
    return CL_INVALID_COMMAND_QUEUE;
  std::lock_guard lock(commandBuffer->mutex());
  if (commandBuffer->finalized())
    return CL_INVALID_OPERATION;
  if (cl_int code = commandBuffer->checkSyncPoints(numSyncPoints, syncPointWaitList))
    return code;
  // No command but a kernel launch has properties, or a mutable handle.
  if ((properties && properties[0] != 0) || mutableHandle)
    return CL_INVALID_VALUE;
  return build(*commandBuffer, commandBuffer->queue().handle(),
               [&](CommandQueue &, Command &&command) { return commandBuffer->record(std::move(command), syncPoint); });
} catch (const std::bad_alloc &) {
  return CL_OUT_OF_HOST_MEMORY;
}

/// A kernel launch of a mutable command built again with new arguments or
/// sizes, waiting to replace it.
struct CommandBufferObject::LaunchUpdate {
  MutableCommand *command = nullptr;
  Command built; ///< what to keep alive and track; its `record` is replaced
  KernelLaunch launch;
  bool deferred = false; ///< kernel arguments still missing: nothing built
};

/// The kernel capabilities a mutable-dispatch device offers (device.cpp
/// reports them; recording and updating check against them): exec info
/// (whose parameters are all SVM's) where the device has SVM.
cl_mutable_dispatch_fields_khr mutableDispatchCapabilities(const Device &device);

/// clCommandNDRangeKernelKHR once the command buffer is known to be
/// recording (under its mutex): the properties, the mutable handle, then
/// clEnqueueNDRangeKernel's checks.
cl_int recordKernelCommand(CommandBufferObject &commandBuffer, cl_command_queue queue,
                           const cl_command_properties_khr *properties, cl_kernel kernel, cl_uint workDim,
                           const size_t *globalWorkOffset, const size_t *globalWorkSize, const size_t *localWorkSize,
                           cl_sync_point_khr *syncPoint, cl_mutable_command_khr *mutableHandle);

} // namespace polymux::cl
