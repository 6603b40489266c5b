// One recorded ndrange on the host: packed arguments per cpu_kernel_abi.h,
// the __local layout, and the work-group loop run on the thread pool.
#pragma once

#include "compiler/abi/cpu_kernel_abi.h"
#include "executable.h"
#include "mux/device_info.h"
#include "mux/support/host_command_buffer.h"
#include "thread_pool.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <mutex>
#include <span>
#include <string>

namespace host {

class KernelLaunch final : public mux::support::KernelLaunch {
public:
  /// Validates and packs one launch. InvalidArgument for a foreign kernel or
  /// buffer, a bad range or argument; OutOfResources when the __local
  /// memory needed exceeds `localMemLimit`.
  static llvm::Expected<std::unique_ptr<KernelLaunch>> create(ThreadPool &pool, const mux::DeviceInfo &device,
                                                              mux::Kernel &kernel, std::span<const mux::KernelArg> args,
                                                              const mux::NDRange &range);
  ~KernelLaunch() override;
  /// KernelFault names the kernel, the device and the fault (the first one
  /// when several work-groups fault).
  mux::Outcome run() override;

private:
  explicit KernelLaunch(ThreadPool &pool, const mux::DeviceInfo &device) : pool_(pool), device_(device) {}
  /// Keeps the explanation of the launch's first fault (thread-safe).
  void recordFault(std::string reason);
  /// Copies the packed arguments into `scratch` with the __local pointers
  /// aimed at the worker's __local area behind them.
  const void *patchLocalArgs(std::byte *scratch) const;
  static void runGroups(void *self, unsigned worker, std::byte *scratch, uint64_t begin, uint64_t end);
  /// Writes what the kernel printed, in buffer order, to stdout.
  void flushPrintf();

  /// Where a __local argument's pointer goes and what it points at.
  struct LocalArg {
    uint64_t packedOffset; ///< in the packed arguments
    uint64_t localOffset;  ///< in the per-worker local area
  };

  ThreadPool &pool_;
  const mux::DeviceInfo &device_;
  const HostKernel *kernel_ = nullptr;
  compiler::abi::CpuKernelEntry entry_ = nullptr;
  std::byte *packed_ = nullptr; ///< 128-byte aligned packed arguments
  uint64_t packedSize_ = 0;
  llvm::SmallVector<LocalArg, 2> localArgs_;
  /// Per-worker scratch: [packed copy when there are __local args][local
  /// area][barrier state of every work-item of a group], 128-byte aligned.
  uint64_t localAreaOffset_ = 0;
  uint64_t localAreaSize_ = 0;
  uint64_t stateOffset_ = 0;
  uint64_t stateSize_ = 0;
  /// PrintfBufferHeader + record space, when the kernel calls printf.
  std::unique_ptr<uint64_t[]> printfBuffer_;
  uint64_t groupCount_ = 0;
  compiler::abi::WorkGroupInfo baseInfo_{};
  std::atomic<bool> faulted_{false};
  std::mutex faultMutex_;
  std::string faultReason_; ///< the first fault's, guarded by faultMutex_
};

/// The host command buffer: shared transfers, host kernel launches.
class CommandBuffer final : public mux::support::HostCommandBuffer {
public:
  CommandBuffer(ThreadPool &pool, const mux::DeviceInfo &device) : pool_(pool), device_(device) {}

protected:
  llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
  createLaunch(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) override;

private:
  ThreadPool &pool_;
  const mux::DeviceInfo &device_;
};

} // namespace host
