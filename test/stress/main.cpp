// polymux_stress: stress and soak test of the Polymux OpenCL driver
// (doc/reliability.md, "Stress and soak"). `polymux_stress --help` tells how
// to run it.
#include "cl_calls.h"
#include "cl_platform.h"
#include "cycles.h"
#include "options.h"
#include "stress_run.h"
#include "watchdog.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace stress;

namespace {

bool contains(std::string text, std::string part) {
  auto lower = [](std::string &s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  };
  lower(text);
  lower(part);
  return text.find(part) != std::string::npos;
}

/// The devices --device names (by index or part of the name), or all.
std::vector<cl_device_id> selectDevices(const Options &options) {
  const std::vector<cl_device_id> &all = cltest::devicesUnderTest();
  if (options.devices.empty())
    return all;
  std::vector<cl_device_id> selected;
  for (size_t i = 0; i < all.size(); ++i)
    for (const std::string &wanted : options.devices)
      if (wanted == std::to_string(i) || contains(cltest::deviceString(all[i], CL_DEVICE_NAME), wanted)) {
        selected.push_back(all[i]);
        break;
      }
  return selected;
}

} // namespace

int main(int argc, char **argv) {
#ifdef POLYMUX_STRESS_DEFAULT_ICD_DIR
  // Run by hand from the build tree, reach the build's own driver.
  setenv("OCL_ICD_VENDORS", POLYMUX_STRESS_DEFAULT_ICD_DIR, /*overwrite=*/0);
#endif
  // Every build compiles (and nothing is written to the user's cache),
  // unless the caller chose a cache.
  setenv("POLYMUX_CACHE", "0", /*overwrite=*/0);
  int exitCode = 0;
  const std::optional<Options> options = parseOptions(argc, argv, exitCode);
  if (!options)
    return exitCode;
  const std::vector<cl_device_id> devices = selectDevices(*options);
  if (devices.empty()) {
    std::fprintf(stderr, "polymux_stress: no device of platform '%s' is selected\n",
                 cltest::platformNameUnderTest().c_str());
    return 1;
  }
  std::printf("polymux_stress: %s mode, %.0f s and %u workers per device, %lu create/release cycles per object "
              "kind, seed %lu, POLYMUX_CACHE=%s\n",
              options->mode == Mode::Long ? "long" : "short", options->durationSeconds, options->threads,
              options->cycles, options->seed, std::getenv("POLYMUX_CACHE"));
  Watchdog watchdog{std::chrono::duration<double>(options->watchdogSeconds)};
  uint64_t failures = 0;
  for (cl_device_id id : devices) {
    try {
      const DeviceFacts device = DeviceFacts::of(id);
      std::printf("\ndevice: %s\n", device.name.c_str());
      std::fflush(stdout);
      if (options->runStress)
        failures += runStress(*options, device, watchdog);
      if (options->runCycles)
        failures += runCycles(*options, device, watchdog);
    } catch (const ApiError &e) {
      std::fprintf(stderr, "polymux_stress: %s\n", e.what());
      ++failures;
    }
  }
  std::printf("\npolymux_stress: %s (%llu failures)\n", failures ? "FAILED" : "passed",
              static_cast<unsigned long long>(failures));
  return failures ? 1 : 0;
}
