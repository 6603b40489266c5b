// One recorded ndrange on the simulated device: the launch laid out by the
// shared planner (compiler/abi/cpu_launch_plan.h), its printf buffer in
// DRAM, and the work-groups spread over the harts, each group one call of
// the kernel's entry point on one hart.
#pragma once

#include "compiler/abi/cpu_launch_plan.h"
#include "mux/support/host_command_buffer.h"
#include "mux/support/host_memory.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>

namespace riscv_sim {

class Device;
class Kernel;

class KernelLaunch final : public mux::support::KernelLaunch {
public:
  /// InvalidArgument for a foreign kernel or buffer, a bad range or
  /// argument; OutOfResources when the __local memory or the barrier state
  /// does not fit a hart's local memory.
  static llvm::Expected<std::unique_ptr<KernelLaunch>> create(Device &device, mux::Kernel &kernel,
                                                              std::span<const mux::KernelArg> args,
                                                              const mux::NDRange &range);
  /// KernelFault when a hart trapped: the kernel, the work-group and the
  /// trap (cause, pc, instruction, address). The outcome carries the
  /// instructions every hart retired (cl_polymux_instruction_counters).
  mux::Outcome run() override;
  uint64_t workGroupCount() const override { return plan_.groupCount(); }

private:
  KernelLaunch(Device &device, const Kernel &kernel, compiler::abi::CpuLaunchPlan plan);
  static void runGroups(void *self, unsigned hart, std::byte *, uint64_t begin, uint64_t end);
  /// Keeps the first fault's explanation and exit code (mux/kernel_exit.h).
  void recordFault(std::string reason, int32_t exitStatus);
  /// The exit record in device memory, as the harts' atomics see it.
  std::atomic_ref<int32_t> exitRecord() const;
  void flushPrintf();

  Device &device_;
  const Kernel &kernel_;
  const compiler::abi::CpuLaunchPlan plan_;
  /// Where things go in a hart's local memory (offsets from scratchBase).
  uint64_t argsOffset_ = 0;
  uint64_t localAreaOffset_ = 0;
  uint64_t stateOffset_ = 0;
  std::unique_ptr<mux::support::HostMemory> printfBuffer_; ///< in DRAM
  /// WorkGroupInfo::kernelExit: one int32_t in DRAM.
  std::unique_ptr<mux::support::HostMemory> exitRecord_;
  std::atomic<bool> faulted_{false};
  std::atomic<uint64_t> instructions_{0};
  std::mutex faultMutex_;
  std::string faultReason_;
  int32_t faultExitStatus_ = 0; ///< the first fault's exit code, guarded by faultMutex_
};

/// The riscv_sim command buffer: shared transfers (DRAM is host memory),
/// kernel launches on the harts.
class CommandBuffer final : public mux::support::HostCommandBuffer {
public:
  explicit CommandBuffer(Device &device) : device_(device) {}

protected:
  llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
  createLaunch(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) override;

private:
  Device &device_;
};

} // namespace riscv_sim
