// A command as the OpenCL layer hands it to a CommandQueue: how to record it
// into a mux::CommandBuffer, plus the objects it must keep alive until it
// completes. Every clEnqueue* entry point validates its arguments, builds a
// Command and calls CommandQueue::enqueue().
#pragma once

#include "kernel_exit.h"
#include "object.h"

#include "mux/command_buffer.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace polymux::cl {

class BufferObject;
class MemObject;

/// How a command treats the bytes of a buffer range it uses.
enum class ContentAccess : uint8_t {
  Read,      ///< needs the latest contents and leaves them unchanged
  Overwrite, ///< replaces every byte of the range without reading it
  Update,    ///< may read and write (kernels, rectangles with gaps)
};

/// A range of a root buffer that a command uses (sub-buffer ranges are
/// expressed in their root). Recorded only in contexts with several devices,
/// where the queue keeps each buffer's per-device copies coherent
/// (coherence.h); the buffer is kept alive through Command::keepAlive.
struct BufferUse {
  BufferObject *root = nullptr;
  uint64_t begin = 0;
  uint64_t end = 0;
  ContentAccess access = ContentAccess::Read;
};

/// A buffer a kernel launch binds to an argument, and whether the
/// application passed it as const (clSetKernelArgConstPOLYMUX): the kernel
/// only reads it, so the launch can never corrupt it.
struct KernelBufferArg {
  MemObject *memory = nullptr;
  bool passedAsConst = false;
};

/// A memory object a command uses, as the application named it (a buffer or
/// a sub-buffer), with the range of its root buffer. Recorded only in
/// contexts of the poison error model (error_model.h); the object is kept
/// alive through Command::keepAlive.
struct MemoryUse {
  MemObject *object = nullptr;
  BufferObject *root = nullptr;
  uint64_t begin = 0;
  uint64_t end = 0;
  ContentAccess access = ContentAccess::Read;
};

class Event;

/// The run of a prerecorded command buffer now on the device (one at a time
/// per mux command buffer: an enqueue while it is in flight runs another,
/// command_buffer.h). The marker the command buffer records after its
/// last command completes `event` with the first failure its kernels
/// reported, like the end marker of a command in a batch.
struct PrerecordedRun {
  std::atomic<Event *> event{nullptr};
  std::mutex mutex;
  std::optional<mux::Outcome> firstFailure; ///< under mutex
};

struct Command {
  cl_command_type type = 0;
  /// Records the command's work. May record nothing (markers, barriers).
  /// Called inside CommandQueue::enqueue(), so it may capture pointers to the
  /// enqueue's arguments; an error fails the enqueue with its cl code.
  std::function<llvm::Error(mux::CommandBuffer &)> record;
  /// Runs on the host once the command has completed successfully, before
  /// its event is set to CL_COMPLETE (e.g. the copy-back of a map).
  std::function<void()> onComplete;
  /// Objects (buffers, kernels, ...) retained until the command completes.
  std::vector<Ref<ObjectBase>> keepAlive;
  /// Host-side resources the recorded work uses (staging buffers),
  /// released when the command's batch completes.
  std::vector<std::shared_ptr<void>> resources;
  /// Markers and barriers with an empty wait list: the command also waits for
  /// every command enqueued before it (only changes out-of-order queues).
  bool waitsForAllPrevious = false;
  /// Barriers: commands enqueued after it wait for it (out-of-order queues).
  bool blocksLaterCommands = false;
  /// The unmap of a CL_MAP_WRITE_INVALIDATE_REGION mapping: the application
  /// promised to write every mapped byte, so the unmap replaces the old
  /// contents like a write (other unmaps carry bytes read at map time).
  bool unmapsInvalidatedRegion = false;
  /// The buffer ranges the command reads or writes; empty in one-device
  /// contexts (see BufferObject::addUse).
  llvm::SmallVector<BufferUse, 2> bufferUses;
  /// Kernel launches: the buffer of every non-NULL buffer argument, in
  /// argument order (kept alive through keepAlive).
  llvm::SmallVector<KernelBufferArg, 4> kernelBufferArgs;
  /// Every memory object the command uses; empty unless the context uses
  /// the poison error model (see BufferObject::addUse).
  llvm::SmallVector<MemoryUse, 2> memoryUses;
  /// Kernel commands: what their event keeps of how the kernel ends.
  std::optional<KernelExitState> kernelExit;
  /// clEnqueueCommandBufferKHR: a finalized mux command buffer that runs as a
  /// dispatch of its own instead of being recorded into a batch (`record` is
  /// then unset). Its owner is kept alive through keepAlive.
  mux::CommandBuffer *prerecorded = nullptr;
  /// With `prerecorded`: where submitCommand leaves the command's event.
  PrerecordedRun *prerecordedRun = nullptr;
};

/// The OpenCL error code for a mux failure, used both as the return value of
/// an entry point and as the negative execution status of a failed command.
/// A kernel that faults (mux::Status::KernelFault) ends with CL_OUT_OF_RESOURCES,
/// the code other drivers report for invalid accesses in kernels.
inline cl_int clErrorFromStatus(mux::Status status) {
  switch (status) {
  case mux::Status::Success:
    return CL_SUCCESS;
  case mux::Status::InvalidArgument:
    return CL_INVALID_VALUE;
  case mux::Status::Unsupported:
    return CL_INVALID_OPERATION;
  case mux::Status::DeviceLost:
    return CL_DEVICE_NOT_AVAILABLE;
  case mux::Status::OutOfMemory:
  case mux::Status::OutOfResources:
  case mux::Status::Timeout:
  case mux::Status::KernelFault:
  case mux::Status::Failure:
    return CL_OUT_OF_RESOURCES;
  }
  return CL_OUT_OF_RESOURCES;
}

/// Consumes `error` (success gives CL_SUCCESS).
inline cl_int clErrorFromError(llvm::Error error) {
  if (!error)
    return CL_SUCCESS;
  return clErrorFromStatus(mux::takeStatus(std::move(error)));
}

} // namespace polymux::cl
