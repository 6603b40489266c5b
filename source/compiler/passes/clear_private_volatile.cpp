// Makes volatile loads and stores of private variables ordinary ones.
// Private memory is seen by its own work-item only, and OpenCL C has no
// signal handlers or longjmp, so `volatile` on it orders nothing anybody
// could observe; libraries still write it (CLBlast's `volatile int tid =
// get_local_id(0)`, a workaround for old compilers), and a volatile
// variable could never become a register: it would stay in memory, in the
// barrier state of kernels with barriers, and keep those kernels from
// being vectorised.
#include "compiler/passes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler {
namespace {

bool isPrivateVariable(const llvm::Value *pointer) {
  return llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0));
}

} // namespace

llvm::PreservedAnalyses ClearPrivateVolatilePass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load && load->isVolatile() && !load->isAtomic() && isPrivateVariable(load->getPointerOperand())) {
        load->setVolatile(false);
        changed = true;
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
                 store && store->isVolatile() && !store->isAtomic() && isPrivateVariable(store->getPointerOperand())) {
        store->setVolatile(false);
        changed = true;
      }
    }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
