// memcpy, memmove and memset that the emitter cannot write as a fixed
// sequence of word copies (a variable or large length, a length or an
// alignment below a word, a variable memset value: CTS kernels copying
// strings and byte arrays into private memory) become loops of loads and
// stores, before control flow is structurised.
#include "passes/vulkan_passes.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/LowerMemIntrinsics.h"

namespace compiler::spirv {

bool isWordTransfer(const llvm::MemIntrinsic &intrinsic) {
  auto *length = llvm::dyn_cast<llvm::ConstantInt>(intrinsic.getLength());
  auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(&intrinsic);
  auto *memset = llvm::dyn_cast<llvm::MemSetInst>(&intrinsic);
  bool aligned = intrinsic.getDestAlign().valueOrOne().value() >= 4 &&
                 (!transfer || transfer->getSourceAlign().valueOrOne().value() >= 4);
  return length && length->getZExtValue() % 4 == 0 && length->getZExtValue() / 4 <= kMaxWordTransfer && aligned &&
         (!memset || llvm::isa<llvm::ConstantInt>(memset->getValue()));
}

llvm::PreservedAnalyses ExpandMemoryIntrinsicsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  // The target-independent cost model: loops of bytes, or of wider
  // values where the alignment allows.
  llvm::TargetTransformInfo costs(module.getDataLayout());
  bool changed = false;
  for (llvm::Function &function : module) {
    llvm::SmallVector<llvm::MemIntrinsic *, 4> expand;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction); intrinsic && !isWordTransfer(*intrinsic))
        expand.push_back(intrinsic);
    for (llvm::MemIntrinsic *intrinsic : expand) {
      if (auto *copy = llvm::dyn_cast<llvm::MemCpyInst>(intrinsic)) {
        llvm::expandMemCpyAsLoop(copy, costs);
      } else if (auto *move = llvm::dyn_cast<llvm::MemMoveInst>(intrinsic)) {
        // Not possible between address spaces that may not alias: the
        // emitter then names it.
        if (!llvm::expandMemMoveAsLoop(move, costs))
          continue;
      } else if (auto *set = llvm::dyn_cast<llvm::MemSetInst>(intrinsic)) {
        llvm::expandMemSetAsLoop(set);
      } else {
        continue;
      }
      intrinsic->eraseFromParent();
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
