// The batching engine: see batch.h for the rules.
#include "batch.h"

#include "dispatch_gate.h"

#include "callback_thread.h"
#include "completion_poll.h"
#include "device.h"
#include "error_model.h"

#include <algorithm>
#include <atomic>
#include <cassert>

namespace polymux::cl {
namespace {

std::mutex gSchedulerMutex;
thread_local SchedulerGuard *tGuard = nullptr;
/// Flushed batches not dispatched yet, in request order (scheduler lock).
std::vector<Batch *> gPending;
bool gPumping = false;

/// Completed batches kept per queue for reuse. An application that flushes
/// after every command has as many batches in flight as it enqueues ahead
/// (clpeak: 50); a new batch's command buffer and semaphore cost a GPU
/// driver hundreds of µs (NVIDIA's Vulkan driver: about 400 µs together),
/// which such a loop paid per command while only 4 were kept. Batches are
/// kept only up to the most that were in flight at once.
constexpr size_t kMaxRetiredBatches = 64;

template <class T> bool contains(const llvm::SmallVectorImpl<T> &values, const T &value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

void processCompletion(Batch &batch, mux::Status status, SchedulerGuard &guard);
/// Hands a batch that dispatchBatch() let through to the device's queue.
void submitToDevice(Batch &batch, std::span<mux::Semaphore *const> waits, SchedulerGuard &guard);

void onDispatchComplete(Batch &batch, mux::Status status) {
  DeviceTimelineScope timeline;
  if (SchedulerGuard *guard = SchedulerGuard::current()) {
    // The mux queue ran the dispatch inline, inside our dispatch() call.
    guard->deferCompletion(batch.shared_from_this(), status);
    return;
  }
  SchedulerGuard guard;
  processCompletion(batch, status, guard);
}

/// Tells the application's pfn_notify why a command failed on the device:
/// the target's explanation when it gave one (e.g. which kernel faulted and
/// how), else the status.
void notifyDeviceFailure(const Context &context, const mux::Outcome &outcome) {
  if (!outcome.detail.empty())
    context.notify("Polymux: " + outcome.detail);
  else
    context.notify(std::string("Polymux: a command failed on the device: ") + mux::statusName(outcome.status));
}

/// The device-timeline end of a command that has an event.
void commandFinished(Event &event, const mux::Outcome &outcome) {
  auto &impl = event.impl();
  const mux::Status status = outcome.status;
  cl_int result = status == mux::Status::Success ? CL_COMPLETE : clErrorFromStatus(status);
  if (result == CL_COMPLETE) {
    // A dependency that failed while running: the command ran (its work was
    // already recorded) but its result is not to be trusted.
    for (auto &wait : impl.runtimeWaits)
      if (wait->status() < 0 || wait->impl().commandResult.load(std::memory_order_acquire) < 0) {
        result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        break;
      }
  }
  if (result == CL_COMPLETE && event.status() > CL_COMPLETE && impl.onComplete)
    impl.onComplete();
  if (result < 0 && result != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    notifyDeviceFailure(*impl.context, outcome);
  impl.instructionsRetired = outcome.instructionsRetired;
  if (impl.kernelExit) {
    // A kernel that ran has an exit status (0: it ran to its end); one that
    // failed otherwise (a dependency, resources) has none.
    if (outcome.kernelExitStatus)
      impl.kernelExit->status = *outcome.kernelExitStatus;
    else if (status == mux::Status::Success)
      impl.kernelExit->status = 0;
    if (outcome.kernelExitStatus && status != mux::Status::Success)
      impl.kernelExit->detail = outcome.detail;
  }
  if (impl.profiling) {
    // Published at batch completion, once the timestamps can be read.
    impl.commandResult.store(result, std::memory_order_release);
    return;
  }
  setEventStatus(event, result);
}

llvm::Expected<std::shared_ptr<Batch>> newBatch(CommandQueue &queue) {
  auto &q = queue.impl();
  std::shared_ptr<Batch> batch;
  for (auto it = q.retired.begin(); it != q.retired.end(); ++it) {
    // Only we hold it: no event and no batch waiting on its semaphore
    // references it (its dispatch completed before it was retired).
    if (it->use_count() == 1) {
      batch = std::move(*it);
      q.retired.erase(it);
      break;
    }
  }
  if (batch) {
    batch->commandBuffer->reset();
    batch->semaphore->reset();
    batch->state = Batch::State::Recording;
    batch->flushRequested = false;
    batch->commandCount = 0;
    batch->closeError = CL_SUCCESS;
    batch->gated = false;
    batch->prerecorded = nullptr;
  } else {
    mux::Device &device = q.device->mux();
    batch = std::make_shared<Batch>();
    batch->queue = &queue;
    batch->device = &device;
    auto commandBuffer = device.createCommandBuffer();
    if (!commandBuffer)
      return commandBuffer.takeError();
    batch->commandBuffer = std::move(*commandBuffer);
    auto semaphore = device.createSemaphore();
    if (!semaphore)
      return semaphore.takeError();
    batch->semaphore = std::move(*semaphore);
    if (queue.properties() & CL_QUEUE_PROFILING_ENABLE) {
      auto pool = device.createQueryPool(2 * kMaxCommandsPerBatch);
      if (!pool)
        return pool.takeError();
      batch->queryPool = std::move(*pool);
    }
  }
  batch->sequence = q.nextSequence++;
  batch->queueRef = Ref<CommandQueue>(&queue);
  return batch;
}

/// Stops recording into `batch` (it is not dispatched yet).
void closeBatch(Batch &batch) {
  if (batch.state != Batch::State::Recording)
    return;
  batch.state = Batch::State::Closed;
  if (auto error = batch.commandBuffer->finalize())
    batch.closeError = clErrorFromError(std::move(error));
  auto &q = batch.queue->impl();
  if (q.open.get() == &batch)
    q.open.reset();
}

/// Marks `batch`, and the undispatched batches it waits for, for dispatch.
void requestFlush(Batch &batch) {
  if (batch.flushRequested || batch.state == Batch::State::Dispatched || batch.state == Batch::State::Complete)
    return;
  batch.flushRequested = true;
  closeBatch(batch);
  for (auto &dependency : batch.waitBatches)
    requestFlush(*dependency);
  gPending.push_back(&batch);
}

/// Whether every batch `batch` waits for is far enough along: dispatched on
/// the same device (a semaphore then orders them), or complete.
bool dependenciesDispatched(const Batch &batch) {
  for (auto &dependency : batch.waitBatches) {
    if (dependency->state == Batch::State::Complete)
      continue;
    if (dependency->device != batch.device || dependency->state != Batch::State::Dispatched)
      return false;
  }
  return true;
}

/// `dependencyFailure`: the error its commands fail with without running
/// (a failed wait event, or the poison error model's verdict), else CL_SUCCESS.
void dispatchBatch(Batch &batch, cl_int dependencyFailure, SchedulerGuard &guard) {
  batch.state = Batch::State::Dispatched;
  cl_int failure = dependencyFailure != CL_SUCCESS ? dependencyFailure : batch.closeError;
  if (failure != CL_SUCCESS) {
    for (auto &event : batch.events)
      guard.advance(*event, failure);
    // Its commands must not run, but its place in the semaphore chain must
    // still be honoured by the batches after it: dispatch it empty.
    batch.prerecorded = nullptr;
    batch.commandBuffer->reset();
    if (auto error = batch.commandBuffer->finalize()) {
      llvm::consumeError(std::move(error));
      processCompletion(batch, mux::Status::Failure, guard);
      return;
    }
  } else {
    uint64_t now = batch.queryPool ? batch.device->timestampNs() : 0;
    for (auto &event : batch.events) {
      event->impl().submitNs = now;
      guard.advance(*event, CL_SUBMITTED);
      // A prerecorded command buffer has no start marker of our own: its
      // command runs from the moment the device may start it.
      if (batch.prerecorded)
        guard.advance(*event, CL_RUNNING);
    }
  }

  llvm::SmallVector<mux::Semaphore *, 4> waits;
  for (auto &dependency : batch.waitBatches)
    if (dependency->state == Batch::State::Dispatched && dependency->device == batch.device)
      waits.push_back(dependency->semaphore.get());
  // While an integrity check runs on the device, the batch waits for it.
  DispatchGate::HeldDispatch held = [batch = batch.shared_from_this(), waits](SchedulerGuard &guard) {
    submitToDevice(*batch, waits, guard);
  };
  if (!DispatchGate::of(*batch.device).hold(held))
    submitToDevice(batch, waits, guard);
}

void submitToDevice(Batch &batch, std::span<mux::Semaphore *const> waits, SchedulerGuard &guard) {
  mux::Semaphore *signal = batch.semaphore.get();
  mux::CommandBuffer &commandBuffer = batch.prerecorded ? *batch.prerecorded : *batch.commandBuffer;
  auto error =
      batch.device->queue().dispatch(commandBuffer, waits, std::span<mux::Semaphore *const>(&signal, 1), nullptr,
                                     // A plain pointer (no allocation): the queue's live list holds the
                                     // batch until this callback has processed its completion.
                                     [self = &batch](mux::Status status) { onDispatchComplete(*self, status); });
  if (error) {
    cl_int code = clErrorFromError(std::move(error));
    for (auto &event : batch.events)
      guard.advance(*event, code);
    processCompletion(batch, mux::Status::Failure, guard);
  }
}

void processCompletion(Batch &batch, mux::Status status, SchedulerGuard &guard) {
  if (batch.state == Batch::State::Complete)
    return;
  const cl_int batchResult = status == mux::Status::Success ? CL_COMPLETE : clErrorFromStatus(status);
  for (auto &eventRef : batch.events) {
    Event &event = *eventRef;
    auto &impl = event.impl();
    cl_int result = batchResult;
    if (impl.profiling) {
      cl_int recorded = impl.commandResult.load(std::memory_order_acquire);
      if (recorded != CL_QUEUED)
        result = recorded;
      if (result == CL_COMPLETE && batch.queryPool && batch.prerecorded && event.status() > CL_COMPLETE) {
        // No timestamps inside an application's command buffer: it ran
        // between its submission and now.
        impl.startNs = impl.submitNs;
        impl.endNs = std::max(batch.device->timestampNs(), impl.startNs);
        impl.timestampsValid.store(true, std::memory_order_release);
      } else if (result == CL_COMPLETE && batch.queryPool && event.status() > CL_COMPLETE) {
        impl.startNs = batch.queryPool->timestampNs(2 * impl.commandIndex);
        impl.endNs = batch.queryPool->timestampNs(2 * impl.commandIndex + 1);
        impl.startNs = std::max(impl.startNs, impl.submitNs);
        impl.endNs = std::max(impl.endNs, impl.startNs);
        impl.timestampsValid.store(true, std::memory_order_release);
      }
    }
    // No-op for events whose command already reported completion.
    guard.advance(event, result);
    impl.batch.reset();
    if (impl.errorModel) {
      // Settled: later commands no longer wait for it, and its summary
      // replaces its predecessors (error_model.h).
      retirePendingWriter(event);
      for (auto &predecessor : impl.errorModel->predecessors)
        guard.release(std::move(predecessor));
      impl.errorModel->predecessors.clear();
    }
    for (auto &wait : impl.runtimeWaits)
      guard.release(std::move(wait));
    impl.runtimeWaits.clear();
  }
  batch.state = Batch::State::Complete;

  auto &q = batch.queue->impl();
  auto it = std::find_if(q.live.begin(), q.live.end(), [&](auto &b) { return b.get() == &batch; });
  std::shared_ptr<Batch> self = it != q.live.end() ? *it : batch.shared_from_this();
  if (it != q.live.end())
    q.live.erase(it);
  if (q.barrier.get() == &batch)
    q.barrier.reset();
  if (q.open.get() == &batch)
    q.open.reset();
  std::erase(gPending, &batch);

  for (auto &event : batch.events)
    guard.release(std::move(event));
  batch.events.clear();
  for (auto &event : batch.waitEvents)
    guard.release(std::move(event));
  batch.waitEvents.clear();
  for (auto &event : batch.gate)
    guard.release(std::move(event));
  batch.gate.clear();
  guard.release(batch.keepAlive);
  batch.resources.clear();
  batch.waitBatches.clear();
  if (q.retired.size() < kMaxRetiredBatches)
    q.retired.push_back(std::move(self));
  ++q.releasing;
  q.updateBusy();
  guard.completedOn(std::move(batch.queueRef));

  if (!gPending.empty())
    pumpScheduler(guard);
}

} // namespace

SchedulerGuard::SchedulerGuard() : lock_(gSchedulerMutex) {
  assert(!tGuard && "scheduler lock taken twice on one thread");
  tGuard = this;
}

SchedulerGuard::~SchedulerGuard() {
  for (size_t i = 0; i < completions_.size(); ++i) {
    auto [batch, status] = completions_[i];
    processCompletion(*batch, status, *this);
  }
  completions_.clear();
  lock_.unlock();
  tGuard = nullptr;
  runDueCallbacks(callbacks_);
  released_.clear();
  if (!completedQueues_.empty()) {
    {
      std::lock_guard lock(gSchedulerMutex);
      for (auto &queue : completedQueues_) {
        --queue->impl().releasing;
        queue->impl().updateBusy();
        queue->impl().idle.notify_all();
      }
    }
    // A queue may go away with its last reference: only after the lock.
    completedQueues_.clear();
  }
}

SchedulerGuard *SchedulerGuard::current() { return tGuard; }

void SchedulerGuard::deferCallbacks(DueCallbacks &due) {
  for (auto &callback : due)
    callbacks_.push_back(std::move(callback));
  due.clear();
}

void SchedulerGuard::release(std::vector<Ref<ObjectBase>> &objects) {
  for (auto &object : objects)
    released_.push_back(std::move(object));
  objects.clear();
}

void SchedulerGuard::completedOn(Ref<CommandQueue> queue) { completedQueues_.push_back(std::move(queue)); }

void SchedulerGuard::deferCompletion(std::shared_ptr<Batch> batch, mux::Status status) {
  completions_.emplace_back(std::move(batch), status);
}

void finishPrerecordedRun(PrerecordedRun &run, const mux::Outcome &last) {
  Event *event = run.event.exchange(nullptr, std::memory_order_acq_rel);
  std::optional<mux::Outcome> failure;
  {
    std::lock_guard lock(run.mutex);
    failure = std::move(run.firstFailure);
    run.firstFailure.reset();
  }
  if (!event)
    return;
  DeviceTimelineScope timeline;
  commandFinished(*event, failure ? *failure : last);
}

cl_int submitCommand(CommandQueue &queue, Command &command, std::span<Event *const> waits, const Ref<Event> &event,
                     SchedulerGuard &guard) {
  auto &q = queue.impl();
  if (command.prerecordedRun) {
    // The batch holds the event until the dispatch completes, after the
    // command buffer's end marker has run.
    std::lock_guard lock(command.prerecordedRun->mutex);
    command.prerecordedRun->firstFailure.reset();
    command.prerecordedRun->event.store(event.get(), std::memory_order_release);
  }
  const bool inOrder = !queue.outOfOrder();
  // Commands of poison error model contexts always have an event (the
  // context's own migrations may not: they follow OpenCL's model).
  const bool poisonModel = event && queue.context().poisonErrorModel();

  llvm::SmallVector<Ref<Event>, 4> gate;
  if (poisonModel) {
    prepareErrorModelEvent(*event, command, waits, queue);
    gate = pendingErrorModelDependencies(*event);
    if (gate.empty()) {
      // Everything it depends on has settled: decide now.
      if (cl_int verdict = errorModelVerdict(*event)) {
        guard.advance(*event, verdict);
        for (auto &predecessor : event->impl().errorModel->predecessors)
          guard.release(std::move(predecessor));
        event->impl().errorModel->predecessors.clear();
        return CL_SUCCESS;
      }
    }
  } else {
    // A failed dependency fails the command without running it.
    for (Event *wait : waits)
      if (wait->status() < 0) {
        if (event)
          guard.advance(*event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return CL_SUCCESS;
      }
  }

  // Incomplete batches to run after, and wait events that hold the command back.
  llvm::SmallVector<std::shared_ptr<Batch>, 4> dependencies;
  llvm::SmallVector<Event *, 4> holdEvents;
  // A prerecorded command buffer is a dispatch of its own.
  bool cut = command.prerecorded != nullptr;
  auto addDependency = [&](const std::shared_ptr<Batch> &batch, Event *via) {
    if (!batch || batch->state == Batch::State::Complete)
      return;
    if (batch->queue == &queue && inOrder)
      return; // the queue's own chaining orders it
    if (!contains(dependencies, batch))
      dependencies.push_back(batch);
    bool semaphoreWait = batch->state == Batch::State::Dispatched && batch->device == &q.device->mux();
    if (batch != q.open && !semaphoreWait) {
      cut = true;
      if (via)
        holdEvents.push_back(via);
    }
  };
  for (Event *wait : waits) {
    if (wait->status() <= CL_COMPLETE)
      continue;
    if (!wait->queue()) {
      if (!poisonModel)             // the gate holds it in the poison model
        holdEvents.push_back(wait); // incomplete user event
      cut = true;
      continue;
    }
    addDependency(wait->impl().batch, poisonModel ? nullptr : wait);
  }
  if (!gate.empty()) {
    // A gated command runs in a batch of its own, after what it waits for
    // (pending writers included, which flushing it then flushes too).
    cut = true;
    for (auto &pending : gate)
      if (pending->queue())
        addDependency(pending->impl().batch, nullptr);
  }
  if (!inOrder) {
    if (q.barrier)
      addDependency(q.barrier, nullptr);
    if (command.waitsForAllPrevious)
      for (auto &batch : q.live)
        addDependency(batch, nullptr);
  }

  std::shared_ptr<Batch> target;
  if (!cut && q.open && q.open->commandCount < kMaxCommandsPerBatch) {
    target = q.open;
    for (auto &dependency : dependencies)
      if (dependency != target && !contains(target->waitBatches, dependency))
        target->waitBatches.push_back(dependency);
  } else {
    auto created = newBatch(queue);
    if (!created)
      return clErrorFromError(created.takeError());
    target = std::move(*created);
    if (inOrder && !q.live.empty())
      target->waitBatches.push_back(q.live.back());
    for (auto &dependency : dependencies)
      if (!contains(target->waitBatches, dependency))
        target->waitBatches.push_back(dependency);
    for (Event *hold : holdEvents)
      target->waitEvents.push_back(Ref<Event>(hold));
    if (!gate.empty()) {
      target->gated = true;
      target->gate = std::move(gate);
    }
    // Out-of-order: a held command gets a batch of its own, so later
    // independent commands are not held with it (barriers excepted).
    if (inOrder || !cut || command.blocksLaterCommands) {
      if (q.open)
        closeBatch(*q.open);
      q.open = target;
    }
    q.live.push_back(target);
    q.updateBusy();
  }

  mux::CommandBuffer &commandBuffer = *target->commandBuffer;
  const uint32_t index = target->commandCount++;
  Event *eventPtr = event.get();
  llvm::Error error = llvm::Error::success();
  if (eventPtr) {
    auto &impl = eventPtr->impl();
    impl.batch = target;
    impl.commandIndex = index;
    impl.onComplete = std::move(command.onComplete);
    impl.kernelExit = std::move(command.kernelExit);
    for (Event *wait : waits)
      if (wait->queue() && wait->status() > CL_COMPLETE)
        impl.runtimeWaits.push_back(Ref<Event>(wait));
    target->events.push_back(event);
    if (poisonModel)
      registerPendingWriter(*eventPtr);
  }
  target->prerecorded = command.prerecorded;
  if (eventPtr && !command.prerecorded) {
    // Markers, not user callbacks: a device that runs command buffers away
    // from the host need not split the batch around every event.
    error = commandBuffer.markCommandStart([eventPtr](mux::Status) {
      DeviceTimelineScope timeline;
      setEventStatus(*eventPtr, CL_RUNNING);
    });
    if (!error && target->queryPool)
      error = commandBuffer.writeTimestamp(*target->queryPool, 2 * index);
  }
  if (!error && command.record)
    error = command.record(commandBuffer);
  cl_int code = clErrorFromError(std::move(error));
  if (eventPtr && !command.prerecorded) {
    // Recorded even when the command failed to record, so the event is
    // always completed by the device timeline.
    // The callback sees the status of the last work command before it: for
    // a command that records no work that is an earlier command's.
    const bool recordsWork = static_cast<bool>(command.record);
    cl_int afterCode =
        clErrorFromError(commandBuffer.markCommandEnd([eventPtr, recordsWork](const mux::Outcome &outcome) {
          DeviceTimelineScope timeline;
          commandFinished(*eventPtr, recordsWork ? outcome : mux::Outcome());
        }));
    if (code == CL_SUCCESS)
      code = afterCode;
    if (code == CL_SUCCESS && target->queryPool)
      code = clErrorFromError(commandBuffer.writeTimestamp(*target->queryPool, 2 * index + 1));
    if (code != CL_SUCCESS)
      guard.advance(*eventPtr, code);
  }
  if (!eventPtr && code == CL_SUCCESS &&
      (command.type == CL_COMMAND_NDRANGE_KERNEL || command.type == CL_COMMAND_TASK)) {
    // Nobody observes the kernel, but a fault in it is still reported. The
    // context outlives the batch (the queue holds it; the batch the queue).
    const Context *context = &queue.context();
    code = clErrorFromError(commandBuffer.markCommandEnd([context](const mux::Outcome &outcome) {
      if (outcome.status != mux::Status::Success)
        notifyDeviceFailure(*context, outcome);
    }));
  }
  for (auto &object : command.keepAlive)
    target->keepAlive.push_back(std::move(object));
  command.keepAlive.clear();
  for (auto &resource : command.resources)
    target->resources.push_back(std::move(resource));
  command.resources.clear();

  if (!inOrder && command.blocksLaterCommands)
    q.barrier = target;
  if (target != q.open || target->gated || target->prerecorded)
    closeBatch(*target);
  if (target->commandCount >= kMaxCommandsPerBatch) {
    requestFlush(*target);
    pumpScheduler(guard);
  }
  return code;
}

void flushQueue(CommandQueue &queue, SchedulerGuard &guard) {
  auto &q = queue.impl();
  if (q.live.empty())
    return;
  for (auto &batch : q.live)
    requestFlush(*batch);
  pumpScheduler(guard);
}

void flushForEvent(Event &event, SchedulerGuard &guard) {
  if (auto &batch = event.impl().batch) {
    requestFlush(*batch);
    pumpScheduler(guard);
  }
}

void pumpScheduler(SchedulerGuard &guard) {
  if (gPumping)
    return; // the outer pass rescans
  gPumping = true;
  bool progress = true;
  while (progress) {
    progress = false;
    for (size_t i = 0; i < gPending.size();) {
      Batch &batch = *gPending[i];
      bool failed = false;
      bool heldByUserEvent = false;
      for (auto &wait : batch.waitEvents) {
        cl_int status = wait->status();
        if (status < 0)
          failed = true;
        else if (!wait->queue() && status > CL_COMPLETE)
          heldByUserEvent = true;
      }
      if (failed) {
        // Report the failure now, even if the batch still has to wait for
        // its predecessors before it can be retired.
        for (auto &event : batch.events)
          guard.advance(*event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      }
      const bool gateClosed = batch.gated && std::any_of(batch.gate.begin(), batch.gate.end(),
                                                         [](const Ref<Event> &e) { return e->status() > CL_COMPLETE; });
      if ((heldByUserEvent && !failed) || gateClosed || !dependenciesDispatched(batch)) {
        ++i;
        continue;
      }
      gPending.erase(gPending.begin() + i);
      cl_int failure = failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
      if (failure == CL_SUCCESS && batch.gated && !batch.events.empty())
        failure = errorModelVerdict(*batch.events.front());
      dispatchBatch(batch, failure, guard);
      progress = true;
    }
  }
  gPumping = false;
}

void finishQueue(CommandQueue &queue) {
  auto &q = queue.impl();
  uint64_t last;
  {
    SchedulerGuard guard;
    flushQueue(queue, guard);
    last = q.nextSequence - 1;
  }
  if (pollBriefly(queue.device().info(), [&] { return q.busy.load(std::memory_order_acquire) == 0; }))
    return;
  SchedulerGuard guard;
  q.idle.wait(guard.lock(), [&] { return (q.live.empty() || q.live.front()->sequence > last) && q.releasing == 0; });
}

} // namespace polymux::cl
