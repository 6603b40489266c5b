// compiler::Target for CPU-like devices: OpenCL C -> LLVM bitcode modules ->
// an object file in the cpu_binary.h container, with kernels called through
// compiler/abi/cpu_kernel_abi.h.
#pragma once

#include "compiler/target.h"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace compiler {

struct CpuTargetConfig {
  std::string name; ///< the Mux target, e.g. "host" (part of identity())
  std::string triple;
  std::string cpu;      ///< LLVM CPU name
  std::string features; ///< LLVM feature string ("+avx2,-avx512f,...")
  /// Extensions and OpenCL C feature macros the device supports.
  std::vector<std::string> extensions;
  unsigned maxClStd = 300;             ///< highest -cl-std accepted (100 * major + 10 * minor)
  std::string binaryMagic = "PMXHOST"; ///< cpu_binary.h magic, 7 chars at most
  /// The builtins library compiled for `triple` (PolymuxBuiltins.cmake);
  /// it must outlive the target. Empty: programs get no library builtins.
  std::span<const std::byte> builtinLibrary;
};

std::unique_ptr<Target> createCpuTarget(CpuTargetConfig config);

} // namespace compiler
