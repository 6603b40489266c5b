// The batching engine behind CommandQueue (DESIGN.md "OpenCL layer", and the
// ComputeMux mapping): commands are recorded into batches, one mux command
// buffer each, and dispatched on flush with semaphore chaining.
//
// Rules:
// - An in-order queue appends to its open batch; every new batch of the queue
//   waits on the previous one (its semaphore once dispatched).
// - A command whose wait list names an incomplete user event, or a command of
//   another queue's batch that is not dispatched yet, cuts the batch: it goes
//   into a new batch that is held back until those are resolved. A held batch
//   whose wait events fail is not run: its commands fail with
//   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
// - Dependencies on dispatched batches of the same device become semaphore
//   waits (the dependent may still join the open batch: a dispatched batch
//   cannot depend on an undispatched one, so no cycle forms).
// - Out-of-order queues honour only explicit dependencies, barriers, and
//   markers/barriers with empty wait lists (which wait for everything before).
// - Batches are dispatched on flush (clFlush, clFinish, blocking calls, waits,
//   clReleaseCommandQueue) or when they reach kMaxCommandsPerBatch.
//
// All scheduling state of every queue is guarded by one process-wide lock
// (SchedulerGuard): dependencies cross queues, and the critical sections are
// short (recording, not running). Event status and callbacks have their own
// per-event lock and are never called back with the scheduler lock held.
#pragma once

#include "command.h"
#include "event_impl.h"
#include "queue.h"

#include "mux/device.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace polymux::cl {

class Device;

/// Commands per batch before it is dispatched on its own.
constexpr uint32_t kMaxCommandsPerBatch = 256;

struct Batch : std::enable_shared_from_this<Batch> {
  enum class State { Recording, Closed, Dispatched, Complete };

  CommandQueue *queue = nullptr;
  mux::Device *device = nullptr;
  std::unique_ptr<mux::CommandBuffer> commandBuffer;
  /// Set when the batch runs an application's finalized command buffer
  /// (Command::prerecorded): dispatched instead of commandBuffer.
  mux::CommandBuffer *prerecorded = nullptr;
  std::unique_ptr<mux::Semaphore> semaphore; ///< signalled when the dispatch completes
  std::unique_ptr<mux::QueryPool> queryPool; ///< profiling queues: 2 slots per command

  State state = State::Recording;
  bool flushRequested = false;
  uint64_t sequence = 0; ///< creation order within the queue
  uint32_t commandCount = 0;
  cl_int closeError = CL_SUCCESS; ///< finalize() failed

  Ref<CommandQueue> queueRef; ///< held from creation until completion
  /// Batches this one runs after (semaphore waits when dispatched on the same
  /// device; otherwise held until they complete).
  llvm::SmallVector<std::shared_ptr<Batch>, 2> waitBatches;
  /// Wait-list events that held this batch back; if one fails, the batch fails.
  llvm::SmallVector<Ref<Event>, 2> waitEvents;
  /// Poison error model (error_model.h): the batch holds one command, whose
  /// verdict is taken once every event of `gate` has completed; only then
  /// is it dispatched (empty when the command fails).
  bool gated = false;
  llvm::SmallVector<Ref<Event>, 2> gate;
  std::vector<Ref<Event>> events;
  std::vector<Ref<ObjectBase>> keepAlive;
  std::vector<std::shared_ptr<void>> resources; ///< Command::resources of its commands
};

/// Holds the scheduler lock. What must not happen under it (application
/// callbacks, releasing objects whose destruction may call the application)
/// is collected and done when the guard goes away. One per thread at a time.
class SchedulerGuard {
public:
  SchedulerGuard();
  ~SchedulerGuard();
  SchedulerGuard(const SchedulerGuard &) = delete;
  SchedulerGuard &operator=(const SchedulerGuard &) = delete;

  std::unique_lock<std::mutex> &lock() { return lock_; }
  /// The guard this thread holds, if any.
  static SchedulerGuard *current();

  void advance(Event &event, cl_int status) { advanceEventStatus(event, status, callbacks_); }
  void deferCallbacks(DueCallbacks &due);
  template <class T> void release(Ref<T> object) { released_.push_back(Ref<ObjectBase>(object.get())); }
  void release(std::vector<Ref<ObjectBase>> &objects);
  /// A dispatch completed while this thread held the lock (a mux queue that
  /// ran it inline): processed before the lock is released.
  void deferCompletion(std::shared_ptr<Batch> batch, mux::Status status);
  /// A batch of `queue` completed: once the objects it kept alive are
  /// released, clFinish waiters on the queue are woken.
  void completedOn(Ref<CommandQueue> queue);

private:
  std::unique_lock<std::mutex> lock_;
  DueCallbacks callbacks_;
  llvm::SmallVector<Ref<ObjectBase>, 8> released_;
  llvm::SmallVector<std::pair<std::shared_ptr<Batch>, mux::Status>, 1> completions_;
  llvm::SmallVector<Ref<CommandQueue>, 1> completedQueues_;
};

struct CommandQueue::Impl {
  Context *context = nullptr;
  /// Holds `context` for application queues; null for the context's own
  /// transfer queues, which the context holds instead.
  Ref<Context> contextOwner;
  Device *device = nullptr;
  cl_command_queue_properties properties = 0;
  /// CL_QUEUE_PROPERTIES_ARRAY as given (empty for clCreateCommandQueue).
  std::vector<cl_queue_properties> propertiesArray;

  // Under the scheduler lock.
  std::shared_ptr<Batch> open;                 ///< batch new commands join
  std::deque<std::shared_ptr<Batch>> live;     ///< not complete, creation order
  std::shared_ptr<Batch> barrier;              ///< out-of-order: last barrier, until complete
  std::vector<std::shared_ptr<Batch>> retired; ///< completed, for reuse
  uint64_t nextSequence = 1;
  /// Completed batches whose kept-alive objects are still being released:
  /// clFinish returns only after those releases (so a clReleaseMemObject
  /// after clFinish frees the memory at once).
  uint32_t releasing = 0;
  /// live.size() + releasing, readable without the lock (clFinish polls it
  /// briefly before sleeping).
  std::atomic<size_t> busy{0};
  std::condition_variable idle; ///< a batch of this queue completed
  /// Callbacks of this queue's events that are due and have not returned
  /// yet (callback_drain.h).
  std::atomic<uint32_t> callbacksDue{0};
  void updateBusy() { busy.store(live.size() + releasing, std::memory_order_release); }
};

/// Records `command` on `queue` after its dependencies. `event` (may be null)
/// becomes the command's event. Returns the cl error of a failed recording.
cl_int submitCommand(CommandQueue &queue, Command &command, std::span<Event *const> waits, const Ref<Event> &event,
                     SchedulerGuard &guard);
/// Dispatches (or queues for dispatch, once held dependencies resolve)
/// everything enqueued on `queue` so far.
void flushQueue(CommandQueue &queue, SchedulerGuard &guard);
/// Makes sure the batch holding `event`'s command will be dispatched.
void flushForEvent(Event &event, SchedulerGuard &guard);
/// Dispatches every flushed batch whose dependencies are now resolved.
void pumpScheduler(SchedulerGuard &guard);
/// clFinish: flush, then wait until every batch enqueued so far completed.
void finishQueue(CommandQueue &queue);
/// The end marker of a prerecorded command buffer (Command::prerecordedRun),
/// on the device timeline: completes the run's event, if any, with the first
/// failure recorded in `run`, else `last` (the last command's outcome).
void finishPrerecordedRun(PrerecordedRun &run, const mux::Outcome &last);

} // namespace polymux::cl
