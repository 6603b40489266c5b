// cl_polymux_async_error_model (doc/extensions/cl_polymux_async_error_model.md):
// the poison error model of a context created with
// CL_CONTEXT_ERROR_MODEL_POLYMUX = CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX.
// Contexts without it never reach this code.
//
// How it works, for every target alike (nothing here needs the HAL to skip
// recorded work):
// - Every command of such a context has an event, and the event an
//   ErrorModelState: the memory objects the command may write, the root
//   buffers it uses, and its predecessors (its wait list; for markers and
//   barriers with an empty wait list, the queue's commands not complete).
// - A command whose predecessors, or the pending writers of the buffers it
//   uses, are not complete when it is enqueued is *gated*: it gets a batch of
//   its own that the scheduler dispatches only once all of them completed
//   (batch.cpp). Then, or at enqueue when nothing was pending, its verdict is
//   taken: a failed predecessor, or a poisoned buffer it does not overwrite
//   whole, fails it with CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX and its batch is
//   dispatched empty, so its work never runs.
// - When such an event reaches its final status (advanceEventStatus), before
//   the status is published: a failure poisons the root buffers the command
//   may write, a successful whole-buffer write/fill/copy clears them, and the
//   failure farthest up its predecessors is summarised into the event, so the
//   predecessors themselves can be released when its batch completes.
#pragma once

#include "command.h"
#include "event.h"
#include "memory.h"
#include "object.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <span>
#include <vector>

namespace polymux::cl {

class BufferObject;
class CommandQueue;
class Event;
class MemObject;

/// Per root buffer (BufferObject::poison()).
struct PoisonState {
  /// Written when a writer's event settles, read when a command's verdict is
  /// taken (after that writer's status was read with acquire).
  std::atomic<bool> poisoned{false};
  /// Events of commands that may write the buffer and whose batch has not
  /// completed (scheduler lock). Not retained: each removes itself when its
  /// batch completes, and the event holds the buffer until then.
  std::vector<Event *> pendingWriters;
};

/// Event::Impl::errorModel, for commands of poison-model contexts.
struct ErrorModelState {
  struct RootUse {
    BufferObject *root = nullptr;
    bool mayWrite = false;
    /// A successful whole-buffer write, fill or copy destination: its success
    /// clears the poison, and the poison does not fail it.
    bool overwritesWhole = false;
  };
  // Set at enqueue under the scheduler lock, read-only afterwards.
  /// CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX: distinct, as the application
  /// named them. They keep the written roots alive for as long as the event.
  std::vector<Ref<MemObject>> nonConstObjects;
  /// Roots used: those only read are alive until the command's batch
  /// completes (Command::keepAlive), which is as long as they are looked at.
  llvm::SmallVector<RootUse, 2> roots;
  /// Released (scheduler lock) once the event has settled and its batch
  /// completed.
  std::vector<Ref<Event>> predecessors;

  // Written once, when the event settles, before its status is published.
  /// The failed event farthest up the predecessors (null when none failed);
  /// the event itself when it failed is not stored here (no self-reference).
  Ref<Event> upstreamFailure;
  uint32_t upstreamDistance = 0; ///< edges from this event to upstreamFailure
};

/// Fills `event`'s ErrorModelState from `command` and its wait list. Under
/// the scheduler lock, before the command is submitted.
void prepareErrorModelEvent(Event &event, const Command &command, std::span<Event *const> waits, CommandQueue &queue);
/// The events `event`'s verdict has to wait for: its predecessors and the
/// pending writers of every buffer it uses that are not complete yet.
llvm::SmallVector<Ref<Event>, 4> pendingErrorModelDependencies(Event &event);
/// Once those are complete: CL_SUCCESS when the command may run, else
/// CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX.
cl_int errorModelVerdict(Event &event);
/// The command was submitted: later users of the buffers it may write wait
/// for it. retirePendingWriter undoes it when its batch completes (both under
/// the scheduler lock).
void registerPendingWriter(Event &event);
void retirePendingWriter(Event &event);
/// advanceEventStatus, under the event's lock, when the event reaches its
/// final `status` and before it is published: poisons or clears its buffers
/// and summarises the farthest failure.
void settleErrorModelEvent(Event &event, cl_int status);
/// clGetEventInfo(CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX): CL_INVALID_VALUE
/// outside poison-model contexts (the list would have to hold the memory
/// objects, which OpenCL's own model does not).
cl_int errorModelEventInfo(Event &event, cl_event_info param, size_t size, void *value, size_t *sizeRet);

} // namespace polymux::cl
