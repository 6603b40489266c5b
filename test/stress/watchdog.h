// Deadlocks and hangs fail the run instead of hanging it: every thread of
// the run reports progress to a ThreadState, and the Watchdog ends the
// process (exit status 3) after printing every thread's state when one of
// them has not progressed for too long.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stress {

class ThreadState {
public:
  explicit ThreadState(std::string name) : name_(std::move(name)) {}

  /// Progress: the thread is about to do `step` (a string literal).
  void beat(const char *step);
  /// The thread is done; the watchdog stops watching it.
  void finish() { active_ = false; }

  const std::string &name() const { return name_; }
  bool active() const { return active_; }
  const char *step() const { return step_; }
  uint64_t beats() const { return beats_; }
  std::chrono::steady_clock::time_point lastBeat() const;

private:
  std::string name_;
  std::atomic<bool> active_{true};
  std::atomic<const char *> step_{"starting"};
  std::atomic<uint64_t> beats_{0};
  std::atomic<int64_t> lastBeatNs_{std::chrono::steady_clock::now().time_since_epoch().count()};
};

class Watchdog {
public:
  explicit Watchdog(std::chrono::duration<double> limit);
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

  /// Watches `state` until unwatch(); it must outlive that.
  void watch(ThreadState &state);
  void unwatch(ThreadState &state);

private:
  void run();
  [[noreturn]] void fire(const ThreadState &stalled);

  std::chrono::duration<double> limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<ThreadState *> states_;
  std::thread thread_;
};

} // namespace stress
