#include "mux/support/threaded_queue.h"

#include "mux/support/spin_wait.h"

namespace mux::support {

namespace {
// How long the worker polls for the next dispatch before sleeping, and how
// long waitAll() polls before blocking. Back-to-back enqueues then avoid a
// futex wake-up each.
constexpr std::chrono::microseconds kWorkerSpin{50};
constexpr std::chrono::microseconds kWaitAllSpin{20};
} // namespace

ThreadedQueue::ThreadedQueue(DeviceActivity *activity) : activity_(activity), worker_([this] { workerLoop(); }) {}

ThreadedQueue::~ThreadedQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  worker_.join();
  // Dispatches still waiting on semaphores nobody will signal.
  for (Dispatch &dispatch : pending_)
    for (CpuSemaphore *semaphore : dispatch.waits)
      semaphore->removeListener(this);
}

llvm::Error ThreadedQueue::dispatch(CommandBuffer &commandBuffer, std::span<Semaphore *const> waits,
                                    std::span<Semaphore *const> signals, Fence *fence, CompletionCallback onComplete) {
  Dispatch dispatch;
  dispatch.commandBuffer = dynamic_cast<HostCommandBuffer *>(&commandBuffer);
  if (!dispatch.commandBuffer)
    return makeError(Status::InvalidArgument, "command buffer was not created by this device");
  if (!dispatch.commandBuffer->finalized())
    return makeError(Status::InvalidArgument, "command buffer is not finalized");
  for (auto [list, out] : {std::pair{waits, &dispatch.waits}, std::pair{signals, &dispatch.signals}}) {
    for (Semaphore *semaphore : list) {
      auto *cpu = dynamic_cast<CpuSemaphore *>(semaphore);
      if (!cpu)
        return makeError(Status::InvalidArgument, "semaphore is null or was not created by this device");
      out->push_back(cpu);
    }
  }
  if (fence) {
    dispatch.fence = dynamic_cast<CpuFence *>(fence);
    if (!dispatch.fence)
      return makeError(Status::InvalidArgument, "fence was not created by this device");
  } else {
    dispatch.fence = nullptr;
  }
  dispatch.onComplete = std::move(onComplete);

  outstanding_.fetch_add(1, std::memory_order_relaxed);
  bool wake;
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(dispatch));
    generation_.fetch_add(1, std::memory_order_release);
    wake = workerSleeping_;
  }
  if (wake)
    wake_.notify_one();
  return llvm::Error::success();
}

void ThreadedQueue::waitAll() {
  auto idle = [&] { return outstanding_.load(std::memory_order_acquire) == 0; };
  if (spinUntil(idle, kWaitAllSpin))
    return;
  for (uint32_t count = outstanding_.load(std::memory_order_acquire); count != 0;
       count = outstanding_.load(std::memory_order_acquire))
    outstanding_.wait(count, std::memory_order_acquire);
}

void ThreadedQueue::semaphoreSignalled() {
  bool wake;
  {
    std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
    wake = workerSleeping_;
  }
  if (wake)
    wake_.notify_one();
}

bool ThreadedQueue::takeReady(std::list<Dispatch> &out) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    bool ready = true;
    for (CpuSemaphore *semaphore : it->waits) {
      // Register for the signal so the worker is woken when it comes.
      if (!semaphore->signalled() && semaphore->listenIfUnsignalled(this)) {
        ready = false;
        break;
      }
    }
    if (ready) {
      out.splice(out.end(), pending_, it);
      return true;
    }
  }
  return false;
}

void ThreadedQueue::complete(Dispatch &dispatch, const Outcome &outcome) {
  for (CpuSemaphore *semaphore : dispatch.signals)
    semaphore->signal();
  if (dispatch.fence)
    dispatch.fence->signal(outcome.status);
  if (dispatch.onComplete)
    dispatch.onComplete(outcome);
}

void ThreadedQueue::workerLoop() {
  std::list<Dispatch> running; // a one-element list: splicing avoids allocations
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      for (;;) {
        uint32_t seen = generation_.load(std::memory_order_acquire);
        if (takeReady(running))
          break;
        if (stopping_)
          return;
        lock.unlock();
        bool changed = spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; }, kWorkerSpin);
        lock.lock();
        if (changed || generation_.load(std::memory_order_acquire) != seen)
          continue;
        workerSleeping_ = true;
        wake_.wait(lock, [&] { return stopping_ || generation_.load(std::memory_order_acquire) != seen; });
        workerSleeping_ = false;
      }
    }
    Dispatch &dispatch = running.front();
    complete(dispatch, dispatch.commandBuffer->run(activity_));
    running.clear();
    if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      outstanding_.notify_all();
  }
}

} // namespace mux::support
