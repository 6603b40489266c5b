// The poison error model (error_model.h) and clCheckEventExecutionPOLYMUX.
#include "error_model.h"

#include "batch.h"
#include "buffer.h"
#include "context.h"
#include "event_impl.h"
#include "info.h"
#include "queue.h"

#include "CL/cl_ext_polymux.h"

#include <algorithm>

namespace polymux::cl {
namespace {

/// Commands whose success over a whole buffer leaves no byte of the old
/// contents, only bytes the application chose: the documented way to clear
/// poison.
bool clearsPoison(const Command &command) {
  switch (command.type) {
  case CL_COMMAND_WRITE_BUFFER:
  case CL_COMMAND_WRITE_BUFFER_RECT:
  case CL_COMMAND_FILL_BUFFER:
  case CL_COMMAND_COPY_BUFFER:
  case CL_COMMAND_COPY_BUFFER_RECT:
    return true;
  case CL_COMMAND_UNMAP_MEM_OBJECT:
    return command.unmapsInvalidatedRegion;
  default:
    return false;
  }
}

void addDistinct(llvm::SmallVectorImpl<Ref<Event>> &events, Event *event) {
  for (auto &existing : events)
    if (existing.get() == event)
      return;
  events.push_back(Ref<Event>(event));
}

} // namespace

void prepareErrorModelEvent(Event &event, const Command &command, std::span<Event *const> waits, CommandQueue &queue) {
  auto state = std::make_unique<ErrorModelState>();
  for (const MemoryUse &use : command.memoryUses) {
    const bool mayWrite = use.access != ContentAccess::Read;
    const bool whole = use.access == ContentAccess::Overwrite && clearsPoison(command) && use.begin == 0 &&
                       use.end == use.root->size();
    auto root = std::find_if(state->roots.begin(), state->roots.end(),
                             [&](const ErrorModelState::RootUse &r) { return r.root == use.root; });
    if (root == state->roots.end()) {
      state->roots.push_back({use.root, mayWrite, whole});
    } else {
      // Used twice (a copy within one buffer): overwritten whole only if no
      // other use reads it.
      root->overwritesWhole = root->overwritesWhole && whole;
      root->mayWrite = root->mayWrite || mayWrite;
    }
    if (mayWrite && std::none_of(state->nonConstObjects.begin(), state->nonConstObjects.end(),
                                 [&](const Ref<MemObject> &m) { return m.get() == use.object; }))
      state->nonConstObjects.push_back(Ref<MemObject>(use.object));
  }
  for (auto &root : state->roots)
    if (!root.mayWrite)
      root.overwritesWhole = false;
  for (Event *wait : waits)
    if (std::none_of(state->predecessors.begin(), state->predecessors.end(),
                     [&](const Ref<Event> &e) { return e.get() == wait; }))
      state->predecessors.push_back(Ref<Event>(wait));
  if (command.waitsForAllPrevious) {
    // A marker or barrier with an empty wait list depends on every command
    // enqueued before it; those complete already cannot change its verdict
    // unless they failed, and then they are listed too.
    for (auto &batch : queue.impl().live)
      for (auto &previous : batch->events)
        if (previous.get() != &event && std::none_of(state->predecessors.begin(), state->predecessors.end(),
                                                     [&](const Ref<Event> &e) { return e.get() == previous.get(); }))
          state->predecessors.push_back(previous);
  }
  event.impl().errorModel = std::move(state);
}

llvm::SmallVector<Ref<Event>, 4> pendingErrorModelDependencies(Event &event) {
  llvm::SmallVector<Ref<Event>, 4> pending;
  auto &state = *event.impl().errorModel;
  for (auto &predecessor : state.predecessors)
    if (predecessor->status() > CL_COMPLETE)
      addDistinct(pending, predecessor.get());
  for (auto &use : state.roots)
    for (Event *writer : use.root->poison().pendingWriters)
      if (writer != &event && writer->status() > CL_COMPLETE)
        addDistinct(pending, writer);
  return pending;
}

cl_int errorModelVerdict(Event &event) {
  auto &state = *event.impl().errorModel;
  for (auto &predecessor : state.predecessors)
    if (predecessor->status() < 0)
      return CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX;
  for (auto &use : state.roots)
    if (!use.overwritesWhole && use.root->poison().poisoned.load(std::memory_order_acquire))
      return CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX;
  return CL_SUCCESS;
}

void registerPendingWriter(Event &event) {
  for (auto &use : event.impl().errorModel->roots)
    if (use.mayWrite)
      use.root->poison().pendingWriters.push_back(&event);
}

void retirePendingWriter(Event &event) {
  for (auto &use : event.impl().errorModel->roots)
    if (use.mayWrite)
      std::erase(use.root->poison().pendingWriters, &event);
}

void settleErrorModelEvent(Event &event, cl_int status) {
  auto &state = *event.impl().errorModel;
  for (auto &use : state.roots) {
    if (status < 0 && use.mayWrite)
      use.root->poison().poisoned.store(true, std::memory_order_release);
    else if (status == CL_COMPLETE && use.overwritesWhole)
      use.root->poison().poisoned.store(false, std::memory_order_release);
  }
  // Longest path (in edges) to a failed event. A predecessor's own summary
  // was written before its final status, which is read here with acquire.
  Event *farthest = nullptr;
  uint32_t distance = 0;
  for (auto &predecessor : state.predecessors) {
    const cl_int predecessorStatus = predecessor->status();
    if (predecessorStatus > CL_COMPLETE)
      continue; // not settled: it did not hold this command back, so it is not its cause
    Event *cause = nullptr;
    uint32_t causeDistance = 0;
    auto *upstream = predecessor->impl().errorModel.get();
    if (upstream && upstream->upstreamFailure) {
      cause = upstream->upstreamFailure.get();
      causeDistance = upstream->upstreamDistance + 1;
    } else if (predecessorStatus < 0) {
      cause = predecessor.get();
      causeDistance = 1;
    }
    if (cause && causeDistance > distance) {
      farthest = cause;
      distance = causeDistance;
    }
  }
  if (farthest) {
    state.upstreamFailure = Ref<Event>(farthest);
    state.upstreamDistance = distance;
  }
}

namespace {

cl_int nonConstMemObjects(Event &event, size_t size, void *value, size_t *sizeRet) {
  std::vector<cl_mem> handles;
  if (auto *state = event.impl().errorModel.get())
    for (auto &object : state->nonConstObjects)
      handles.push_back(object->handle());
  return writeInfoArray(size, value, sizeRet, std::span<const cl_mem>(handles));
}

} // namespace

cl_int errorModelEventInfo(Event &event, cl_event_info param, size_t size, void *value, size_t *sizeRet) {
  if (param != CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX || !event.context().poisonErrorModel())
    return CL_INVALID_VALUE;
  return nonConstMemObjects(event, size, value, sizeRet);
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clCheckEventExecutionPOLYMUX(cl_event handle, cl_event *failed_event, cl_int *error) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  if (!event->context().poisonErrorModel())
    return CL_INVALID_OPERATION;
  // Blocks until the event settled; its predecessors settled before it (a
  // command of this model runs, or fails, only after its predecessors did).
  const cl_int status = waitForEvent(*event);
  Event *failed = nullptr;
  cl_int code = CL_SUCCESS;
  {
    auto &impl = event->impl();
    std::lock_guard lock(impl.mutex);
    if (impl.errorModel && impl.errorModel->upstreamFailure) {
      failed = impl.errorModel->upstreamFailure.get();
      code = failed->status();
    } else if (status < 0) {
      failed = event;
      code = status;
    }
  }
  if (failed_event) {
    if (failed)
      failed->retain(); // the caller's reference
    *failed_event = failed ? failed->handle() : nullptr;
  }
  if (error)
    *error = code;
  return CL_SUCCESS;
}

} // extern "C"
