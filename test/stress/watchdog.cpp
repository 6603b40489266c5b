#include "watchdog.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace stress {

void ThreadState::beat(const char *step) {
  step_ = step;
  ++beats_;
  lastBeatNs_ = std::chrono::steady_clock::now().time_since_epoch().count();
}

std::chrono::steady_clock::time_point ThreadState::lastBeat() const {
  return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(lastBeatNs_.load()));
}

Watchdog::Watchdog(std::chrono::duration<double> limit) : limit_(limit), thread_([this] { run(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::watch(ThreadState &state) {
  std::lock_guard lock(mutex_);
  states_.push_back(&state);
}

void Watchdog::unwatch(ThreadState &state) {
  std::lock_guard lock(mutex_);
  std::erase(states_, &state);
}

void Watchdog::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    for (const ThreadState *state : states_)
      if (state->active() && now - state->lastBeat() > limit_)
        fire(*state);
  }
}

void Watchdog::fire(const ThreadState &stalled) {
  const auto now = std::chrono::steady_clock::now();
  std::fprintf(stderr, "\npolymux_stress: WATCHDOG: thread '%s' made no progress for %.0f s (a deadlock or a hang)\n",
               stalled.name().c_str(), limit_.count());
  std::fprintf(stderr, "%-14s %-8s %10s %12s  %s\n", "thread", "state", "steps", "idle (s)", "current step");
  for (const ThreadState *state : states_)
    std::fprintf(stderr, "%-14s %-8s %10llu %12.1f  %s\n", state->name().c_str(), state->active() ? "running" : "done",
                 static_cast<unsigned long long>(state->beats()),
                 std::chrono::duration<double>(now - state->lastBeat()).count(), state->step());
  std::fflush(stderr);
  std::fflush(stdout);
  // The stalled threads cannot be joined: leave without destructors.
  std::_Exit(3);
}

} // namespace stress
