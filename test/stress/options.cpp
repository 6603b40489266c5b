#include "options.h"

#include <cstdlib>
#include <iostream>
#include <string_view>

namespace stress {
namespace {

constexpr const char *kUsage = R"(usage: polymux_stress [options]

Stress and soak test of the Polymux OpenCL driver through the ICD loader
(doc/reliability.md). On every selected device: worker threads share one
context, each with an in-order and an out-of-order queue, and build programs,
enqueue kernels, copies, fills, maps, user events, markers, barriers and
callbacks, checking every result against the host; a disruptor thread runs
faulting, long-running and __local-exhausting kernels in the middle of it.
Then every object type is created and released many times while the
resident set, open file descriptors and heap are measured.

  --mode short|long   short (default): 20 s of work, 5000 cycles per object
                      type; long: 60 s, 100000 cycles (program builds that
                      compile: 1/200, from the kernel cache: 1/10)
  --duration S        seconds of multi-threaded work per device
  --threads N         worker threads (default 8)
  --cycles N          create/release cycles per object type
  --device D          a device by index or by part of its name (repeatable;
                      default: every device of the Polymux platform, which
                      POLYMUX_DEVICES narrows to targets)
  --kind K           only the create/release cycles whose kind's name
                      contains K (repeatable)
  --elements N        elements per buffer (default: from the device's speed)
  --watchdog S        fail when a thread makes no progress for S seconds
                      (default 30)
  --seed N            random seed (default 1)
  --only stress|cycles  run one of the two parts
  --simulate-hang     for testing the watchdog: worker 0 waits for a user
                      event that nobody sets
  --without-faults    no faulting kernels (for ThreadSanitizer builds, in
                      which the host target cannot recover from a fault)
  --help              this text

Exit status: 0 when every result was right, every callback arrived and no
resource grew; 1 otherwise; 2 for a bad command line; 3 when the watchdog
fired (a deadlock or a hang).
)";

bool parseNumber(std::string_view text, double &value) {
  char *end = nullptr;
  std::string copy(text);
  value = std::strtod(copy.c_str(), &end);
  return !copy.empty() && *end == '\0' && value >= 0;
}

} // namespace

std::optional<Options> parseOptions(int argc, char **argv, int &exitCode) {
  Options options;
  std::optional<double> duration, cycles;
  auto fail = [&](const std::string &message) -> std::optional<Options> {
    std::cerr << "polymux_stress: " << message << "\n(--help lists the options)\n";
    exitCode = 2;
    return std::nullopt;
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      exitCode = 0;
      return std::nullopt;
    }
    if (arg == "--simulate-hang") {
      options.simulateHang = true;
      continue;
    }
    if (arg == "--without-faults") {
      options.faults = false;
      continue;
    }
    if (i + 1 >= argc)
      return fail("unknown option or missing value: " + std::string(arg));
    std::string_view value = argv[++i];
    double number = 0;
    auto needNumber = [&] { return parseNumber(value, number); };
    if (arg == "--mode") {
      if (value == "short")
        options.mode = Mode::Short;
      else if (value == "long")
        options.mode = Mode::Long;
      else
        return fail("--mode is short or long");
    } else if (arg == "--duration" && needNumber()) {
      duration = number;
    } else if (arg == "--threads" && needNumber() && number >= 1 && number <= 256) {
      options.threads = static_cast<unsigned>(number);
    } else if (arg == "--cycles" && needNumber()) {
      cycles = number;
    } else if (arg == "--device") {
      options.devices.emplace_back(value);
    } else if (arg == "--kind") {
      options.kinds.emplace_back(value);
    } else if (arg == "--elements" && needNumber() && number >= 64 && number <= (1 << 24)) {
      options.elements = static_cast<unsigned>(number);
    } else if (arg == "--watchdog" && needNumber() && number >= 1) {
      options.watchdogSeconds = number;
    } else if (arg == "--seed" && needNumber()) {
      options.seed = static_cast<unsigned long>(number);
    } else if (arg == "--only" && (value == "stress" || value == "cycles")) {
      options.runStress = value == "stress";
      options.runCycles = value == "cycles";
    } else {
      return fail("bad option or value: " + std::string(arg) + " " + std::string(value));
    }
  }
  const bool isLong = options.mode == Mode::Long;
  options.durationSeconds = duration.value_or(isLong ? 60 : 20);
  options.cycles = static_cast<unsigned long>(cycles.value_or(isLong ? 100000 : 5000));
  return options;
}

} // namespace stress
