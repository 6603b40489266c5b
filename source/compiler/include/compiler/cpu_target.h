// compiler::Target for CPU-like devices: OpenCL C -> LLVM bitcode modules ->
// an object file in the cpu_binary.h container, with kernels called through
// compiler/abi/cpu_kernel_abi.h.
#pragma once

#include "compiler/cpu_binary.h"
#include "compiler/target.h"

#include "llvm/Support/CodeGen.h"

#include <cstddef>
#include <cstdint>
#include <functional>
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
  /// Bits of the vector registers kernels are vectorised across work-items
  /// for (VectorizeWorkItemsPass); 0 for none.
  unsigned vectorBits = 0;
  /// Work-items per sub-group (consecutive local linear ids; the device's
  /// DeviceInfo::subGroupSizes) and the largest work-group: they size the
  /// code of the sub-group builtins and the collectives' scratch.
  unsigned subGroupSize = 1;
  uint64_t maxWorkGroupSize = 1024;
  /// Extensions and OpenCL C feature macros the device supports.
  std::vector<std::string> extensions;
  unsigned maxClStd = 300;             ///< highest -cl-std accepted (100 * major + 10 * minor)
  std::string binaryMagic = "PMXHOST"; ///< cpu_binary.h magic, 7 chars at most
  /// The builtins library compiled for `triple` (PolymuxBuiltins.cmake);
  /// it must outlive the target. Empty: programs get no library builtins.
  std::span<const std::byte> builtinLibrary;

  // How this target's code is generated and linked.
  /// The ABI (e.g. "lp64d"); empty for the triple's default.
  std::string abi;
  /// Features the calling convention depends on, given to the front end as
  /// the builtins library was compiled (e.g. {"+d"} for lp64d). The host
  /// gives none: kernels and library use the x86-64 baseline.
  std::vector<std::string> frontendFeatures;
  /// PIC for code loaded anywhere (the host's JIT); Static for a program
  /// linked at the fixed addresses of a device's memory map.
  llvm::Reloc::Model relocationModel = llvm::Reloc::PIC_;
  llvm::CodeModel::Model codeModel = llvm::CodeModel::Small;
  /// The link step: turns the relocatable object of a program into the
  /// object the binary carries (e.g. a static ELF linked with lld against the
  /// device's memory map). Its errors fail the build and go to the log.
  /// Unset: the binary carries the relocatable object.
  std::function<llvm::Expected<std::vector<std::byte>>(std::span<const std::byte> object, const CpuBinary &binary)>
      link;
  /// What else the link step's output depends on (its linker script, its
  /// runtime objects): part of identity(), so binaries and cached programs
  /// are rebuilt when it changes.
  std::string linkIdentity;
  /// Reads SPIR-V programs (ProgramTargetConfig::readsSpirv).
  bool readsSpirv = false;
  /// The extension POLYMUX_DUMP gives the binary's object ("o", "elf").
  std::string dumpExtension = "o";
};

std::unique_ptr<Target> createCpuTarget(CpuTargetConfig config);

} // namespace compiler
