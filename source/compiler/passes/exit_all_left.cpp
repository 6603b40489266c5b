// Gives the loops that only kernel_exit leaves a way out for a work-group
// whose work-items have all left (exit_all_left.h).
#include "exit_all_left.h"

#include "compiler/passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace compiler {
namespace {

/// barrier()'s CLK_LOCAL_MEM_FENCE.
constexpr uint32_t kLocalMemFence = 1;

bool onCycle(llvm::BasicBlock &block) {
  llvm::SmallVector<llvm::BasicBlock *, 16> work(llvm::successors(&block));
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> seen(work.begin(), work.end());
  while (!work.empty()) {
    llvm::BasicBlock *next = work.pop_back_val();
    if (next == &block)
      return true;
    for (llvm::BasicBlock *successor : llvm::successors(next))
      if (seen.insert(successor).second)
        work.push_back(successor);
  }
  return false;
}

bool isWorkGroupBarrier(const llvm::Instruction &instruction) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && isBarrierFunction(callee->getName()) && !isSubGroupBarrierFunction(callee->getName());
}

bool ordersLocalMemory(const llvm::CallInst &barrier) {
  auto *flags = llvm::dyn_cast<llvm::ConstantInt>(barrier.getArgOperand(0));
  return flags && (flags->getZExtValue() & kLocalMemFence);
}

} // namespace

bool returnOnceAllLeft(llvm::Function &kernel, llvm::GlobalVariable &left) {
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> returning;
  llvm::SmallVector<llvm::BasicBlock *, 16> work;
  for (llvm::BasicBlock &block : kernel)
    if (llvm::isa<llvm::ReturnInst>(block.getTerminator())) {
      returning.insert(&block);
      work.push_back(&block);
    }
  while (!work.empty())
    for (llvm::BasicBlock *previous : llvm::predecessors(work.pop_back_val()))
      if (returning.insert(previous).second)
        work.push_back(previous);
  llvm::SmallVector<llvm::CallInst *, 4> barriers;
  for (llvm::BasicBlock &block : kernel)
    if (!returning.contains(&block) && onCycle(block))
      for (llvm::Instruction &instruction : block)
        if (isWorkGroupBarrier(instruction))
          barriers.push_back(llvm::cast<llvm::CallInst>(&instruction));
  if (barriers.empty())
    return false;

  llvm::Module &module = *kernel.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::FunctionCallee barrier = module.getOrInsertFunction("_Z7barrierj", llvm::Type::getVoidTy(context), i32);
  llvm::FunctionCallee localSize =
      module.getOrInsertFunction("_Z14get_local_sizej", llvm::Type::getInt64Ty(context), i32);
  auto *allLeft = llvm::BasicBlock::Create(context, "all.left", &kernel);
  llvm::ReturnInst::Create(context, allLeft);
  for (llvm::CallInst *call : barriers) {
    llvm::BasicBlock *block = call->getParent();
    llvm::BasicBlock *rest = block->splitBasicBlock(std::next(call->getIterator()), "not.all.left");
    block->getTerminator()->eraseFromParent();
    llvm::IRBuilder<> builder(block);
    auto localBarrier = [&] { builder.CreateCall(barrier, {builder.getInt32(kLocalMemFence)})->setConvergent(); };
    // The leaves before the barrier are seen after it, and none happens
    // before the second one: every work-item reads the same count.
    if (!ordersLocalMemory(*call))
      localBarrier();
    llvm::Value *count = builder.CreateLoad(i32, &left, "left.count");
    localBarrier();
    llvm::Value *size = nullptr;
    for (uint32_t dimension = 0; dimension < 3; ++dimension) {
      llvm::Value *extent = builder.CreateCall(localSize, {builder.getInt32(dimension)});
      size = size ? builder.CreateMul(size, extent) : extent;
    }
    llvm::Value *all = builder.CreateICmpEQ(builder.CreateZExtOrTrunc(count, size->getType()), size, "everyone.left");
    builder.CreateCondBr(all, allLeft, rest);
  }
  return true;
}

} // namespace compiler
