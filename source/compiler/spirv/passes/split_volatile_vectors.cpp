// Volatile loads and stores of vectors become one volatile access per
// element, before the scalarizer (which leaves volatile accesses whole).
// Vulkan SPIR-V has no vectors of more than four elements, and a vector
// argument of 8- or 16-bit elements is only read element by element, so a
// whole-vector access cannot always be emitted: CTS progvar_prog_scope_init
// stores a `uchar2` argument through a `volatile global uchar2 *`.
// Element accesses keep what volatile promises the program here: each
// element is read or written, in order, and none is optimised away.
#include "passes/vulkan_passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {

llvm::PreservedAnalyses SplitVolatileVectorsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    llvm::SmallVector<llvm::Instruction *, 8> split;
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load && load->isVolatile() && !load->isAtomic() && llvm::isa<llvm::FixedVectorType>(load->getType()))
        split.push_back(load);
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
          store && store->isVolatile() && !store->isAtomic() &&
          llvm::isa<llvm::FixedVectorType>(store->getValueOperand()->getType()))
        split.push_back(store);
    }
    const llvm::DataLayout &layout = module.getDataLayout();
    for (llvm::Instruction *instruction : split) {
      llvm::IRBuilder<> builder(instruction);
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(instruction)) {
        auto *vector = llvm::cast<llvm::FixedVectorType>(load->getType());
        llvm::Type *element = vector->getElementType();
        uint64_t size = layout.getTypeStoreSize(element).getFixedValue();
        llvm::Value *result = llvm::PoisonValue::get(vector);
        for (unsigned i = 0; i < vector->getNumElements(); ++i) {
          llvm::Value *address = builder.CreateConstInBoundsGEP1_64(element, load->getPointerOperand(), i);
          llvm::Value *lane =
              builder.CreateAlignedLoad(element, address, llvm::commonAlignment(load->getAlign(), i * size),
                                        /*isVolatile=*/true);
          result = builder.CreateInsertElement(result, lane, uint64_t(i));
        }
        load->replaceAllUsesWith(result);
      } else {
        auto *store = llvm::cast<llvm::StoreInst>(instruction);
        llvm::Value *value = store->getValueOperand();
        auto *vector = llvm::cast<llvm::FixedVectorType>(value->getType());
        llvm::Type *element = vector->getElementType();
        uint64_t size = layout.getTypeStoreSize(element).getFixedValue();
        for (unsigned i = 0; i < vector->getNumElements(); ++i) {
          llvm::Value *address = builder.CreateConstInBoundsGEP1_64(element, store->getPointerOperand(), i);
          builder.CreateAlignedStore(builder.CreateExtractElement(value, uint64_t(i)), address,
                                     llvm::commonAlignment(store->getAlign(), i * size), /*isVolatile=*/true);
        }
      }
      instruction->eraseFromParent();
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
