// IR passes specific to the vulkan target (LLVM new pass manager), one per
// file; vulkan_pipeline.cpp runs them.
#pragma once

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace compiler::spirv {

/// OpenCL's address spaces on the SPIR-V triple that the passes single out.
inline constexpr unsigned kPrivateAddressSpace = 0;
inline constexpr unsigned kLocalAddressSpace = 3;
inline constexpr unsigned kGenericAddressSpace = 4;
/// __global (1) and __constant (2): PhysicalStorageBuffer memory, reached
/// through buffer device addresses.
inline bool isBufferAddressSpace(unsigned addressSpace) { return addressSpace == 1 || addressSpace == 2; }

/// Makes every defined non-kernel function internal and always-inline.
struct InlineEverythingPass : llvm::PassInfoMixin<InlineEverythingPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// After the inliner: reports (reportBuildError) every call left in a
/// kernel to a defined function, i.e. recursion.
struct CheckFullyInlinedPass : llvm::PassInfoMixin<CheckFullyInlinedPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// After inlining: each kernel's image and sampler parameters (Clang's
/// spirv.Image / spirv.Sampler types) as compiler/abi/image_abi.h passes
/// them, a descriptor address and the CLK_* bits, and the builtins
/// library's handle functions resolved (lower_image_handles.cpp).
struct LowerImageHandlesPass : llvm::PassInfoMixin<LowerImageHandlesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Volatile loads and stores of private memory as plain ones
/// (plain_private_accesses.cpp).
struct PlainPrivateAccessesPass : llvm::PassInfoMixin<PlainPrivateAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// 128-bit integer arithmetic (mul_hi of 64-bit values) as 64-bit halves
/// (lower_wide_integers.cpp); what it cannot lower stays for the emitter to
/// refuse.
struct LowerWideIntegersPass : llvm::PassInfoMixin<LowerWideIntegersPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// any()/all() as `bitcast <N x i1> to iN` compared for equality: the
/// lanes' bits in a 32- or 64-bit integer (lower_mask_bitcasts.cpp).
struct LowerMaskBitcastsPass : llvm::PassInfoMixin<LowerMaskBitcastsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Integer and min/max vector reductions of any width as chains of their
/// operation (expand_odd_reductions.cpp): ExpandReductionsPass expands
/// power-of-two widths only.
struct ExpandOddReductionsPass : llvm::PassInfoMixin<ExpandOddReductionsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Bitcasts between integers and vectors SPIR-V cannot hold whole as element
/// extracts/inserts and shifts (expand_vector_integer_bitcasts.cpp).
struct ExpandVectorIntegerBitcastsPass : llvm::PassInfoMixin<ExpandVectorIntegerBitcastsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Loads and stores of structs and arrays as accesses of their scalar and
/// vector members at their DataLayout offsets, the extractvalues of what
/// they loaded or stored folded (split_aggregate_accesses.cpp).
struct SplitAggregateAccessesPass : llvm::PassInfoMixin<SplitAggregateAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Volatile vector loads and stores as volatile element accesses
/// (split_volatile_vectors.cpp).
struct SplitVolatileVectorsPass : llvm::PassInfoMixin<SplitVolatileVectorsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Whether `function` has a 64-bit atomic access (read-modify-write,
/// compare-exchange, atomic load or store) to __local memory: the emitter
/// then keeps its __local memory as 64-bit words.
bool usesLocalInt64Atomics(const llvm::Function &function);

/// In such a function, every 32-bit __local atomic as a compare-exchange
/// loop on the 64-bit word holding it (widen_local_atomics.cpp); before
/// structurisation, which the loop needs.
struct WidenLocalAtomicsPass : llvm::PassInfoMixin<WidenLocalAtomicsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// The builtins library's correctly rounded double fma in 64-bit integer
/// arithmetic (builtins/math/fma_in_integers.cl): `double (double, double,
/// double)`.
inline constexpr const char *kFmaInIntegersFunction = "__pmx_fma_f64_in_integers";
/// Declares kFmaInIntegersFunction in `module`, so that linking the builtins
/// library brings its definition.
void declareFmaInIntegers(llvm::Module &module);
/// For a device whose double fma rounds twice: every double fma whose result
/// must be exact (the kernels' own, the library's PMX_FMA_EXACT where a
/// kernel's double computation reaches it) as a call to
/// kFmaInIntegersFunction (emulate_double_fma.cpp).
/// After LowerExactBuiltinsPass (which makes fma() an llvm.fma), before
/// inlining.
struct EmulateDoubleFmaPass : llvm::PassInfoMixin<EmulateDoubleFmaPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// The longest memcpy/memmove/memset the emitter writes as word copies.
inline constexpr uint64_t kMaxWordTransfer = 1024;

/// Whether the emitter writes `intrinsic` as a sequence of word copies (a
/// constant length of whole words, word-aligned, a constant memset value).
bool isWordTransfer(const llvm::MemIntrinsic &intrinsic);

/// Every other memcpy, memmove and memset as a loop
/// (expand_memory_intrinsics.cpp).
struct ExpandMemoryIntrinsicsPass : llvm::PassInfoMixin<ExpandMemoryIntrinsicsPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Loads and stores of __global/__constant scalars aligned below their size
/// as accesses of alignment-sized pieces
/// (split_underaligned_global_accesses.cpp).
struct SplitUnderalignedGlobalAccessesPass : llvm::PassInfoMixin<SplitUnderalignedGlobalAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Declared by GuardBufferAccessesPass, implemented by the emitter
/// (compiler/abi/vulkan_kernel_abi.h, "Checked buffer accesses"):
/// `i64 (i32 range)`: the base and the size of range `range` (a constant
/// operand; the range numbers are below);
inline constexpr const char *kAccessRangeBaseFunction = "__polymux_access_range_base";
inline constexpr const char *kAccessRangeSizeFunction = "__polymux_access_range_size";
/// Range numbers: argument i's buffer is range i, the program-scope block
/// the kernel's argument count, and the texels of image argument i the
/// argument count + 1 + i.
inline unsigned programScopeRange(const llvm::Function &kernel) { return unsigned(kernel.arg_size()); }
inline unsigned texelRange(const llvm::Function &kernel, unsigned argument) {
  return unsigned(kernel.arg_size()) + 1 + argument;
}
/// `i64 ()`: the scratch area's address; `ptr addrspace(1) ()`: the
/// launch's AccessReport.
inline constexpr const char *kAccessScratchFunction = "__polymux_access_scratch";
inline constexpr const char *kAccessReportFunction = "__polymux_access_report";

/// Every __global/__constant access of a kernel checked against the ranges
/// its launch may reach; one outside them goes to a scratch area and is
/// reported (guard_buffer_accesses.cpp, compiler/abi/vulkan_kernel_abi.h).
struct GuardBufferAccessesPass : llvm::PassInfoMixin<GuardBufferAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// Metadata on a store (or memset/memcpy/memmove) to private memory that
/// provably stays inside its variable: on a GPU the emitter does not clamp
/// its word indices.
inline constexpr const char *kPrivateStoreInBounds = "polymux.private_store_in_bounds";
/// Marks such stores, as far as ScalarEvolution bounds their offsets
/// (mark_in_bounds_private_stores.cpp); the last pass before emission.
struct MarkInBoundsPrivateStoresPass : llvm::PassInfoMixin<MarkInBoundsPrivateStoresPass> {
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};
/// Target rules for LLVM's LoadStoreVectorizer after scalarisation: only
/// adjacent 32-bit __global/__constant accesses aligned to the run become
/// vector accesses, of up to four elements (vectorize_global_accesses.cpp).
/// This pipeline has no target machine to give them.
llvm::TargetIRAnalysis bufferVectorRules();

} // namespace compiler::spirv
