// The shared compiler passes (LLVM new pass manager), one per file under
// source/compiler/passes/. CPU-like targets run them in this order:
//   checkSupportedFeatures -> LowerExactBuiltinsPass -> LowerAtomicBuiltinsPass
//   -> PrepareInliningPass
//   -> AlwaysInlinerPass -> LowerWorkItemBuiltinsPass -> KernelWrapperPass
//   -> AlwaysInlinerPass -> checkUnresolvedSymbols
// (cpu_pipeline.h runs that sequence plus optimisation).
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace llvm {
class PassBuilder;
}

namespace compiler {

/// Function attribute that marks a work-item function; its value is the name
/// of the kernel it implements.
inline constexpr const char *kWorkItemAttribute = "polymux-work-item-function";
/// Prefix of the work-item function made from kernel `k`.
inline constexpr const char *kWorkItemPrefix = "__polymux_work_item_";

/// compiler::abi::WorkGroupInfo as an IR struct type.
llvm::StructType *workGroupInfoType(llvm::LLVMContext &context);

/// Fails with Status::Unsupported when a kernel uses a feature this compiler
/// cannot lower yet (barriers, __local variables). The message is meant for
/// the build log.
llvm::Error checkSupportedFeatures(const llvm::Module &module);

/// Fails with Status::Failure listing every function the module calls but
/// neither defines nor can get from the executor (intrinsics, memcpy,
/// memset, memmove). The message is meant for the build log.
llvm::Error checkUnresolvedSymbols(const llvm::Module &module);

/// Gives bodies to the OpenCL builtins that map exactly onto LLVM
/// intrinsics or a few instructions (fabs, sqrt, fma, floor, min, clamp,
/// popcount, rotate, mul_hi, ...), scalar and vector.
struct LowerExactBuiltinsPass : llvm::PassInfoMixin<LowerExactBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Gives bodies to the OpenCL 1.x atomics (atomic_add, atom_cmpxchg, ...)
/// and mem_fence / read_mem_fence / write_mem_fence: sequentially
/// consistent atomicrmw, cmpxchg and fence instructions.
struct LowerAtomicBuiltinsPass : llvm::PassInfoMixin<LowerAtomicBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Makes every defined non-kernel function internal and always-inline (and
/// drops noinline/optnone) so that kernels become single functions that the
/// work-item passes can rewrite. OpenCL C has no recursion.
struct PrepareInliningPass : llvm::PassInfoMixin<PrepareInliningPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Turns each kernel `k` into an internal work-item function
/// `__polymux_work_item_k(args..., ptr info, i64 x, i64 y, i64 z)` in which the
/// work-item builtins (get_global_id, get_local_size, ...) are loads from the
/// WorkGroupInfo `info` combined with the local id (x, y, z). The kernel
/// itself is removed.
struct LowerWorkItemBuiltinsPass : llvm::PassInfoMixin<LowerWorkItemBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// For each work-item function, emits the CPU entry point
/// `void __polymux_entry_k(const void *packedArgs, const WorkGroupInfo *info)`
/// (compiler/abi/cpu_kernel_abi.h): it unpacks the arguments and loops z, y, x
/// over info->localSize calling the (always-inline) work-item function.
struct KernelWrapperPass : llvm::PassInfoMixin<KernelWrapperPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Runs `passes` over `module` with analyses freshly registered by `builder`
/// (give the builder that made the pipeline, so target analyses match).
void runModulePasses(llvm::Module &module, llvm::PassBuilder &builder, llvm::ModulePassManager &passes);
/// The same with a default (target-independent) PassBuilder.
void runModulePasses(llvm::Module &module, llvm::ModulePassManager &passes);

} // namespace compiler
