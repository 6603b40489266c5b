// Synchronisation objects and the queue that runs command buffers.
#pragma once

#include "mux/status.h"

#include <chrono>
#include <functional>
#include <span>

namespace mux {

class CommandBuffer;

/// Device-side signal between dispatches: a dispatch that waits on a
/// semaphore starts only after a dispatch signalling it has completed.
/// Once signalled it stays signalled until reset().
class Semaphore {
public:
  virtual ~Semaphore() = default;
  virtual void reset() = 0;
};

/// Host-visible signal for the completion of one dispatch.
class Fence {
public:
  virtual ~Fence() = default;
  /// Waits until signalled or `timeout` elapses (Status::Timeout then).
  /// Returns the status of the dispatch that signalled it.
  virtual Status wait(std::chrono::nanoseconds timeout) = 0;
  virtual void reset() = 0;
};

/// Called once per dispatch, after its last command, with Success or the
/// first failure (its Outcome::detail explains it when the target can).
using CompletionCallback = std::function<void(const Outcome &)>;

class Queue {
public:
  virtual ~Queue() = default;
  /// Runs `commandBuffer` once every semaphore in `waits` is signalled; then
  /// signals `signals`, the fence (if any) and calls `onComplete` (if any).
  /// Semaphores are signalled even when a command failed, so one failed
  /// dispatch does not stall the queue. The command buffer, semaphores and
  /// fence must stay alive until completion.
  virtual llvm::Error dispatch(CommandBuffer &commandBuffer, std::span<Semaphore *const> waits,
                               std::span<Semaphore *const> signals, Fence *fence, CompletionCallback onComplete) = 0;
  /// Blocks until every dispatch made so far has completed.
  virtual void waitAll() = 0;
};

} // namespace mux
