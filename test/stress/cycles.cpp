#include "cycles.h"

#include "cycle_kinds.h"
#include "process_usage.h"
#include "watchdog.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <thread>

namespace stress {
namespace {

/// Callbacks of released objects may arrive after the release returns.
constexpr auto kCallbackGrace = std::chrono::seconds(10);

bool callbacksArrived(const Tally &t) {
  return t.eventCallbacks.allArrived() && t.destructorCallbacks.allArrived() && t.buildCallbacks.allArrived();
}

/// The process, measured once the commands enqueued so far have finished
/// and the callbacks due have run: until then the driver holds what it
/// will pass them (the events of thousands of markers, when its callback
/// thread is behind).
ProcessUsage measureAfterCallbacks(CycleFixture &fixture) {
  ok(clFinish(fixture.queue), "clFinish");
  const auto graceEnd = std::chrono::steady_clock::now() + kCallbackGrace;
  while (!callbacksArrived(fixture.tally) && std::chrono::steady_clock::now() < graceEnd)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return ProcessUsage::now();
}

double mib(uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }
int64_t grown(uint64_t from, uint64_t to) { return static_cast<int64_t>(to) - static_cast<int64_t>(from); }

void printUsageHeader() {
  std::printf("    %-40s %8s %8s  %-26s %-13s %-26s\n", "kind", "cycles", "seconds", "resident MiB (start warm end)",
              "fds", "heap MiB (start warm end)");
}

void printUsage(const CycleKind &kind, unsigned long cycles, double seconds, const ProcessUsage &start,
                const ProcessUsage &warm, const ProcessUsage &end, const char *verdict) {
  std::printf("    %-40s %8lu %8.1f  %7.1f %7.1f %7.1f   %3" PRIu64 " %3" PRIu64 " %3" PRIu64
              "   %7.2f %7.2f %7.2f  %s\n",
              kind.name.c_str(), cycles, seconds, mib(start.residentBytes), mib(warm.residentBytes),
              mib(end.residentBytes), start.openFiles, warm.openFiles, end.openFiles, mib(start.heapBytes),
              mib(warm.heapBytes), mib(end.heapBytes), verdict);
  std::fflush(stdout);
}

/// The kind's cycles, measuring after the warm-up (`warm`) and halfway
/// through the cycles after it (`mid`); false when one failed (reported in
/// the tally).
bool runKind(CycleFixture &fixture, const CycleKind &kind, unsigned long cycles, unsigned long warmUp,
             ThreadState &state, ProcessUsage &warm, ProcessUsage &mid) {
  const unsigned long halfway = warmUp + (cycles - warmUp) / 2;
  try {
    for (unsigned long i = 0; i < cycles; ++i) {
      if (i == warmUp) {
        state.beat("measuring after the warm-up");
        warm = measureAfterCallbacks(fixture);
      }
      if (i == halfway) {
        state.beat("measuring halfway");
        mid = measureAfterCallbacks(fixture);
      }
      state.beat("cycling");
      kind.cycle(fixture, i);
    }
    return true;
  } catch (const std::exception &e) {
    fixture.tally.error(kind.name + ": " + e.what());
    return false;
  }
}

} // namespace

uint64_t runCycles(const Options &options, const DeviceFacts &device, Watchdog &watchdog) {
  ThreadState state("cycles");
  watchdog.watch(state);
  state.beat("creating the fixture");
  CycleFixture fixture(device);
  std::vector<std::string> notes;
  std::vector<CycleKind> kinds = cycleKinds(fixture, notes);
  std::printf("  create/release cycles, %lu per kind (fewer where noted):\n", options.cycles);
  printUsageHeader();
  const ProcessUsage first = measureAfterCallbacks(fixture);
  for (const CycleKind &kind : kinds) {
    if (!options.kinds.empty() && std::none_of(options.kinds.begin(), options.kinds.end(), [&](const std::string &k) {
          return kind.name.find(k) != std::string::npos;
        }))
      continue;
    const unsigned long cycles =
        std::max<unsigned long>(10, static_cast<unsigned long>(static_cast<double>(options.cycles) * kind.share));
    const unsigned long warmUp = std::max<unsigned long>(1, cycles / 10);
    if (kind.before)
      kind.before();
    const ProcessUsage start = measureAfterCallbacks(fixture);
    ProcessUsage warm = start, mid = start;
    const auto began = std::chrono::steady_clock::now();
    const bool ran = runKind(fixture, kind, cycles, warmUp, state, warm, mid);
    state.beat("finishing");
    const ProcessUsage end = measureAfterCallbacks(fixture);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (kind.after)
      kind.after();
    const char *verdict = "";
    if (!ran) {
      verdict = "FAILED";
    } else if (end.openFiles > warm.openFiles) {
      verdict = "LEAK: file descriptors";
    } else if (grown(warm.heapBytes, end.heapBytes) > static_cast<int64_t>(kHeapGrowthBound) &&
               grown(warm.heapBytes, mid.heapBytes) > static_cast<int64_t>(kHeapGrowthBound / 4) &&
               grown(mid.heapBytes, end.heapBytes) > static_cast<int64_t>(kHeapGrowthBound / 4)) {
      // A leak grows the heap all the time; a pool, or state a driver
      // makes when it first needs it, grows it once, at a moment that
      // depends on timing (lavapipe: about 1 MiB, before or after the
      // warm-up measurement from run to run).
      verdict = "LEAK: heap";
    } else if (grown(warm.residentBytes, end.residentBytes) > static_cast<int64_t>(kResidentGrowthBound)) {
      verdict = "LEAK: resident set";
    }
    if (*verdict && ran) {
      fixture.tally.error(kind.name + ": " + verdict);
    }
    printUsage(kind, cycles, seconds, start, warm, end, *verdict ? verdict : "ok");
  }
  state.beat("waiting for callbacks");
  Tally &t = fixture.tally;
  const ProcessUsage last = measureAfterCallbacks(fixture);
  std::printf("    all kinds: resident %.1f -> %.1f MiB, fds %" PRIu64 " -> %" PRIu64 ", heap %.2f -> %.2f MiB\n",
              mib(first.residentBytes), mib(last.residentBytes), first.openFiles, last.openFiles, mib(first.heapBytes),
              mib(last.heapBytes));
  for (const std::string &note : notes)
    std::printf("    %s\n", note.c_str());
  auto count = [](const char *what, const CallbackCount &c) {
    std::printf("    %s: %llu expected, %llu received%s\n", what, static_cast<unsigned long long>(c.expected.load()),
                static_cast<unsigned long long>(c.received.load()), c.allArrived() ? "" : "   <-- LOST");
  };
  count("event callbacks", t.eventCallbacks);
  count("destructor callbacks", t.destructorCallbacks);
  count("build callbacks", t.buildCallbacks);
  if (!callbacksArrived(t))
    t.error("cycles: callbacks were lost");
  std::printf("    wrong results %llu, errors %llu\n", static_cast<unsigned long long>(t.wrongResults.load()),
              static_cast<unsigned long long>(t.errors.load()));
  state.finish();
  watchdog.unwatch(state);
  return t.failures();
}

} // namespace stress
