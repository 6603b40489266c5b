// How a kernel launch is laid out for the CPU kernel ABI (cpu_kernel_abi.h),
// shared by every target that runs CPU-style binaries (host, riscv_sim):
// the packed arguments with buffer device addresses filled in, the layout of
// a work-group's __local area and barrier state, the printf buffer, and the
// WorkGroupInfo of each work-group. Where those areas live is the target's
// business; the plan only says how big they are and what goes where.
#pragma once

#include "compiler/abi/cpu_kernel_abi.h"
#include "mux/command_buffer.h"

#include "llvm/ADT/SmallVector.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace compiler::abi {

/// What the binary says about one kernel (cpu_binary.h).
struct CpuKernelFacts {
  std::string name;
  uint64_t localMemSize = 0;      ///< static __local variables per group
  uint64_t workItemStateSize = 0; ///< barrier state per work-item
  bool usesPrintf = false;
  size_t maxWorkGroupSize = 1;
};

class CpuLaunchPlan {
public:
  /// Alignment of the __local area, of each __local argument in it and of
  /// the barrier state.
  static constexpr uint64_t kAreaAlignment = 128;

  /// Validates and lays out one launch. Buffer arguments become
  /// buffer->deviceAddress() + offset. InvalidArgument for a bad range, an
  /// unbound buffer or an offset past its end; OutOfResources when the
  /// __local memory needed exceeds `localMemLimit`.
  static llvm::Expected<CpuLaunchPlan> create(const CpuKernelFacts &kernel, std::span<const mux::KernelArg> args,
                                              const mux::NDRange &range, uint64_t localMemLimit,
                                              uint64_t printfBufferSize);

  /// Bytes of the packed arguments.
  uint64_t argsSize() const { return args_.size(); }
  /// Writes the packed arguments to `destination` (argsSize() bytes, 128-byte
  /// aligned), the __local pointers aimed into a __local area that starts
  /// at device address `localArea`.
  void writeArgs(std::byte *destination, uint64_t localArea) const;
  /// Whether writeArgs() depends on `localArea` (the kernel has __local
  /// pointer arguments): otherwise one copy serves every work-group.
  bool argsDependOnLocalArea() const { return !localArgs_.empty(); }

  /// Bytes of one work-group's __local area (variables, then arguments).
  uint64_t localAreaSize() const { return localAreaSize_; }
  /// Bytes of one work-group's barrier state (0 without barriers).
  uint64_t workItemStateSize() const { return stateSize_; }
  /// Bytes of the printf buffer, header included (0 without printf).
  uint64_t printfBufferSize() const { return printfBufferSize_; }
  /// Initialises a printf buffer of printfBufferSize() bytes.
  void initPrintfBuffer(std::byte *buffer) const;

  uint64_t groupCount() const { return groupCount_; }
  /// The launch-wide fields; group, area and stack fields are zero.
  const WorkGroupInfo &baseInfo() const { return baseInfo_; }
  /// Sets groupId and localSize of `info` for linear group `index`
  /// (x fastest).
  void setGroup(WorkGroupInfo &info, uint64_t index) const;
  /// Moves `info`, set for some group, on to the next linear group: what
  /// setGroup(info, index + 1) does, without its divisions (a streaming
  /// kernel's groups take a few hundred nanoseconds each).
  void nextGroup(WorkGroupInfo &info) const;

private:
  struct LocalArg {
    uint64_t packedOffset; ///< of the pointer in the packed arguments
    uint64_t areaOffset;   ///< of the storage in the __local area
  };

  std::vector<std::byte> args_;
  llvm::SmallVector<LocalArg, 2> localArgs_;
  uint64_t localAreaSize_ = 0;
  uint64_t stateSize_ = 0;
  uint64_t printfBufferSize_ = 0;
  uint64_t groupCount_ = 0;
  WorkGroupInfo baseInfo_{};
};

} // namespace compiler::abi
