// cl_polymux_kernel_exit in the OpenCL layer: the messages an application
// registers for its kernels' exit codes, and what a kernel command's event
// keeps of how the kernel ended (doc/extensions/cl_polymux_kernel_exit.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace polymux::cl {

/// The messages registered for one program: per exit code for the whole
/// program, and per kernel name and exit code. Shared by the program and
/// the events of its kernels' commands, which may outlive it.
class KernelExitMessages {
public:
  void registerForProgram(int32_t code, std::string message);
  void registerForKernel(std::string kernel, int32_t code, std::string message);
  /// The kernel's message for `code`, else the program's; nullopt if none.
  std::optional<std::string> find(std::string_view kernel, int32_t code) const;

private:
  mutable std::mutex mutex_;
  std::map<int32_t, std::string> program_;
  std::map<std::pair<std::string, int32_t>, std::string, std::less<>> kernels_;
};

/// What the event of a kernel command knows about how the kernel ended.
struct KernelExitState {
  std::string kernelName;
  std::shared_ptr<const KernelExitMessages> messages;
  /// Set when the command finished (before its event's status is): the
  /// kernel_exit status or fault code, 0 when the kernel ran to its end.
  std::optional<int32_t> status;
  /// The device's explanation of a fault (naming the kernel and address).
  std::string detail;
};

} // namespace polymux::cl
