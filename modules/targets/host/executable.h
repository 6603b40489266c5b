// Host executables: object code produced by the host compiler, linked into
// the process with LLVM ORC. Owned by the compiler side of the host target;
// the runtime side (command_buffer.cpp) calls HostKernel::entry().
#pragma once

#include "compiler/abi/cpu_kernel_abi.h"
#include "mux/device_info.h"
#include "mux/executable.h"

#include <memory>
#include <span>

namespace compiler {
class Target;
}

namespace host {

class HostKernel : public mux::Kernel {
public:
  /// Runs one work-group (see compiler/abi/cpu_kernel_abi.h).
  virtual compiler::abi::CpuKernelEntry entry() const = 0;
  /// Bytes of barrier state per work-item (WorkGroupInfo::workItemState).
  virtual uint64_t workItemStateSize() const = 0;
  /// Whether launches need a printf buffer, and the table that decodes it.
  virtual bool usesPrintf() const = 0;
  virtual std::span<const std::byte> printfTable() const = 0;
};

/// Loads a binary made by the host compiler. Fails with a StatusError when
/// the bytes are not a host binary or do not link.
llvm::Expected<std::unique_ptr<mux::Executable>> loadExecutable(std::span<const std::byte> binary,
                                                                const mux::DeviceInfo &info);

/// The host compiler for a device described by `info` (its CPU features,
/// extensions and limits come from there).
std::unique_ptr<compiler::Target> createHostCompiler(const mux::DeviceInfo &info);

} // namespace host
