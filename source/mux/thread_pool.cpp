#include "mux/support/thread_pool.h"

#include "mux/support/spin_wait.h"

#include <algorithm>
#include <new>

namespace mux::support {

namespace {
constexpr std::align_val_t kScratchAlignment{128};
/// How long an idle worker polls for the next job before sleeping: long
/// enough to cover back-to-back launches, short enough not to hog a core.
constexpr std::chrono::microseconds kWorkerSpin{100};
/// How long the caller polls for the last chunks before sleeping.
constexpr std::chrono::microseconds kJoinSpin{200};
} // namespace

ThreadPool::ThreadPool(unsigned participants)
    : scratch_(std::max(1u, participants)), shares_(new Share[std::max(1u, participants)]) {
  for (unsigned worker = 1; worker < scratch_.size(); ++worker)
    threads_.emplace_back([this, worker] { workerLoop(worker, 0); });
}

ThreadPool::~ThreadPool() {
  stopping_.store(true);
  generation_.fetch_add(2); // keeps the parity, changes the value: sleepers wake
  generation_.notify_all();
  for (std::thread &thread : threads_)
    thread.join();
  for (Scratch &scratch : scratch_)
    if (scratch.data)
      ::operator delete(scratch.data, kScratchAlignment);
}

bool ThreadPool::reserveScratch(uint64_t bytes) {
  for (Scratch &scratch : scratch_) {
    if (scratch.size >= bytes)
      continue;
    auto *data = static_cast<std::byte *>(::operator new(bytes, kScratchAlignment, std::nothrow));
    if (!data)
      return false;
    if (scratch.data)
      ::operator delete(scratch.data, kScratchAlignment);
    scratch = {data, bytes};
  }
  return true;
}

bool ThreadPool::parallelFor(uint64_t count, uint64_t scratchBytes, Body body, void *context) {
  std::lock_guard lock(callerMutex_);
  if (count == 0)
    return true;
  if (!reserveScratch(scratchBytes))
    return false;
  unsigned participants = this->participants();
  if (count == 1 || participants == 1) {
    body(context, 0, scratch_[0].data, 0, count);
    return true;
  }

  body_ = body;
  context_ = context;
  count_ = count;
  // A few chunks per participant balance uneven groups; bigger chunks keep
  // small groups from paying an atomic each.
  chunk_ = std::clamp<uint64_t>(count / (uint64_t(participants) * 4), 1, 256);
  for (unsigned p = 0; p < participants; ++p) {
    shares_[p].next.store(count * p / participants, std::memory_order_relaxed);
    shares_[p].end = count * (p + 1) / participants;
  }
  done_.store(0, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  uint32_t open = generation_.load(std::memory_order_relaxed) + 1;
  generation_.store(open); // seq_cst: publishes the job, ordered before the sleepers_ load
  if (sleepers_.load() > 0)
    generation_.notify_all();

  work(0);

  auto allDone = [&] { return finished_.load(std::memory_order_acquire) != 0; };
  if (!mux::support::spinUntil(allDone, kJoinSpin))
    while (!allDone())
      finished_.wait(0, std::memory_order_acquire);

  generation_.store(open + 1); // close the job
  // Workers still inside found no work and are leaving; one may have been
  // preempted on a busy machine, so yield rather than spin forever.
  while (inside_.load() != 0)
    std::this_thread::yield();
  return true;
}

void ThreadPool::work(unsigned worker) {
  std::byte *scratch = scratch_[worker].data;
  const unsigned participants = this->participants();
  for (unsigned offset = 0; offset < participants; ++offset) {
    Share &share = shares_[(worker + offset) % participants];
    for (;;) {
      uint64_t begin = share.next.fetch_add(chunk_, std::memory_order_relaxed);
      if (begin >= share.end)
        break;
      uint64_t end = std::min(begin + chunk_, share.end);
      body_(context_, worker, scratch, begin, end);
      if (done_.fetch_add(end - begin, std::memory_order_acq_rel) + (end - begin) == count_) {
        finished_.store(1, std::memory_order_release);
        finished_.notify_one();
      }
    }
  }
}

void ThreadPool::workerLoop(unsigned worker, uint32_t last) {
  for (;;) {
    uint32_t seen = last;
    auto jobOpen = [&] {
      seen = generation_.load();
      return stopping_.load(std::memory_order_relaxed) || (seen != last && (seen & 1u));
    };
    if (!mux::support::spinUntil(jobOpen, kWorkerSpin)) {
      sleepers_.fetch_add(1); // seq_cst: pairs with the caller's store then load
      while (!jobOpen())
        generation_.wait(seen);
      sleepers_.fetch_sub(1);
    }
    if (stopping_.load(std::memory_order_relaxed))
      return;
    last = seen;
    inside_.fetch_add(1);
    if (generation_.load() == seen)
      work(worker);
    inside_.fetch_sub(1);
  }
}

} // namespace mux::support
