// Volatile loads and stores of private memory become plain ones. No other
// work-item or agent can observe a work-item's private memory, so
// `volatile` there promises nothing a GPU could break; but the scalarizer
// leaves volatile accesses whole, and a vector SPIR-V cannot hold (a
// `private volatile long16` kernel argument spilled to its alloca, CTS
// get_kernel_arg_info) would then fail the build.
#include "passes/vulkan_passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {

llvm::PreservedAnalyses PlainPrivateAccessesPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load && load->isVolatile() && !load->isAtomic() && load->getPointerAddressSpace() == kPrivateAddressSpace) {
        load->setVolatile(false);
        changed = true;
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
                 store && store->isVolatile() && !store->isAtomic() &&
                 store->getPointerAddressSpace() == kPrivateAddressSpace) {
        store->setVolatile(false);
        changed = true;
      }
    }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
