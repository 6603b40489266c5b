// The work-item vectoriser's driver (VectorizeWorkItemsPass in
// compiler/passes.h): decides which work-item functions to vectorise and at
// which width, prepares a copy of each (simplified, one return block),
// linearises its divergent branches, widens it and keeps the result when it
// pays.
#include "compiler/passes.h"
#include "linearize_divergence.h"
#include "widen_work_item.h"
#include "work_item_uniformity.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"

namespace compiler {
namespace {

/// Private memory a vectorised call may take on the worker's stack: its
/// lanes' private variables side by side.
constexpr uint64_t kMaxVectorPrivateBytes = 64 * 1024;
/// Bounds on inlining calls into the vectoriser's input: nesting depth and
/// the size the input may grow to.
constexpr unsigned kMaxInliningRounds = 16;
constexpr unsigned kMaxInlinedInstructions = 20000;
/// Loops small enough to run several registers' worth of lanes in one call.
constexpr unsigned kMaxInterleavedLoopInstructions = 256;
constexpr unsigned kInterleavedRegisters = 4;

void discard(llvm::Function *function, llvm::FunctionAnalysisManager &analyses) {
  analyses.clear(*function, function->getName());
  function->eraseFromParent();
}

/// Whether `workItem` keeps only its scalar form whatever its code: built
/// with debug information (a debugger steps one work-item at a time), or
/// calling printf (whose output keeps the order of work-items).
bool keepsScalarForm(const llvm::Function &workItem) {
  return workItem.getSubprogram() || workItem.hasFnAttribute(kUsesPrintfAttribute);
}

/// Whether `function` synchronises work-items (barriers; work-group
/// collectives are lowered to them) or calls through a pointer: lanes of
/// one vector cannot wait for each other.
bool hasBarriersOrIndirectCalls(llvm::Function &function) {
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction(); !callee || isBarrierFunction(callee->getName()))
        return true;
  return false;
}

/// The width in bits of the widest floating-point type that varies between
/// work-items (32 when none does): the lanes of one vector register.
unsigned widestVaryingFloatBits(llvm::Function &function, const WorkItemUniformity &uniformity) {
  unsigned bits = 32;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (instruction.getType()->isFloatingPointTy() && uniformity.isVarying(&instruction))
      bits = std::max(bits, static_cast<unsigned>(instruction.getType()->getPrimitiveSizeInBits().getFixedValue()));
  return bits;
}

/// How many vector registers one call should fill per value: a small loop
/// that carries a varying value from one iteration to the next is one chain
/// of dependent operations per register, so several registers' worth of
/// work-items give the core independent chains to overlap (as a loop
/// vectoriser's interleaving would). `function` is linearised already.
unsigned registersPerValue(llvm::Function &function, const WorkItemUniformity &uniformity) {
  // Not for loops whose exit differs between lanes: more lanes, more of
  // them idle until the last one leaves.
  if (llvm::any_of(llvm::instructions(function),
                   [](llvm::Instruction &instruction) { return isAnyLaneCall(&instruction); }))
    return 1;
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    unsigned size = 0;
    for (llvm::BasicBlock *block : loop->blocks())
      size += block->size();
    if (size > kMaxInterleavedLoopInstructions)
      continue;
    for (llvm::PHINode &phi : loop->getHeader()->phis())
      if (uniformity.isVarying(&phi) && (phi.getType()->isFloatingPointTy() || phi.getType()->isIntegerTy()))
        return kInterleavedRegisters;
  }
  return 1;
}

uint64_t privateBytes(llvm::Function &function) {
  const llvm::DataLayout &layout = function.getDataLayout();
  uint64_t bytes = 0;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout); size && !size->isScalable())
        bytes += size->getFixedValue();
  return bytes;
}

/// Inlines every call of a function with a body (the builtins library's
/// functions, which the pipeline inlines only later) so that the vectoriser
/// sees, and widens, the builtins' own code. False when the result would be
/// too large to be worth vectorising.
bool inlineCalls(llvm::Function &function) {
  for (unsigned round = 0; round < kMaxInliningRounds; ++round) {
    llvm::SmallVector<llvm::CallBase *, 16> calls;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration() && callee != &function)
          calls.push_back(call);
    if (calls.empty())
      return true;
    for (llvm::CallBase *call : calls) {
      llvm::InlineFunctionInfo info;
      if (!llvm::InlineFunction(*call, info).isSuccess())
        return false;
    }
    if (function.getInstructionCount() > kMaxInlinedInstructions)
      return false;
  }
  return false;
}

/// A copy of `workItem` in the shape the vectoriser needs: calls inlined,
/// private variables in registers where possible, simplified, one return
/// block. Null when it would be too large.
llvm::Function *prepareCopy(llvm::Function &workItem, llvm::FunctionAnalysisManager &analyses) {
  llvm::ValueToValueMapTy map;
  llvm::Function *copy = llvm::CloneFunction(&workItem, map);
  copy->setName(workItem.getName() + ".vectorizer.input");
  if (!inlineCalls(*copy)) {
    discard(copy, analyses);
    return nullptr;
  }
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  passes.addPass(llvm::EarlyCSEPass());
  passes.addPass(llvm::InstCombinePass());
  passes.addPass(llvm::SimplifyCFGPass());
  passes.addPass(llvm::UnifyFunctionExitNodesPass());
  passes.addPass(llvm::LoopSimplifyPass());
  passes.run(*copy, analyses);
  return copy;
}

/// Adds the vector form of `workItem` when it pays; returns whether it did.
bool vectorize(llvm::Function &workItem, unsigned vectorBits, llvm::FunctionAnalysisManager &analyses) {
  if (keepsScalarForm(workItem) || hasBarriersOrIndirectCalls(workItem))
    return false;
  llvm::Function *input = prepareCopy(workItem, analyses);
  if (!input)
    return false;
  if (hasBarriersOrIndirectCalls(*input)) { // from an inlined builtin
    discard(input, analyses);
    return false;
  }
  llvm::Argument *laneId = input->getArg(input->arg_size() - 3);
  auto result = [&]() -> llvm::Expected<WidenedWorkItem> {
    WorkItemUniformity uniformity(*input, laneId);
    llvm::Expected<BlockMasks> masks = linearizeDivergentControlFlow(*input, uniformity);
    if (!masks)
      return masks.takeError();
    unsigned width = vectorBits / widestVaryingFloatBits(*input, uniformity) * registersPerValue(*input, uniformity);
    if (width < 2 || laneId->use_empty() || privateBytes(*input) * width > kMaxVectorPrivateBytes)
      return WidenedWorkItem{};
    return widenWorkItem(*input, *laneId, uniformity, *masks, width, workItem.getName() + ".v" + llvm::Twine(width));
  }();
  discard(input, analyses);
  if (!result) {
    llvm::consumeError(result.takeError());
    return false;
  }
  llvm::Function *vector = result->function;
  if (!vector)
    return false;
  // Most of the work per lane would leave little to gain over the scalar
  // loop, which LLVM's loop vectoriser may still vectorise; code written
  // with vector types is SIMD code already, better run as it is than lane
  // by lane. Invalid IR would be a vectoriser bug: the scalar form is right.
  if (result->vectorInstructions <= result->scalarizedInstructions || result->scalarizedVectorInstructions > 0 ||
      llvm::verifyFunction(*vector)) {
    vector->eraseFromParent();
    return false;
  }
  vector->removeFnAttr(kWorkItemAttribute);
  vector->addFnAttr("min-legal-vector-width", std::to_string(vectorBits));
  workItem.addFnAttr(kVectorFormAttribute, vector->getName());
  workItem.addFnAttr(kVectorWidthAttribute, std::to_string(result->width));
  return true;
}

} // namespace

llvm::PreservedAnalyses VectorizeWorkItemsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &analyses) {
  if (vectorBits == 0)
    return llvm::PreservedAnalyses::all();
  llvm::FunctionAnalysisManager &functionAnalyses =
      analyses.getResult<llvm::FunctionAnalysisManagerModuleProxy>(module).getManager();
  bool changed = false;
  for (llvm::Function *workItem : workItemFunctions(module))
    changed |= vectorize(*workItem, vectorBits, functionAnalyses);
  if (llvm::Function *marker = anyLaneFunction(module); marker->use_empty())
    marker->eraseFromParent();
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
