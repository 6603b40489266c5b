// The state behind an Event (private to the OpenCL layer's queue and event
// code): status lifecycle, callbacks, profiling timestamps, and the batch
// that holds the event's command until it completes.
#pragma once

#include "callback_drain.h"
#include "context.h"
#include "error_model.h"
#include "event.h"
#include "kernel_exit.h"
#include "queue.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace polymux::cl {

struct Batch;

using EventCallbackFn = void(CL_CALLBACK *)(cl_event event, cl_int status, void *userData);

/// A callback taken out of an event, to be run once no lock is held (the
/// application may call OpenCL from it).
struct DueCallback {
  Ref<Event> event;
  EventCallbackFn fn = nullptr;
  void *userData = nullptr;
  cl_int status = 0;
  DueCallbackToken token; ///< counts it as due until it is destroyed
};
using DueCallbacks = llvm::SmallVector<DueCallback, 2>;

struct Event::Impl {
  Impl(Context &context, CommandQueue *queue, cl_command_type type);

  Ref<Context> context;
  Ref<CommandQueue> queue; ///< null for user events
  cl_command_type type;
  bool profiling = false;     ///< command of a CL_QUEUE_PROFILING_ENABLE queue
  bool userStatusSet = false; ///< user events: clSetUserEventStatus was called

  /// CL_QUEUED → CL_SUBMITTED → CL_RUNNING → CL_COMPLETE, or negative. Only
  /// ever decreases; written under `mutex`, read without it.
  std::atomic<cl_int> status{CL_QUEUED};
  std::mutex mutex;
  std::condition_variable changed;
  struct Callback {
    cl_int onStatus;
    EventCallbackFn fn;
    void *userData;
  };
  llvm::SmallVector<Callback, 1> callbacks; ///< not yet called
  /// Callbacks taken out of `callbacks` that have not returned yet
  /// (callback_drain.h).
  std::atomic<uint32_t> callbacksDue{0};

  // Profiling, in ns on the device clock. start/end are valid once
  // timestampsValid is set (at completion, on profiling queues only).
  uint64_t queuedNs = 0;
  uint64_t submitNs = 0;
  uint64_t startNs = 0;
  uint64_t endNs = 0;
  std::atomic<bool> timestampsValid{false};
  /// mux::Outcome::instructionsRetired of the command, written before its
  /// status is published (cl_polymux_instruction_counters).
  uint64_t instructionsRetired = 0;
  /// Kernel commands: how the kernel ended (cl_polymux_kernel_exit), its
  /// status written before the event's status is published.
  std::optional<KernelExitState> kernelExit;

  // Under the scheduler lock (batch.h).
  std::shared_ptr<Batch> batch; ///< batch holding the command, until it completes
  uint32_t commandIndex = 0;    ///< index in the batch (query pool slots 2i, 2i+1)

  /// Wait-list events not complete when the command was enqueued: ordered
  /// before it by the batch or a semaphore, they may still fail at run
  /// time, which then fails this command's event too.
  llvm::SmallVector<Ref<Event>, 1> runtimeWaits;
  /// Command::onComplete, run on the device timeline after the command.
  std::function<void()> onComplete;
  /// Profiling queues publish completion only once the batch's timestamps can
  /// be read: the command's result waits here until then (CL_QUEUED: unknown).
  std::atomic<cl_int> commandResult{CL_QUEUED};
  /// Commands of poison error model contexts (error_model.h), else null.
  std::unique_ptr<ErrorModelState> errorModel;
};

/// A new event for a command enqueued on `queue` (CL_QUEUED).
Ref<Event> createCommandEvent(CommandQueue &queue, cl_command_type type);

/// Moves `event` to `status` if that is further along, waking waiters. The
/// callbacks now due are appended to `due`.
void advanceEventStatus(Event &event, cl_int status, DueCallbacks &due);
/// Runs due callbacks now; on a thread holding the scheduler lock, once it
/// is released; on a device's timeline (DeviceTimelineScope), on the
/// callback thread.
void runDueCallbacks(DueCallbacks &due);
/// advanceEventStatus + runDueCallbacks.
void setEventStatus(Event &event, cl_int status);

/// Flushes what `event` needs to make progress, waits until it completes or
/// fails, and returns its final status.
cl_int waitForEvent(Event &event);

} // namespace polymux::cl
