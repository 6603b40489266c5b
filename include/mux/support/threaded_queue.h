// Shared HAL helpers: a Queue that runs HostCommandBuffers on its own host
// thread, each once all its wait semaphores are signalled.
#pragma once

#include "mux/queue.h"
#include "mux/support/cpu_sync.h"
#include "mux/support/host_command_buffer.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>

namespace mux::support {

class ThreadedQueue final : public Queue, private SemaphoreListener {
public:
  /// Commands report their work to `activity` (the device's) when given.
  explicit ThreadedQueue(DeviceActivity *activity = nullptr);
  /// Finishes every dispatch that can still run, then abandons those whose
  /// semaphores will never be signalled (their callbacks are not called).
  ~ThreadedQueue() override;

  /// InvalidArgument when the command buffer is not a finalized
  /// HostCommandBuffer or a semaphore/fence is not a CpuSemaphore/CpuFence.
  llvm::Error dispatch(CommandBuffer &commandBuffer, std::span<Semaphore *const> waits,
                       std::span<Semaphore *const> signals, Fence *fence, CompletionCallback onComplete) override;
  void waitAll() override;

private:
  struct Dispatch {
    HostCommandBuffer *commandBuffer;
    llvm::SmallVector<CpuSemaphore *, 2> waits;
    llvm::SmallVector<CpuSemaphore *, 2> signals;
    CpuFence *fence;
    CompletionCallback onComplete;
  };

  void semaphoreSignalled() override;
  void workerLoop();
  /// Takes the oldest dispatch whose waits are all signalled into `out`.
  bool takeReady(std::list<Dispatch> &out);
  void complete(Dispatch &dispatch, const Outcome &outcome);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::list<Dispatch> pending_; ///< guarded by mutex_
  bool stopping_ = false;       ///< guarded by mutex_
  bool workerSleeping_ = false; ///< guarded by mutex_
  /// Bumped on every event that may make a dispatch ready.
  std::atomic<uint32_t> generation_{0};
  /// Dispatches made and not yet completed (waitAll waits for zero).
  std::atomic<uint32_t> outstanding_{0};
  DeviceActivity *activity_;
  std::thread worker_;
};

} // namespace mux::support
