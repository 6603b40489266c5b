// Result codes of the Mux HAL and their llvm::Error carrier.
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

namespace mux {

/// What a HAL verb or a dispatched command buffer ended with.
enum class Status {
  Success = 0,
  OutOfMemory,     ///< device or host allocation failed
  OutOfResources,  ///< e.g. too many threads, queue full
  InvalidArgument, ///< caller broke a documented precondition
  Unsupported,     ///< the target cannot do this (feature missing)
  Timeout,         ///< a timed wait ran out
  KernelFault,     ///< a kernel faulted (bad access, trap, integer /0)
  DeviceLost,      ///< the device cannot continue
  Failure,         ///< anything else
};

const char *statusName(Status status);

/// What a command or a dispatch ended with: its Status and, for a failure,
/// the target's explanation. `detail` is one sentence naming what failed,
/// where and why, without a product prefix, e.g. "kernel 'k' faulted on
/// device 'D': invalid memory access (SIGSEGV) at address 0x10"; it is empty
/// on success and when the target has nothing to add to the Status. Converts
/// to Status, so code (and callbacks) that only need the Status take that.
struct Outcome {
  Status status = Status::Success;
  std::string detail;
  /// Instructions the device retired running the command, on targets that
  /// count them (simulators); 0 elsewhere.
  uint64_t instructionsRetired = 0;
  /// cl_polymux_kernel_exit: for a kernel command, the status a work-item
  /// passed to kernel_exit, or the code of the fault that ended the kernel
  /// (mux/kernel_exit.h); empty when the kernel ran to its end.
  std::optional<int32_t> kernelExitStatus;

  Outcome() = default;
  Outcome(Status status, std::string detail = {}) : status(status), detail(std::move(detail)) {}
  operator Status() const { return status; }
};

/// An llvm::Error that carries a Status, so callers can map it to an API code.
class StatusError : public llvm::ErrorInfo<StatusError> {
public:
  static char ID;
  StatusError(Status status, std::string message) : status_(status), message_(std::move(message)) {}
  Status status() const { return status_; }
  /// The detail text alone (log() prefixes the status name).
  std::string message() const override { return message_; }
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  Status status_;
  std::string message_;
};

inline llvm::Error makeError(Status status, std::string message = {}) {
  return llvm::make_error<StatusError>(status, std::move(message));
}

/// Consumes `error` and returns its Status (Failure for foreign errors).
Status takeStatus(llvm::Error error);

} // namespace mux
