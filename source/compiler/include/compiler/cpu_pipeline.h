// The finalize pipeline for CPU-like targets (host, riscv_sim): the shared
// passes, LLVM optimisation and object emission.
#pragma once

#include "compiler/cpu_binary.h"
#include "compiler/kernel_info.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace compiler {

struct CodegenConfig {
  std::string triple;
  std::string cpu;
  std::string features; ///< "+avx2,-avx512f,..."
  std::string abi;      ///< e.g. "lp64d"; empty for the triple's default
  llvm::Reloc::Model relocationModel = llvm::Reloc::PIC_;
  llvm::CodeModel::Model codeModel = llvm::CodeModel::Small;
};

/// Registers LLVM's targets once (thread-safe).
void initializeLLVMTargets();

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const CodegenConfig &config, bool optDisable);

/// Runs the shared passes (see passes.h) on a linked module: afterwards it
/// defines one `__polymux_entry_<k>` per kernel and nothing else external.
/// Fails with the passes' errors (meant for the build log). On success
/// `binary` has one entry per kernel of `kernels` (kernelInfos() of the module
/// before this call) with its memory needs and flags, the printf table and
/// the size of the program-scope variables; its object is left empty.
/// Builtins the module calls are first linked from `builtinLibrary` (the
/// target's builtins bitcode, see builtin_library.h).
struct CpuLowering {
  /// Kernels are vectorised across work-items for vector registers of this
  /// many bits (VectorizeWorkItemsPass); 0 keeps the scalar work-item loops.
  unsigned vectorBits = 0;
  /// Work-items per sub-group (LowerGroupBuiltinsPass), recorded in the
  /// binary's kernels.
  unsigned subGroupSize = 1;
  /// The device's largest work-group: the collectives' scratch has a slot
  /// per work-item.
  uint64_t maxWorkGroupSize = 1024;
};
llvm::Error lowerKernelsForCpu(llvm::Module &module, const std::vector<KernelInfo> &kernels, CpuBinary &binary,
                               std::span<const std::byte> builtinLibrary = {}, const CpuLowering &lowering = {});

/// The O3 pipeline (O0 with `optDisable`) for `machine`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, bool optDisable);

/// Emits a relocatable object file.
llvm::Expected<std::vector<std::byte>> emitObject(llvm::Module &module, llvm::TargetMachine &machine);

/// Applies link-time math options (-cl-fast-relaxed-math, ...) to every
/// floating-point instruction and function of `module`.
void applyFastMathFlags(llvm::Module &module, bool noNaNsInfs, bool noSignedZeros, bool unsafe, bool denormsAreZero);

} // namespace compiler
