// Short busy-waits used before blocking, to keep wake-up latency low when
// the awaited event is microseconds away (a queue's next dispatch, a pool's
// next work-group slice).
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace mux::support {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

/// Polls `done` for up to `budget`; returns whether it became true.
template <typename Predicate> bool spinUntil(Predicate done, std::chrono::nanoseconds budget) {
  if (done())
    return true;
  if (budget.count() <= 0)
    return false;
  auto deadline = std::chrono::steady_clock::now() + budget;
  for (uint32_t i = 1;; ++i) {
    cpuRelax();
    if (done())
      return true;
    // Reading the clock costs more than a pause: do it every 64 polls.
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline)
      return false;
  }
}

} // namespace mux::support
