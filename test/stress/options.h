// The command line of polymux_stress.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace stress {

enum class Mode { Short, Long };

struct Options {
  Mode mode = Mode::Short;
  double durationSeconds = 0;  ///< of the multi-threaded workload, per device
  unsigned threads = 8;        ///< worker threads (the disruptor comes on top)
  unsigned long cycles = 0;    ///< create/release cycles per object type
  double watchdogSeconds = 30; ///< a thread without progress for this long fails the run
  unsigned elements = 0;       ///< elements per buffer; 0: chosen from the device's speed
  unsigned long seed = 1;
  bool runStress = true;
  bool runCycles = true;
  bool simulateHang = false;        ///< tests the watchdog: worker 0 waits for a user event nobody sets
  bool faults = true;               ///< the disruptor runs faulting kernels
  std::vector<std::string> devices; ///< --device: indices or parts of CL_DEVICE_NAME
  std::vector<std::string> kinds;   ///< --kind: parts of the names of the cycle kinds to run (default all)
};

/// The options, or nothing after printing why (or the help) to `std::cerr` /
/// `std::cout`; `exitCode` is then what main returns.
std::optional<Options> parseOptions(int argc, char **argv, int &exitCode);

} // namespace stress
