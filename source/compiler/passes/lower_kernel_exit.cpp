// cl_polymux_kernel_exit on CPU-like targets: kernel_exit(status) records the
// status in the launch's exit record and returns from the work-item function
// (the work-item ends; the entry goes on with the next one), and
// is_kernel_exiting() reads the record. The runtime starts no work-group
// once the record is set (doc/extensions/cl_polymux_kernel_exit.md).
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/passes.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace compiler {
namespace {

/// The exit record of the work-item function holding `builder`'s position.
llvm::Value *exitRecord(llvm::IRBuilder<> &builder) {
  llvm::Function &function = *builder.GetInsertBlock()->getParent();
  llvm::Value *info = function.getArg(function.arg_size() - 4);
  return loadInfoField(builder, info, builder.getPtrTy(), info_field::KernelExit, std::nullopt, "exit.record");
}

/// Records `status` and ends the work-item: the first status wins, except
/// that a later non-zero one replaces a zero (two compare-exchanges, no
/// loop: the record only ever leaves kKernelNotExiting once, and leaves 0
/// at most once more).
void lowerExit(llvm::CallInst &call) {
  llvm::IRBuilder<> builder(&call);
  llvm::Value *record = exitRecord(builder);
  llvm::Value *given = call.getArgOperand(0);
  llvm::Value *status = builder.CreateSelect(builder.CreateICmpEQ(given, builder.getInt32(abi::kKernelNotExiting)),
                                             builder.getInt32(abi::kKernelExitInvalidStatus), given, "exit.status");
  auto compareExchange = [&](int32_t expected) {
    builder.CreateAtomicCmpXchg(record, builder.getInt32(expected), status, llvm::MaybeAlign(4),
                                llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
  };
  compareExchange(abi::kKernelNotExiting);
  compareExchange(0); // leaves the record alone unless it holds 0 (and status is not 0)

  // Everything after the call is unreachable (kernel_exit is noreturn).
  llvm::BasicBlock *block = call.getParent();
  // The call and what follows move to a block nothing reaches any more,
  // removed with the others once every call is lowered.
  block->splitBasicBlock(call.getIterator(), "after.kernel.exit");
  block->getTerminator()->eraseFromParent();
  builder.SetInsertPoint(block);
  builder.CreateRetVoid();
  call.eraseFromParent();
}

void lowerIsExiting(llvm::CallInst &call) {
  llvm::IRBuilder<> builder(&call);
  llvm::LoadInst *value = builder.CreateAlignedLoad(builder.getInt32Ty(), exitRecord(builder), llvm::Align(4));
  value->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::Value *exiting = builder.CreateICmpNE(value, builder.getInt32(abi::kKernelNotExiting));
  call.replaceAllUsesWith(builder.CreateZExt(exiting, call.getType()));
  call.eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses LowerKernelExitPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<std::pair<llvm::CallInst *, bool>, 8> calls;
  for (const char *name : {kKernelExitFunction, kIsKernelExitingFunction})
    if (llvm::Function *callee = module.getFunction(name))
      for (llvm::User *user : callee->users())
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledOperand() == callee)
          calls.push_back({call, callee->getName() == kKernelExitFunction});
  if (calls.empty())
    return llvm::PreservedAnalyses::all();
  llvm::SmallPtrSet<llvm::Function *, 4> changed;
  for (auto [call, isExit] : calls) {
    llvm::Function &function = *call->getFunction();
    if (!function.hasFnAttribute(kWorkItemAttribute)) {
      // Everything a kernel calls is inlined into its work-item function
      // first; what is left is code no kernel reaches.
      reportBuildError(module, llvm::Twine("error: ") + (isExit ? "kernel_exit" : "is_kernel_exiting") +
                                   " called from function '" + function.getName() + "', which no kernel inlines");
      if (!call->getType()->isVoidTy())
        call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), 0));
      call->eraseFromParent();
      continue;
    }
    changed.insert(&function);
    if (isExit) {
      function.addFnAttr(kCallsKernelExitAttribute);
      lowerExit(*call);
    } else {
      lowerIsExiting(*call);
    }
  }
  for (llvm::Function *function : changed)
    llvm::EliminateUnreachableBlocks(*function);
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler
