// One worker thread of the stress run: an in-order and an out-of-order
// queue of its own on the shared context, kernels of the shared programs
// and a program of its own, and a loop of randomly chosen operations that
// each check their results against the host (reference.h).
#pragma once

#include "cl_calls.h"
#include "watchdog.h"

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

namespace stress {

struct RunState;
struct Tally;

class Worker {
public:
  Worker(RunState &run, unsigned id);
  ThreadState &state() { return state_; }
  /// Runs operations until the run stops, then finishes its queues.
  void run();

private:
  void setUp();
  void runOne();
  void recover();

  // The operations (worker_<kind>.cpp).
  void kernelChain();
  void barrierAndMarker();
  void sharedVariant();
  void copyAndMap();
  void fillAndSubBuffer();
  void userEventChain();
  void rebuildOwnProgram();
  void hangOnUnsetUserEvent();

  size_t randomElements(); ///< a multiple of the work-group size
  uint32_t random32() { return static_cast<uint32_t>(rng_()); }
  size_t below(size_t bound) { return bound ? rng_() % bound : 0; }
  std::vector<uint32_t> randomData(size_t n);
  void check(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want, const char *what);
  void check(const uint32_t *got, const std::vector<uint32_t> &want, const char *what);

  RunState &run_;
  Tally &tally_;
  const unsigned id_;
  std::mt19937_64 rng_;
  ThreadState state_;
  Queue inOrder_, outOfOrder_;
  Kernel scaleAdd_, reverse_, setRange_, sumHalves_; ///< of the main shared program
  size_t group_ = 1;                                 ///< work-group size of reverse_in_group
  Program own_;
  Kernel ownSalted_;
  uint32_t ownScale_ = 1, ownSalt_ = 0;
  std::chrono::steady_clock::time_point ownBuilt_;
};

inline size_t bytes(size_t elements) { return elements * sizeof(uint32_t); }

} // namespace stress
