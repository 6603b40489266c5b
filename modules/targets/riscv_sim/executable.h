// riscv_sim executables: the static ELF a program was linked into (the
// binary's object), loaded into segments of guest memory, and its kernels.
#pragma once

#include "device_description.h"

#include "compiler/cpu_binary.h"
#include "mux/executable.h"
#include "riscv_sim/decoded_code.h"

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace riscv_sim {

/// The cpu_binary.h magic of riscv_sim binaries.
inline constexpr std::string_view kBinaryMagic = "PMXRV64";

/// One PT_LOAD segment of a loaded program, backed by host memory.
struct Segment {
  uint64_t base = 0; ///< guest address
  uint64_t size = 0;
  bool writable = false;
  bool executable = false;
  std::unique_ptr<std::byte[]> host;
};

/// A program loaded for the device: its segments (the data segment holds the
/// program-scope variables, shared by every launch), the kernel table and
/// the printf formats. Kernels keep it alive.
class LoadedProgram {
public:
  /// Fails with InvalidArgument when `binary` is not a riscv_sim binary, its
  /// ELF is malformed, a segment lies outside the program window, or a
  /// kernel has no entry point.
  static llvm::Expected<std::shared_ptr<LoadedProgram>> load(std::span<const std::byte> binary,
                                                             const DeviceDescription &description);

  std::span<const Segment> segments() const { return segments_; }
  const compiler::CpuBinary &binary() const { return binary_; }
  /// Guest address of `__polymux_entry_<name>`, or 0.
  uint64_t entryOf(std::string_view name) const;
  /// The executable segment, decoded once for every hart that runs it.
  const std::shared_ptr<const sim::DecodedCode> &code() const { return code_; }

private:
  std::vector<Segment> segments_;
  std::shared_ptr<const sim::DecodedCode> code_;
  compiler::CpuBinary binary_;
  std::vector<std::pair<std::string, uint64_t>> entries_;
};

class Kernel final : public mux::Kernel {
public:
  Kernel(std::shared_ptr<const LoadedProgram> program, const compiler::CpuKernelBinaryInfo &info, uint64_t entry,
         size_t maxWorkGroupSize)
      : program_(std::move(program)), info_(info), entry_(entry), maxWorkGroupSize_(maxWorkGroupSize) {}

  const std::string &name() const override { return info_.name; }
  size_t maxWorkGroupSize() const override { return maxWorkGroupSize_; }
  size_t preferredWorkGroupSizeMultiple() const override { return 1; }
  uint32_t subGroupSize(size_t localSize) const override {
    return static_cast<uint32_t>(std::min<size_t>(info_.subGroupSize, localSize));
  }
  uint64_t localMemSize() const override { return info_.localMemSize; }
  uint64_t privateMemSize() const override { return info_.privateMemSize; }

  const LoadedProgram &program() const { return *program_; }
  const compiler::CpuKernelBinaryInfo &info() const { return info_; }
  uint64_t entry() const { return entry_; }

private:
  std::shared_ptr<const LoadedProgram> program_;
  compiler::CpuKernelBinaryInfo info_;
  uint64_t entry_;
  size_t maxWorkGroupSize_;
};

/// Loads `binary` and hands out its kernels.
llvm::Expected<std::unique_ptr<mux::Executable>>
loadExecutable(std::span<const std::byte> binary, const DeviceDescription &description, size_t maxWorkGroupSize);

} // namespace riscv_sim
