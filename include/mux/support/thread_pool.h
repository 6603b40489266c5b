// Worker threads for CPU-like targets (the host's cores, a simulator's
// harts): the calling thread taking part, each participant claiming chunks
// of its own contiguous share of the work through an atomic counter, then
// those left in the others' shares.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mux::support {

class ThreadPool {
public:
  /// Runs items [begin, end) on participant `worker`, whose scratch area
  /// (128-byte aligned, at least the bytes asked for) it owns meanwhile.
  using Body = void (*)(void *context, unsigned worker, std::byte *scratch, uint64_t begin, uint64_t end);

  /// `participants` counts the calling thread: participants - 1 threads start.
  explicit ThreadPool(unsigned participants);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned participants() const { return static_cast<unsigned>(scratch_.size()); }

  /// Calls `body` over [0, count) and returns when all items are done. Calls
  /// from several threads are serialised. A single item runs inline without
  /// waking the workers. Fails (returns false) only when scratch memory
  /// cannot be allocated.
  bool parallelFor(uint64_t count, uint64_t scratchBytes, Body body, void *context);

private:
  struct Scratch {
    std::byte *data = nullptr;
    uint64_t size = 0;
  };
  /// One participant's share of the open job, [next, end) still unclaimed.
  /// Contiguous shares keep each thread streaming through one region of
  /// memory (2-3% of the STREAM triad over chunks dealt round-robin); a
  /// participant done with its own claims the rest of the others' the same
  /// way, so uneven items still balance.
  struct alignas(64) Share {
    std::atomic<uint64_t> next{0};
    uint64_t end = 0;
  };

  /// `last`: the generation before the first job. A worker thread may
  /// start after the first job opened; reading the generation itself then
  /// would make it sit that job out.
  void workerLoop(unsigned worker, uint32_t last);
  /// Claims chunks of the open job until none are left.
  void work(unsigned worker);
  bool reserveScratch(uint64_t bytes);

  std::mutex callerMutex_; ///< one parallelFor at a time
  std::vector<Scratch> scratch_;

  // The open job: written by the caller before generation_ turns odd.
  Body body_ = nullptr;
  void *context_ = nullptr;
  uint64_t count_ = 0;
  uint64_t chunk_ = 1;
  std::unique_ptr<Share[]> shares_; ///< one per participant
  std::atomic<uint64_t> done_{0};   ///< items finished
  std::atomic<uint32_t> finished_{0};

  /// Odd while a job is open. Workers enter a job only after incrementing
  /// inside_ and re-checking generation_; the caller closes the job and then
  /// waits for inside_ to drain, so no worker touches a finished job.
  std::atomic<uint32_t> generation_{0};
  std::atomic<uint32_t> inside_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
};

} // namespace mux::support
