#include "vulkan_pipeline.h"

#include "passes/vulkan_passes.h"

#include "compiler/builtin_library.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"
#include "mux/status.h"

#include "llvm/CodeGen/ExpandReductions.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

namespace compiler::spirv {

llvm::Error prepareForVulkan(llvm::Module &module, const VulkanTargetConfig &config, bool optDisable) {
  const bool emulateDoubleFma = config.fp64 && !config.exactDoubleFma;
  if (emulateDoubleFma)
    declareFmaInIntegers(module);
  if (llvm::Error error = linkBuiltinLibrary(module, config.builtinLibrary))
    return error;
  {
    llvm::ModulePassManager passes;
    passes.addPass(GuardIntegerDivisionPass());
    passes.addPass(LowerExactBuiltinsPass()); // fma() becomes llvm.fma here
    passes.addPass(LowerAtomicBuiltinsPass());
    if (emulateDoubleFma)
      passes.addPass(EmulateDoubleFmaPass());
    // Clang 22 keeps a callable copy of each kernel (__clang_ocl_kern_imp_<k>);
    // once inlined it is dead like every other non-kernel function.
    passes.addPass(InlineEverythingPass());
    passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
    passes.addPass(CheckFullyInlinedPass());
    passes.addPass(LowerImageHandlesPass());
    // Work-group collectives through __local scratch and barriers; the
    // sub-group ones are Vulkan subgroup operations (sub_group_emitter.cpp).
    LowerGroupBuiltinsPass::Options groups;
    groups.maxWorkGroupSize = config.maxWorkGroupSize;
    groups.scratchAddressSpace = kLocalAddressSpace;
    groups.resultSlotAfterItems = false;
    passes.addPass(LowerGroupBuiltinsPass(groups));
    passes.addPass(LowerPrintfPass(LowerPrintfPass::BufferSource::BufferFunction));
    // After the work-group functions' lowering: a work-item that leaves
    // before one of their barriers must go on to it (lower_kernel_exit.cpp).
    passes.addPass(LowerKernelExitPass(LowerKernelExitPass::RecordSource::RecordFunction));
    passes.addPass(PlainPrivateAccessesPass());
    runModulePasses(module, passes);
  }
  if (llvm::Error error = takeBuildErrors(module))
    return error;
  // Functions become internal (and dead once inlined); program-scope
  // variables keep their linkage, so the optimiser neither folds nor
  // narrows them: they persist between launches in their block.
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !isKernel(function))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  tuning.LoopUnrolling = false;
  llvm::PassBuilder builder(nullptr, tuning);
  llvm::ModulePassManager passes = optDisable ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                              : builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  passes.addPass(llvm::GlobalDCEPass());
  // Everything is inlined, so generic pointers (address space 4, from the
  // library's __generic forms) mostly come from one known space; what stays
  // generic fails in the emitter. Vector reductions become lane operations.
  {
    llvm::FunctionPassManager functionPasses;
    functionPasses.addPass(llvm::InferAddressSpacesPass(kGenericAddressSpace));
    functionPasses.addPass(llvm::ExpandReductionsPass());
    passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(functionPasses)));
  }
  // Whole structs (SPIR-V programs store them) as their members, before
  // scalarisation splits the vector members.
  passes.addPass(SplitAggregateAccessesPass());
  passes.addPass(ExpandOddReductionsPass());
  passes.addPass(LowerMaskBitcastsPass());
  passes.addPass(ExpandVectorIntegerBitcastsPass());
  passes.addPass(SplitVolatileVectorsPass());
  passes.addPass(ExpandMemoryIntrinsicsPass());
  passes.addPass(WidenLocalAtomicsPass());
  // GPUs run each work-item's code as scalars: vectors become scalars
  // (also those of 8 and 16 elements, which Vulkan SPIR-V does not have).
  // Then structured control flow, the order notes/vulkan-route.md measured
  // to give valid SPIR-V.
  if (llvm::Error error = builder.parsePassPipeline(
          passes, "function(scalarizer<load-store;variable-insert-extract>,instsimplify,dce,sroa,lower-switch,"
                  "mergereturn,fix-irreducible,unify-loop-exits,structurizecfg,loop-simplify)"))
    return error;
  runModulePasses(module, builder, passes);
  {
    llvm::ModulePassManager wide;
    if (!optDisable)
      wide.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::LoadStoreVectorizerPass()));
    wide.addPass(SplitUnderalignedGlobalAccessesPass());
    wide.addPass(LowerWideIntegersPass());
    wide.addPass(GuardBufferAccessesPass());
    wide.addPass(llvm::createModuleToFunctionPassAdaptor(MarkInBoundsPrivateStoresPass()));
    runModulePasses(module, builder, wide,
                    [](llvm::FunctionAnalysisManager &analyses) { analyses.registerPass(bufferVectorRules); });
  }
  // Constant expressions on variables (a GEP into a table) become
  // instructions: the emitter computes variable addresses at run time.
  llvm::SmallVector<llvm::Constant *, 8> variables;
  for (llvm::GlobalVariable &variable : module.globals())
    variables.push_back(&variable);
  llvm::convertUsersOfConstantsToInstructions(variables);
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(module, &stream))
    return mux::makeError(mux::Status::Failure, "internal compiler error: invalid IR after lowering: " + problems);
  return llvm::Error::success();
}

} // namespace compiler::spirv
