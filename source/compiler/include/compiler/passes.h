// The shared compiler passes (LLVM new pass manager), one per file under
// source/compiler/passes/. CPU-like targets run them in this order:
//   (linkBuiltinLibrary) -> GuardIntegerDivisionPass
//   -> LowerExactBuiltinsPass -> LowerAtomicBuiltinsPass -> PrepareInliningPass
//   -> AlwaysInlinerPass -> LowerGroupBuiltinsPass -> LowerWorkItemBuiltinsPass
//   -> LowerLocalVariablesPass -> LowerPrintfPass -> LowerKernelExitPass
//   -> LowerGenericAddressSpacePass -> VectorizeWorkItemsPass -> KernelWrapperPass
//   -> AlwaysInlinerPass -> checkUnresolvedSymbols
// (cpu_pipeline.h runs that sequence plus optimisation).
//
// After LowerWorkItemBuiltinsPass every kernel `k` is a work-item function
// `__polymux_work_item_k(args..., ptr info, i64 x, i64 y, i64 z)` (see
// kWorkItemAttribute); the passes after it find the WorkGroupInfo pointer as
// argument arg_size() - 4 and the local id as the last three.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace llvm {
class PassBuilder;
}

namespace compiler {

/// Function attribute that marks a work-item function; its value is the name
/// of the kernel it implements.
inline constexpr const char *kWorkItemAttribute = "polymux-work-item-function";
/// Prefix of the work-item function made from kernel `k`.
inline constexpr const char *kWorkItemPrefix = "__polymux_work_item_";

/// Integer string attributes the passes leave on a work-item function (and
/// KernelWrapperPass carries over to the entry point), read by
/// lowerKernelsForCpu into the binary's per-kernel information:
/// bytes of __local variables (the start of WorkGroupInfo::localMemory).
inline constexpr const char *kLocalMemSizeAttribute = "polymux-local-mem-size";
/// Bytes of barrier state per work-item (WorkGroupInfo::workItemState); on
/// the entry point only.
inline constexpr const char *kWorkItemStateSizeAttribute = "polymux-work-item-state-size";
/// Present when the kernel calls printf.
inline constexpr const char *kUsesPrintfAttribute = "polymux-uses-printf";

/// The work-item functions with a body in `module`, in module order.
llvm::SmallVector<llvm::Function *, 8> workItemFunctions(llvm::Module &module);
/// The value of `function`'s integer string attribute `name` (the
/// attributes above), 0 when it has none.
uint64_t integerAttribute(const llvm::Function &function, llvm::StringRef name);

/// True for the OpenCL C work-group and sub-group barrier builtins
/// (barrier, work_group_barrier, sub_group_barrier, with or without scope).
bool isBarrierFunction(llvm::StringRef mangledName);
/// True for sub_group_barrier, with or without scope.
bool isSubGroupBarrierFunction(llvm::StringRef mangledName);

/// Records a build error a pass found (a kernel the device cannot run, a
/// malformed printf): the pipeline fails the build with every recorded
/// message once the passes have run. `message` is a build-log line.
void reportBuildError(llvm::Module &module, const llvm::Twine &message);
/// Removes the recorded build errors from `module` and returns them as one
/// Status::Failure error; success when there are none.
llvm::Error takeBuildErrors(llvm::Module &module);

/// compiler::abi::WorkGroupInfo as an IR struct type.
llvm::StructType *workGroupInfoType(llvm::LLVMContext &context);

/// Fails with Status::Failure listing every function the module calls but
/// neither defines nor can get from the executor (intrinsics, memcpy,
/// memset, memmove). The message is meant for the build log.
llvm::Error checkUnresolvedSymbols(const llvm::Module &module);

/// Gives bodies to the OpenCL builtins that map exactly onto LLVM
/// intrinsics or a few instructions (fabs, sqrt, fma, floor, min, clamp,
/// popcount, rotate, mul_hi, ...), scalar and vector.
/// OpenCL C: "a divide by zero with integer types does not cause an
/// exception but will result in an unspecified value", and neither does a
/// signed division that overflows (INT_MIN / -1). LLVM's sdiv/udiv/srem/urem
/// are undefined there and CPUs trap, so every integer division or
/// remainder whose divisor may be zero (or -1 for a signed one) divides by 1
/// instead in those cases: x / 0 = x, x % 0 = 0, INT_MIN / -1 = INT_MIN.
struct GuardIntegerDivisionPass : llvm::PassInfoMixin<GuardIntegerDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

struct LowerExactBuiltinsPass : llvm::PassInfoMixin<LowerExactBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Gives bodies to the OpenCL 1.x atomics (atomic_add, atom_cmpxchg, ...)
/// and mem_fence / read_mem_fence / write_mem_fence: sequentially
/// consistent atomicrmw, cmpxchg and fence instructions; and to the C11
/// atomics (atomic_load/store/exchange/compare_exchange/fetch_*, atomic_flag,
/// atomic_work_item_fence, every order and scope form) with the orderings and
/// scopes they name (lower_c11_atomic_builtins.cpp).
struct LowerAtomicBuiltinsPass : llvm::PassInfoMixin<LowerAtomicBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Makes every defined non-kernel function internal and always-inline (and
/// drops noinline/optnone) so that kernels become single functions that the
/// work-item passes can rewrite. OpenCL C has no recursion.
struct PrepareInliningPass : llvm::PassInfoMixin<PrepareInliningPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Makes volatile loads and stores of private variables (allocas) plain
/// ones: nobody but their work-item can see them, and volatile would keep
/// them out of registers (clear_private_volatile.cpp).
struct ClearPrivateVolatilePass : llvm::PassInfoMixin<ClearPrivateVolatilePass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Turns each kernel `k` into an internal work-item function
/// `__polymux_work_item_k(args..., ptr info, i64 x, i64 y, i64 z)` in which the
/// work-item builtins (get_global_id, get_local_size, ...) are loads from the
/// WorkGroupInfo `info` combined with the local id (x, y, z). The kernel
/// itself is removed. With `maxWorkGroupSize`, each local id argument gets
/// its range (below the kernel's reqd_work_group_size, or below the largest
/// work-group the target runs), so that `tid % 8` on a local id becomes a
/// mask and the vectoriser can see its lanes step by one.
struct LowerWorkItemBuiltinsPass : llvm::PassInfoMixin<LowerWorkItemBuiltinsPass> {
  explicit LowerWorkItemBuiltinsPass(uint64_t maxWorkGroupSize = 0) : maxWorkGroupSize(maxWorkGroupSize) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  uint64_t maxWorkGroupSize;
};

/// Implements the work-group and sub-group collective builtins
/// (work_group_reduce/scan/broadcast/any/all, their sub_group_ forms) and the
/// sub-group queries (get_sub_group_size, ...) with __local scratch
/// variables, barriers and work-item builtins, which the later passes lower.
/// On CPU targets a sub-group is Options::subGroupSize consecutive work-items
/// (local linear id), the last one of a work-group partial. Targets with
/// sub-groups of their own (vulkan) lower only the work_group_ forms.
struct LowerGroupBuiltinsPass : llvm::PassInfoMixin<LowerGroupBuiltinsPass> {
  struct Options {
    /// The size of the sub-groups the pass implements the sub_group_
    /// builtins and queries for; 0 leaves them to the target.
    uint64_t subGroupSize = 0;
    /// The largest work-group the target runs: the scratch has a slot per
    /// work-item.
    uint64_t maxWorkGroupSize = 1024;
    /// Where a reduction leaves its result: in a slot of its own after the
    /// work-items' ones (the next collective may then reuse the scratch at
    /// once), or in slot 0 followed by a third barrier, which keeps the
    /// scratch to one slot per work-item (GPUs, whose __local memory is
    /// small and whose barriers are cheap).
    bool resultSlotAfterItems = true;
    /// The scratch variable's address space: the module's default for
    /// globals on CPU targets (which have one flat space), OpenCL's __local
    /// space (3) on targets that keep it.
    std::optional<unsigned> scratchAddressSpace;
    /// Leaves each sub-group collective as a marker call with its scratch,
    /// local linear id and work-group size (compiler/group_collectives.h),
    /// for the work-item vectoriser to turn into vector operations;
    /// LowerSubGroupCollectiveMarkersPass lowers the markers left.
    bool deferSubGroupCollectives = false;
  };
  LowerGroupBuiltinsPass() = default;
  explicit LowerGroupBuiltinsPass(Options options) : options(options) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  Options options;
};

/// Lowers the sub-group collective markers that LowerGroupBuiltinsPass
/// deferred (Options::deferSubGroupCollectives) and the vectoriser left, as
/// LowerGroupBuiltinsPass would have: through the scratch, between
/// sub-group barriers. `options` must be the ones that pass ran with.
struct LowerSubGroupCollectiveMarkersPass : llvm::PassInfoMixin<LowerSubGroupCollectiveMarkersPass> {
  explicit LowerSubGroupCollectiveMarkersPass(LowerGroupBuiltinsPass::Options options) : options(options) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  LowerGroupBuiltinsPass::Options options;
};

/// Gives each work-item function's __local variables (those it uses,
/// including through functions inlined into it) offsets in
/// WorkGroupInfo::localMemory and sets kLocalMemSizeAttribute.
struct LowerLocalVariablesPass : llvm::PassInfoMixin<LowerLocalVariablesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Declared by LowerPrintfPass for targets without a WorkGroupInfo: returns
/// the launch's printf buffer (a __global pointer); the target's code
/// generator implements it (the vulkan target reads a launch field).
inline constexpr const char *kPrintfBufferFunction = "__polymux_printf_buffer";

/// Turns printf calls into records appended to the launch's printf buffer
/// (compiler/abi/printf_abi.h), sets kUsesPrintfAttribute on the function
/// holding the call, and keeps the format table in the module for
/// takePrintfTable(). CPU-like targets lower the calls of work-item functions
/// and find the buffer in WorkGroupInfo::printfBuffer; the others lower the
/// calls of every defined function (after inlining: of the kernels) and get
/// the buffer from kPrintfBufferFunction.
struct LowerPrintfPass : llvm::PassInfoMixin<LowerPrintfPass> {
  enum class BufferSource { WorkGroupInfo, BufferFunction };
  explicit LowerPrintfPass(BufferSource source = BufferSource::WorkGroupInfo) : source(source) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  BufferSource source;
};

/// cl_polymux_kernel_exit's OpenCL C functions (opencl_c/polymux_extensions.h).
inline constexpr const char *kKernelExitFunction = "__polymux_kernel_exit";
inline constexpr const char *kIsKernelExitingFunction = "__polymux_is_kernel_exiting";
/// Present on a work-item function that may call kernel_exit: it keeps the
/// scalar form, and with barriers runs in rounds (KernelWrapperPass), so
/// that a work-item that has left counts as having reached every barrier.
inline constexpr const char *kCallsKernelExitAttribute = "polymux-calls-kernel-exit";

/// Declared by LowerKernelExitPass for targets without a WorkGroupInfo:
/// returns the launch's exit record (a __global int); the target's code
/// generator implements it (the vulkan target reads a launch field).
inline constexpr const char *kKernelExitRecordFunction = "__polymux_kernel_exit_record";

/// Called by LowerKernelExitPass (RecordFunction) where a work-item that
/// left goes on with its work-group: from there on, its accesses outside
/// its buffers are not faults. The vulkan target's GuardBufferAccessesPass
/// removes the calls.
inline constexpr const char *kKernelExitLeftFunction = "__polymux_kernel_exit_left";

/// Turns kernel_exit(status) into recording the status in the launch's exit
/// record (the first status wins, except that a non-zero status replaces a
/// zero one) and a return, and is_kernel_exiting() into a load of the
/// record. CPU-like targets (WorkGroupInfo) lower the calls of work-item
/// functions, whose runtime starts no work-group once the record is set.
/// Targets without one (RecordFunction) lower the calls of kernels, each of
/// which then starts with a work-group-uniform check of the record (one
/// __local flag and a barrier). There a work-item that returned would never
/// reach a later barrier, so an exit that a barrier may follow (the kernel's
/// own, or one of the work-group functions LowerGroupBuiltinsPass lowered
/// before) does not return: the work-item goes on from where the ways
/// around the exit meet again (passes/exit_join.h), with its side effects
/// masked (passes/mask_after_kernel_exit.h); a loop with work-group
/// barriers that only kernel_exit leaves returns once the whole work-group
/// has left (passes/exit_all_left.h). Where those ways never meet again
/// before a barrier, the exit is a build error. Calls left elsewhere are
/// build errors.
struct LowerKernelExitPass : llvm::PassInfoMixin<LowerKernelExitPass> {
  enum class RecordSource { WorkGroupInfo, RecordFunction };
  explicit LowerKernelExitPass(RecordSource source = RecordSource::WorkGroupInfo) : source(source) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  RecordSource source;
};

/// Removes the printf format table LowerPrintfPass left in `module` and
/// returns it encoded (printf_abi.h); empty when there is none.
std::vector<std::byte> takePrintfTable(llvm::Module &module);

/// Implements to_global, to_local, to_private and get_fence by comparing
/// the pointer with the __local area and private memory ranges of the
/// WorkGroupInfo.
struct LowerGenericAddressSpacePass : llvm::PassInfoMixin<LowerGenericAddressSpacePass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// For each work-item function, emits the CPU entry point
/// `void __polymux_entry_k(const void *packedArgs, const WorkGroupInfo *info)`
/// (compiler/abi/cpu_kernel_abi.h): it unpacks the arguments and loops z, y, x
/// over info->localSize calling the (always-inline) work-item function, or,
/// for a kernel with a vector form (kVectorFormAttribute), the vector form
/// for each full group of its width along x and the work-item function for
/// the rest. A kernel with barriers (isBarrierFunction) is split into barrier regions
/// (passes/barrier_regions.h): region r runs from barrier r (0: the start)
/// to the next barrier or the end, as an always-inline function returning
/// where it stopped; the entry runs the work-item loops of region 0, then of
/// the region that returned, until the end. With sub-group barriers, which
/// the sub-groups of a work-group may reach in different places, each
/// work-item keeps the region it resumes at instead (see kernel_wrapper.cpp).
/// Values and private variables
/// live across a barrier are kept per work-item in
/// WorkGroupInfo::workItemState (kWorkItemStateSizeAttribute bytes each, set
/// on entries of kernels with barriers); values computed only from the
/// arguments are recomputed instead. No barrier call remains.
struct KernelWrapperPass : llvm::PassInfoMixin<KernelWrapperPass> {
  /// With `vectorBits`, the barrier regions of kernels without sub-group
  /// barriers are vectorised across work-items too (vectorizeRegions in
  /// passes/vectorize_work_item.h: one width for all regions, the barrier
  /// state of a block of lanes kept field by field), and each region runs
  /// its vector forms for the full blocks of lanes along x. Kernels with
  /// sub-group barriers run in rounds, or, where every sub-group is whole
  /// and within one row, through the vector forms VectorizeWorkItemsPass
  /// made of the kernel or of its regions (passes/sub_group_region_forms.h).
  explicit KernelWrapperPass(unsigned vectorBits = 0) : vectorBits(vectorBits) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  unsigned vectorBits;
};

/// String attributes VectorizeWorkItemsPass leaves on a work-item function
/// it vectorised: the name of its vector form and the form's width.
inline constexpr const char *kVectorFormAttribute = "polymux-vector-form";
inline constexpr const char *kVectorWidthAttribute = "polymux-vector-width";

/// The whole-function vectoriser across work-items: for each work-item
/// function `f` that it can vectorise with profit, adds `f.vN`, the same
/// function for N consecutive work-items of dimension 0 in SIMD lanes (N =
/// `vectorBits` / the width of the kernel's widest varying floating-point
/// type, times 4 for small loops that carry a varying value).
/// KernelWrapperPass then runs full groups of N lanes through it and the
/// rest of a work-group through `f`. Uniform values stay scalar
/// (work_item_uniformity.h), divergent branches and loops become masks
/// (linearize_divergence.h), memory accesses become vector, masked,
/// gather/scatter or per-lane ones (widen_work_item.h). Kernels it leaves
/// alone keep the scalar loops: kernels with work-group barriers or
/// collectives or printf, kernels built with debug information, loops nested in a loop
/// whose exit differs between lanes, and kernels where most work, or any
/// work on vector types, would run lane by lane.
struct VectorizeWorkItemsPass : llvm::PassInfoMixin<VectorizeWorkItemsPass> {
  /// `subGroupSize`: the target's sub-group size (0: none). A kernel with
  /// sub-group collective markers or sub-group barriers is vectorised at
  /// exactly that width, each vector one sub-group: the collectives become
  /// vector operations and the barriers nothing. KernelWrapperPass runs
  /// such a vector form only for work-groups whose size along x is a
  /// multiple of its width (all sub-groups full, none across two rows).
  /// A kernel that also waits at work-group barriers gets such vector forms
  /// of its barrier regions instead (passes/sub_group_region_forms.h).
  explicit VectorizeWorkItemsPass(unsigned vectorBits, unsigned subGroupSize = 0)
      : vectorBits(vectorBits), subGroupSize(subGroupSize) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  unsigned vectorBits;
  unsigned subGroupSize;
};

/// Runs `passes` over `module` with analyses freshly registered by `builder`
/// (give the builder that made the pipeline, so target analyses match).
/// `registerFirst`, when given, registers function analyses before the
/// builder's defaults, which then keep them (a TargetIRAnalysis of a
/// pipeline without a target machine).
void runModulePasses(llvm::Module &module, llvm::PassBuilder &builder, llvm::ModulePassManager &passes,
                     llvm::function_ref<void(llvm::FunctionAnalysisManager &)> registerFirst = nullptr);
/// The same with a default (target-independent) PassBuilder.
void runModulePasses(llvm::Module &module, llvm::ModulePassManager &passes);

} // namespace compiler
