// The two integrity checks of cl_polymux_device_status
// (doc/extensions/cl_polymux_device_status.md), run through the device's
// own compiler, command buffers and queue: a memory check that writes and
// verifies patterns over a block of free global memory and over __local
// memory, and an ALU check that runs known-answer kernels with one
// work-group per compute unit and compares against answers computed here.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace mux {
class Device;
}

namespace polymux::cl {

enum class IntegrityCheckKind { Memory, Alu };

struct IntegrityCheckResult {
  bool passed = false;
  /// What was checked and what was found (or why the check could not run).
  std::string message;
};

/// The kernels of both checks for one device, built on first use.
class IntegrityKernels;

class IntegrityChecker {
public:
  explicit IntegrityChecker(mux::Device &device);
  ~IntegrityChecker();
  /// Runs one check to its end. The caller holds the device's other work
  /// back (DispatchGate) and waits for what was dispatched before.
  /// `progress` (0..99) rises as the check's passes finish.
  IntegrityCheckResult run(IntegrityCheckKind kind, std::atomic<uint32_t> &progress);

  /// Bytes of global memory the memory check tests at most.
  static constexpr uint64_t kMaxMemoryCheckBytes = 16ull << 20;

private:
  mux::Device &device_;
  std::unique_ptr<IntegrityKernels> kernels_;
};

} // namespace polymux::cl
