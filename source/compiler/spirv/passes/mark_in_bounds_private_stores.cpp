// The emitter clamps the word index of every store to private memory into
// the kernel's private words (compiler/abi/vulkan_kernel_abi.h), so that a
// wild store cannot reach the driver's memory. On an H100 those clamps kept
// NVIDIA's compiler from holding small private arrays in registers: the
// bench's SGEMM, whose 4 x 4 accumulators are indexed by loop counters, ran
// at 0.62x of NVIDIA's OpenCL with them and 1.02x without. A store whose
// offset into its private variable ScalarEvolution bounds (a loop counter
// with constant limits, a constant) cannot go wild: it is marked, and on a
// GPU the emitter leaves its index as it is. So are memset/memcpy/memmove
// destinations of a constant length (the accumulators' zeroing). Like every
// LLVM analysis, ScalarEvolution assumes a kernel free of undefined
// behaviour (no signed overflow in an index); a CPU device, where a wild
// store would corrupt the application's process, keeps every clamp.
#include "passes/vulkan_passes.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {
namespace {

/// Whether the `storeSize` bytes at `pointer` provably lie inside the
/// private variable `pointer` is based on.
bool provenInBounds(llvm::Value *pointer, uint64_t storeSize, const llvm::DataLayout &layout,
                    llvm::ScalarEvolution &evolution) {
  if (pointer->getType()->getPointerAddressSpace() != kPrivateAddressSpace)
    return false;
  auto *variable = llvm::dyn_cast<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0));
  if (!variable)
    return false;
  std::optional<llvm::TypeSize> variableSize = variable->getAllocationSize(layout);
  if (!variableSize || variableSize->isScalable())
    return false;
  if (storeSize > variableSize->getFixedValue())
    return false;
  const llvm::SCEV *offset = evolution.getMinusSCEV(evolution.getSCEV(pointer), evolution.getSCEV(variable));
  if (llvm::isa<llvm::SCEVCouldNotCompute>(offset))
    return false;
  // Unsigned: a negative offset is a huge one and fails the test.
  llvm::ConstantRange range = evolution.getUnsignedRange(offset);
  return range.getUnsignedMax().ule(variableSize->getFixedValue() - storeSize);
}

} // namespace

llvm::PreservedAnalyses MarkInBoundsPrivateStoresPass::run(llvm::Function &function,
                                                           llvm::FunctionAnalysisManager &analyses) {
  llvm::ScalarEvolution &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  llvm::MDNode *mark = llvm::MDNode::get(function.getContext(), {});
  const llvm::DataLayout &layout = function.getDataLayout();
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    bool inBounds = false;
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction); store && !store->isAtomic())
      inBounds = provenInBounds(store->getPointerOperand(),
                                layout.getTypeStoreSize(store->getValueOperand()->getType()).getFixedValue(), layout,
                                evolution);
    // memset/memcpy/memmove of a constant length: their destination.
    if (auto *transfer = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction))
      if (auto *length = llvm::dyn_cast<llvm::ConstantInt>(transfer->getLength()))
        inBounds = provenInBounds(transfer->getDest(), length->getZExtValue(), layout, evolution);
    if (inBounds)
      instruction.setMetadata(kPrivateStoreInBounds, mark);
  }
  return llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
