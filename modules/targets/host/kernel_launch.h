// One recorded ndrange on the host: packed arguments per cpu_kernel_abi.h,
// the __local layout, and the work-group loop run on the thread pool.
#pragma once

#include "compiler/abi/cpu_launch_plan.h"
#include "executable.h"
#include "mux/device_info.h"
#include "mux/support/host_command_buffer.h"
#include "mux/support/thread_pool.h"

#include <atomic>
#include <mutex>
#include <span>
#include <string>

namespace host {

class KernelLaunch final : public mux::support::KernelLaunch {
public:
  /// Validates and lays out one launch (compiler/abi/cpu_launch_plan.h).
  /// InvalidArgument for a foreign kernel or buffer, a bad range or
  /// argument; OutOfResources when the __local memory needed exceeds the
  /// device's.
  static llvm::Expected<std::unique_ptr<KernelLaunch>> create(mux::support::ThreadPool &pool, const mux::DeviceInfo &device,
                                                              mux::Kernel &kernel, std::span<const mux::KernelArg> args,
                                                              const mux::NDRange &range);
  ~KernelLaunch() override;
  /// KernelFault names the kernel, the device and the fault (the first one
  /// when several work-groups fault).
  mux::Outcome run() override;
  uint64_t workGroupCount() const override { return plan_.groupCount(); }

private:
  KernelLaunch(mux::support::ThreadPool &pool, const mux::DeviceInfo &device, const HostKernel &kernel,
               compiler::abi::CpuLaunchPlan plan);
  /// Keeps the explanation of the launch's first fault (thread-safe).
  /// Keeps the first fault's explanation and exit code (mux/kernel_exit.h).
  void recordFault(std::string reason, int32_t exitStatus);
  static void runGroups(void *self, unsigned worker, std::byte *scratch, uint64_t begin, uint64_t end);
  /// Writes what the kernel printed, in buffer order, to stdout.
  void flushPrintf();

  mux::support::ThreadPool &pool_;
  const mux::DeviceInfo &device_;
  const HostKernel &kernel_;
  const compiler::abi::CpuLaunchPlan plan_;
  /// 128-byte aligned packed arguments, shared by every worker when the
  /// kernel has no __local pointer arguments.
  std::byte *packed_ = nullptr;
  /// Per-worker scratch: [packed copy when there are __local args][local
  /// area][barrier state of every work-item of a group], 128-byte aligned.
  uint64_t localAreaOffset_ = 0;
  uint64_t stateOffset_ = 0;
  uint64_t scratchSize_ = 0;
  /// The plan's printf buffer, when the kernel calls printf.
  std::unique_ptr<uint64_t[]> printfBuffer_;
  /// The launch's exit record (WorkGroupInfo::kernelExit), which kernel_exit
  /// sets; no work-group starts once it is set.
  std::atomic<int32_t> exitRecord_{compiler::abi::kKernelNotExiting};
  static_assert(std::atomic<int32_t>::is_always_lock_free && sizeof(std::atomic<int32_t>) == sizeof(int32_t),
                "kernel code updates the record as a plain int32_t");
  std::atomic<bool> faulted_{false};
  std::mutex faultMutex_;
  std::string faultReason_;   ///< the first fault's, guarded by faultMutex_
  int32_t faultExitStatus_{}; ///< its exit code, guarded by faultMutex_
};

/// The host command buffer: shared transfers, host kernel launches.
class CommandBuffer final : public mux::support::HostCommandBuffer {
public:
  CommandBuffer(mux::support::ThreadPool &pool, const mux::DeviceInfo &device) : pool_(pool), device_(device) {}

protected:
  llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
  createLaunch(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) override;

private:
  mux::support::ThreadPool &pool_;
  const mux::DeviceInfo &device_;
};

} // namespace host
