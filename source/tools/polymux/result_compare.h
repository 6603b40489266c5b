// Compares what one kernel launch left in its buffers on several devices:
// integers bit for bit, floats within a number of ULPs; prints a table of
// the first differences.
#pragma once

#include "device_launch.h"
#include "kernel_args.h"

#include "compiler/kernel_info.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace polymux::tool {

struct CompareSettings {
  /// Largest difference in units in the last place that floats may show.
  uint64_t ulp = 4;
  /// Differing values shown per buffer.
  size_t rows = 8;
};

/// One device's launch, as the comparison sees it.
struct DeviceResult {
  std::string id;
  const LaunchResult *launch;
};

/// Compares every buffer the kernel may write, and the kernel's exit
/// status, on every device with the first device; prints one line per
/// buffer and, for a buffer that differs, its first differences. Returns
/// whether all devices agree.
bool compareResults(llvm::raw_ostream &out, const std::vector<DeviceResult> &results, const std::vector<ArgSpec> &specs,
                    const compiler::KernelInfo &kernel, const CompareSettings &settings);

} // namespace polymux::tool
