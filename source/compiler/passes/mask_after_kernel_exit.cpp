// Skips the side effects of a work-item that has left at a kernel_exit and
// goes on with its work-group (mask_after_kernel_exit.h).
#include "mask_after_kernel_exit.h"

#include "compiler/passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

namespace compiler {
namespace {

constexpr unsigned kPrivateAddressSpace = 0;

bool isPrivate(const llvm::Value *pointer) {
  if (pointer->getType()->getPointerAddressSpace() == kPrivateAddressSpace)
    return true;
  // A generic pointer: private when everything it may point into is.
  llvm::SmallVector<const llvm::Value *, 4> origins;
  llvm::getUnderlyingObjects(pointer, origins, /*LI=*/nullptr, /*MaxLookup=*/0);
  return !origins.empty() &&
         llvm::all_of(origins, [](const llvm::Value *origin) { return llvm::isa<llvm::AllocaInst>(origin); });
}

/// Whether another work-item or the host could see what `instruction` does.
bool isSharedEffect(const llvm::Instruction &instruction) {
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
    return !isPrivate(store->getPointerOperand());
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction))
    return !isPrivate(rmw->getPointerOperand());
  if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction))
    return !isPrivate(exchange->getPointerOperand());
  if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction))
    return !isPrivate(intrinsic->getDest());
  auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  if (!call || llvm::isa<llvm::IntrinsicInst>(call) || call->onlyReadsMemory() || call->isConvergent() ||
      !call->getType()->isVoidTy())
    return false;
  llvm::Function *callee = call->getCalledFunction();
  return !callee || !(isBarrierFunction(callee->getName()) || callee->getName() == kKernelExitLeftFunction);
}

/// An atomic load of `type` at `pointer`: what a skipped atomic yields.
llvm::Value *atomicRead(llvm::IRBuilder<> &builder, llvm::Value *pointer, llvm::Type *type, llvm::Align alignment,
                        llvm::SyncScope::ID scope) {
  // As an integer: the targets' atomic loads are of integers.
  const llvm::DataLayout &layout = builder.GetInsertBlock()->getDataLayout();
  llvm::Type *integer = builder.getIntNTy(layout.getTypeSizeInBits(type).getFixedValue());
  llvm::LoadInst *load = builder.CreateAlignedLoad(integer, pointer, alignment, "left.seen");
  load->setAtomic(llvm::AtomicOrdering::Monotonic, scope);
  if (type->isPointerTy())
    return builder.CreateIntToPtr(load, type);
  return builder.CreateBitCast(load, type);
}

/// What `atomic` yields when skipped.
llvm::Value *skippedResult(llvm::IRBuilder<> &builder, llvm::Instruction &atomic) {
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&atomic))
    return atomicRead(builder, rmw->getPointerOperand(), rmw->getType(), rmw->getAlign(), rmw->getSyncScopeID());
  auto &exchange = llvm::cast<llvm::AtomicCmpXchgInst>(atomic);
  llvm::Value *seen = atomicRead(builder, exchange.getPointerOperand(), exchange.getCompareOperand()->getType(),
                                 exchange.getAlign(), exchange.getSyncScopeID());
  llvm::Value *result = builder.CreateInsertValue(llvm::PoisonValue::get(exchange.getType()), seen, 0);
  return builder.CreateInsertValue(result, builder.CreateICmpEQ(seen, exchange.getCompareOperand()), 1);
}

/// Runs `run` (consecutive effects whose results nobody uses) only while
/// `left` is false.
void skipWhenLeft(llvm::ArrayRef<llvm::Instruction *> run, llvm::AllocaInst &left) {
  llvm::IRBuilder<> builder(run.front());
  llvm::Value *running = builder.CreateNot(builder.CreateLoad(builder.getInt1Ty(), &left, "left"), "running");
  llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(running, run.front()->getIterator(), false);
  then->getParent()->setName("not.left");
  for (llvm::Instruction *effect : run)
    effect->moveBefore(then->getIterator());
}

/// An atomic whose result is used: a work-item that left reads instead.
void readWhenLeft(llvm::Instruction &atomic, llvm::AllocaInst &left) {
  llvm::IRBuilder<> builder(&atomic);
  llvm::Value *gone = builder.CreateLoad(builder.getInt1Ty(), &left, "left");
  llvm::Instruction *read = nullptr, *act = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(gone, atomic.getIterator(), &read, &act);
  read->getParent()->setName("left.read");
  act->getParent()->setName("not.left");
  atomic.moveBefore(act->getIterator());
  builder.SetInsertPoint(read);
  llvm::Value *seen = skippedResult(builder, atomic);
  llvm::BasicBlock *tail = act->getSuccessor(0);
  llvm::PHINode *result = llvm::PHINode::Create(atomic.getType(), 2, "", tail->begin());
  result->takeName(&atomic);
  result->addIncoming(&atomic, atomic.getParent());
  result->addIncoming(seen, read->getParent());
  atomic.replaceUsesWithIf(result, [&](llvm::Use &use) { return use.getUser() != result; });
}

/// Promotes the kernel's private variables that can be (`left` aside).
void promotePrivateVariables(llvm::Function &kernel, llvm::AllocaInst &left) {
  llvm::SmallVector<llvm::AllocaInst *, 16> variables;
  for (llvm::Instruction &instruction : kernel.getEntryBlock())
    if (auto *variable = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
        variable && variable != &left && llvm::isAllocaPromotable(variable))
      variables.push_back(variable);
  if (variables.empty())
    return;
  llvm::DominatorTree dominators(kernel);
  llvm::PromoteMemToReg(variables, dominators);
}

} // namespace

void maskAfterKernelExit(llvm::Function &kernel, llvm::AllocaInst &left, llvm::ArrayRef<llvm::BasicBlock *> joins) {
  promotePrivateVariables(kernel, left);
  llvm::SmallVector<llvm::BasicBlock *, 16> work(joins.begin(), joins.end());
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> masked(joins.begin(), joins.end());
  while (!work.empty())
    for (llvm::BasicBlock *successor : llvm::successors(work.pop_back_val()))
      if (masked.insert(successor).second)
        work.push_back(successor);

  // Runs of consecutive effects that share one branch, and atomics with
  // used results; both collected before the blocks are split.
  llvm::SmallVector<llvm::SmallVector<llvm::Instruction *, 4>, 16> runs;
  llvm::SmallVector<llvm::Instruction *, 8> readers;
  for (llvm::BasicBlock &block : kernel) {
    if (!masked.contains(&block))
      continue;
    bool extends = false;
    for (llvm::Instruction &instruction : block) {
      bool effect = isSharedEffect(instruction);
      if (effect && !instruction.use_empty()) {
        readers.push_back(&instruction);
        effect = false;
      } else if (effect) {
        if (!extends)
          runs.emplace_back();
        runs.back().push_back(&instruction);
      }
      extends = effect;
    }
  }
  for (llvm::ArrayRef<llvm::Instruction *> run : runs)
    skipWhenLeft(run, left);
  for (llvm::Instruction *atomic : readers)
    readWhenLeft(*atomic, left);

  llvm::DominatorTree dominators(kernel);
  llvm::PromoteMemToReg({&left}, dominators);
}

} // namespace compiler
