#include "stress_run.h"

#include "disruptor.h"
#include "run_state.h"
#include "watchdog.h"
#include "worker.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <memory>
#include <thread>

namespace stress {
namespace {

using Clock = std::chrono::steady_clock;

/// How long the long kernel should run.
constexpr std::chrono::duration<double> kLongKernel{1.0};
/// How long callbacks may take to arrive after every queue finished.
constexpr auto kCallbackGrace = std::chrono::seconds(10);

/// Elements per buffer: enough to keep a fast device busy, few enough that
/// a simulated one (riscv_sim) still does many operations.
unsigned elementsFor(double stepsPerSecond) {
  const double wanted = std::clamp(stepsPerSecond / 1e5, 256.0, 4096.0);
  return std::bit_floor(static_cast<unsigned>(wanted));
}

bool callbacksArrived(const Tally &t) {
  return t.eventCallbacks.allArrived() && t.destructorCallbacks.allArrived() && t.buildCallbacks.allArrived() &&
         t.faultNotifications.allArrived();
}

void printCount(const char *what, const CallbackCount &count) {
  std::printf("    %-34s %10llu expected %10llu received%s\n", what,
              static_cast<unsigned long long>(count.expected.load()),
              static_cast<unsigned long long>(count.received.load()), count.allArrived() ? "" : "   <-- LOST");
}

void report(const Tally &t, double seconds, unsigned threads) {
  auto n = [](const std::atomic<uint64_t> &v) { return static_cast<unsigned long long>(v.load()); };
  std::printf("  stress: %.1f s, %u workers and a disruptor on one context\n", seconds, threads);
  std::printf("    operations %llu (results checked %llu): kernels %llu, transfers %llu, maps %llu, markers and "
              "barriers %llu, programs built %llu\n",
              n(t.operations), n(t.checks), n(t.kernels), n(t.transfers), n(t.maps), n(t.markersAndBarriers),
              n(t.programsBuilt));
  std::printf("    user events: %llu set complete, %llu set negative, %llu of them by another thread; %llu commands "
              "failed by a failed wait-list event\n",
              n(t.userEventsCompleted), n(t.userEventsFailed), n(t.userEventsSetByOtherThreads), n(t.dependantsFailed));
  std::printf("    disruptions: %llu faulting kernels (event status %d), %llu long kernels (%.2f s each on average), "
              "%llu __local requests refused (%d)\n",
              n(t.faults), t.faultStatus.load(), n(t.longKernels),
              t.longKernels ? t.longKernelSeconds.load() / t.longKernels : 0.0, n(t.localMemoryRefusals),
              t.localMemoryError.load());
  std::printf("    a kernel with too large a __local array: %s\n", t.staticLocalOutcome.c_str());
  std::printf("    callbacks:\n");
  printCount("event callbacks", t.eventCallbacks);
  printCount("memory object destructor callbacks", t.destructorCallbacks);
  printCount("program build callbacks", t.buildCallbacks);
  printCount("fault notifications (pfn_notify)", t.faultNotifications);
  std::printf("    other context notifications %llu\n", n(t.otherNotifications));
  std::printf("    wrong results %llu, errors %llu\n", n(t.wrongResults), n(t.errors));
}

} // namespace

uint64_t runStress(const Options &options, const DeviceFacts &device, Watchdog &watchdog) {
  ThreadState main("main");
  watchdog.watch(main);
  RunState run(options, device);
  Tally &tally = run.tally;
  Disruptor disruptor(run);
  watchdog.watch(disruptor.state());
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  try {
    main.beat("building the shared program");
    run.programs.buildMain();
    main.beat("setting the disruptor up");
    disruptor.setUp(kLongKernel);
    run.elements = options.elements ? options.elements : elementsFor(disruptor.stepsPerSecond());
    std::printf("  up to %u elements per buffer; the long kernel runs %.2g loop steps per second\n", run.elements,
                disruptor.stepsPerSecond());
    std::fflush(stdout);
    for (unsigned id = 0; id < options.threads; ++id) {
      workers.push_back(std::make_unique<Worker>(run, id));
      watchdog.watch(workers.back()->state());
    }
    for (auto &worker : workers)
      threads.emplace_back([&worker] { worker->run(); });
    threads.emplace_back([&disruptor] { disruptor.run(); });
  } catch (const ApiError &e) {
    tally.error(std::string("setting up: ") + e.what());
    run.stop = true;
  }
  const auto deadline = Clock::now() + std::chrono::duration<double>(options.durationSeconds);
  auto nextReport = Clock::now() + std::chrono::seconds(10);
  while (!run.stop && Clock::now() < deadline) {
    main.beat("waiting for the end of the run");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (Clock::now() >= nextReport) {
      std::printf(
          "  %.0f s: %llu operations, %llu failures\n", std::chrono::duration<double>(Clock::now() - start).count(),
          static_cast<unsigned long long>(tally.operations.load()), static_cast<unsigned long long>(tally.failures()));
      std::fflush(stdout);
      nextReport += std::chrono::seconds(10);
    }
  }
  run.stop = true;
  main.beat("joining the threads");
  for (std::thread &thread : threads)
    thread.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  main.beat("waiting for callbacks");
  const auto graceEnd = Clock::now() + kCallbackGrace;
  while (!callbacksArrived(tally) && Clock::now() < graceEnd)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  for (auto &worker : workers)
    watchdog.unwatch(worker->state());
  watchdog.unwatch(disruptor.state());
  watchdog.unwatch(main);
  report(tally, seconds, options.threads);
  if (!callbacksArrived(tally))
    tally.error("callbacks were lost or came more often than due (above)");
  if (tally.otherNotifications)
    tally.error("the context's pfn_notify was told of failures other than the faulting kernels");
  return tally.failures();
}

} // namespace stress
