// One kernel launch on one device through the Mux HAL: the arguments' bytes
// into device buffers, the kernel over the range, every buffer back, with
// the device's own timestamps around the kernel.
#pragma once

#include "kernel_args.h"

#include "compiler/target.h"
#include "mux/command_buffer.h"
#include "mux/device.h"

#include "llvm/Support/Error.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace polymux::tool {

struct LaunchResult {
  /// Empty when the launch ran and completed; else what failed.
  std::string failure;
  /// Kernel time from the device's timestamps (0 when it has none).
  double kernelSeconds = 0;
  /// From recording the commands to their completion, transfers included.
  double wallSeconds = 0;
  /// Instructions the device retired (simulators; 0 elsewhere).
  uint64_t instructionsRetired = 0;
  /// cl_polymux_kernel_exit: the status a work-item exited with, or the
  /// code of the fault that ended the kernel; empty when it ran to its end.
  std::optional<int32_t> exitStatus;
  /// After the launch, for each Buffer argument its contents; empty for
  /// the other arguments.
  std::vector<std::vector<std::byte>> buffers;
};

/// A kernel of a built program, loaded on its device.
class LoadedKernel {
public:
  /// Loads `module`'s binary on `device` (mux::Device::createExecutable) and
  /// looks up `name`.
  static llvm::Expected<LoadedKernel> load(mux::Device &device, compiler::Module &module, const std::string &name);

  mux::Kernel &kernel() { return *kernel_; }

  /// Runs the kernel once over `range` with `args`; waits at most `timeout`
  /// for it (a launch that takes longer leaves the process unable to
  /// release the device's objects: the caller should exit).
  LaunchResult run(const std::vector<ArgSpec> &args, const mux::NDRange &range, std::chrono::seconds timeout);

private:
  LoadedKernel(mux::Device &device) : device_(&device) {}
  mux::Device *device_;
  std::unique_ptr<mux::Executable> executable_;
  std::unique_ptr<mux::Kernel> kernel_;
};

} // namespace polymux::tool
