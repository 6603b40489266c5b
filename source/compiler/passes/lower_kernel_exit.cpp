// cl_polymux_kernel_exit: kernel_exit(status) records the status in the
// launch's exit record and returns (the work-item ends; a CPU entry goes on
// with the next one), and is_kernel_exiting() reads the record. On CPU-like
// targets the runtime starts no work-group once the record is set; other
// targets check it at the start of every work-group instead
// (doc/extensions/cl_polymux_kernel_exit.md). There, a work-item that
// returned would never reach a later barrier, so an exit that a barrier may
// follow sends the work-item on from the exit's join instead, with its side
// effects masked (exit_join.h, mask_after_kernel_exit.h, exit_all_left.h).
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"
#include "exit_all_left.h"
#include "exit_join.h"
#include "mask_after_kernel_exit.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace compiler {
namespace {

using RecordSource = LowerKernelExitPass::RecordSource;

constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kLocalAddressSpace = 3;
/// barrier()'s CLK_LOCAL_MEM_FENCE.
constexpr uint32_t kLocalMemFence = 1;

/// The exit record, as seen from `builder`'s position.
llvm::Value *exitRecord(llvm::IRBuilder<> &builder, RecordSource source) {
  llvm::Function &function = *builder.GetInsertBlock()->getParent();
  if (source == RecordSource::RecordFunction) {
    llvm::Module &module = *function.getParent();
    llvm::FunctionCallee record = module.getOrInsertFunction(
        kKernelExitRecordFunction, llvm::PointerType::get(builder.getContext(), kGlobalAddressSpace));
    return builder.CreateCall(record, {}, "exit.record");
  }
  llvm::Value *info = function.getArg(function.arg_size() - 4);
  return loadInfoField(builder, info, builder.getPtrTy(), info_field::KernelExit, std::nullopt, "exit.record");
}

/// Whether the record at `record` is set (an i1).
llvm::Value *isExiting(llvm::IRBuilder<> &builder, llvm::Value *record) {
  llvm::LoadInst *value = builder.CreateAlignedLoad(builder.getInt32Ty(), record, llvm::Align(4), "exit.now");
  value->setAtomic(llvm::AtomicOrdering::Monotonic);
  return builder.CreateICmpNE(value, builder.getInt32(abi::kKernelNotExiting), "exiting");
}

/// Records the status of `call` before it: the first status wins, except
/// that a later non-zero one replaces a zero (two compare-exchanges, no
/// loop: the record only ever leaves kKernelNotExiting once, and leaves 0
/// at most once more).
void recordExit(llvm::CallInst &call, RecordSource source) {
  llvm::IRBuilder<> builder(&call);
  llvm::Value *record = exitRecord(builder, source);
  llvm::Value *given = call.getArgOperand(0);
  llvm::Value *status = builder.CreateSelect(builder.CreateICmpEQ(given, builder.getInt32(abi::kKernelNotExiting)),
                                             builder.getInt32(abi::kKernelExitInvalidStatus), given, "exit.status");
  auto compareExchange = [&](int32_t expected) {
    builder.CreateAtomicCmpXchg(record, builder.getInt32(expected), status, llvm::MaybeAlign(4),
                                llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
  };
  compareExchange(abi::kKernelNotExiting);
  compareExchange(0); // leaves the record alone unless it holds 0 (and status is not 0)
}

/// Records the status of `call` and ends the work-item.
void lowerExit(llvm::CallInst &call, RecordSource source) {
  recordExit(call, source);
  // The call and what follows move to a block nothing reaches any more,
  // removed with the others once every call is lowered.
  llvm::BasicBlock *block = call.getParent();
  block->splitBasicBlock(call.getIterator(), "after.kernel.exit");
  block->getTerminator()->eraseFromParent();
  llvm::ReturnInst::Create(block->getContext(), block);
  call.eraseFromParent();
}

/// Declares kKernelExitLeftFunction, which GuardBufferAccessesPass removes:
/// unknown memory effects keep memory accesses on their side of it.
llvm::FunctionCallee exitLeftFunction(llvm::Module &module) {
  llvm::FunctionCallee left =
      module.getOrInsertFunction(kKernelExitLeftFunction, llvm::Type::getVoidTy(module.getContext()));
  auto *function = llvm::cast<llvm::Function>(left.getCallee());
  function->addFnAttr(llvm::Attribute::NoUnwind);
  function->addFnAttr(llvm::Attribute::WillReturn);
  return left;
}

/// Gives the phis of `join` a value for the new edge from `exit`: one that
/// reaches `join` from elsewhere where `exit` has it too, else zero. The
/// value does not matter to a work-item that left, as long as it is one.
void addExitEdge(llvm::BasicBlock &join, llvm::BasicBlock &exit) {
  if (!llvm::isa<llvm::PHINode>(join.front()))
    return;
  llvm::DominatorTree dominators(*join.getParent());
  for (llvm::PHINode &phi : join.phis()) {
    llvm::Value *value = llvm::Constant::getNullValue(phi.getType());
    for (llvm::Value *incoming : phi.incoming_values()) {
      auto *instruction = llvm::dyn_cast<llvm::Instruction>(incoming);
      if (!instruction || dominators.dominates(instruction, exit.getTerminator())) {
        value = incoming;
        break;
      }
    }
    phi.addIncoming(value, &exit);
  }
}

/// The kernel_exit calls of `kernel`, on a target without WorkGroupInfo. A
/// barrier that runs after an exit call must see the work-item that left:
/// it goes on at the exit's join with a flag set (`left`) and its side
/// effects masked. Exits that no barrier follows end the work-item. Returns
/// the __local count of the work-items that left, where loops that only
/// kernel_exit leaves need one (exit_all_left.h).
llvm::GlobalVariable *lowerExitsOfKernel(llvm::Function &kernel, llvm::ArrayRef<llvm::CallInst *> exits) {
  llvm::LLVMContext &context = kernel.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  auto *leftCount = new llvm::GlobalVariable(
      *kernel.getParent(), i32, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(i32),
      kernel.getName() + ".exit.left", nullptr, llvm::GlobalValue::NotThreadLocal, kLocalAddressSpace);
  leftCount->setAlignment(llvm::Align(4));
  if (!returnOnceAllLeft(kernel, *leftCount)) {
    leftCount->eraseFromParent();
    leftCount = nullptr;
  }
  // First every exit with a join goes on there. Each exit's region and join
  // are found with the exits before it already rewired, so that an exit
  // nested in another's way is part of the outer one's region.
  struct Continuing {
    llvm::BasicBlock *exit;
    llvm::BasicBlock *join;
  };
  llvm::SmallVector<Continuing, 4> continuing;
  llvm::SmallVector<ExitJoin, 2> unjoined;
  for (llvm::CallInst *call : exits) {
    llvm::BasicBlock *exit = call->getParent()->splitBasicBlock(call->getIterator(), "kernel.exit");
    ExitJoin join = findExitJoin(kernel, *exit);
    recordExit(*call, RecordSource::RecordFunction);
    // As in lowerExit, the call and what follows end in a dead block.
    exit->splitBasicBlock(call->getIterator(), "after.kernel.exit");
    exit->getTerminator()->eraseFromParent();
    call->eraseFromParent();
    if (join.kind == ExitJoin::Kind::Join) {
      llvm::BranchInst::Create(join.block, exit);
      addExitEdge(*join.block, *exit);
      continuing.push_back({exit, join.block});
      continue;
    }
    llvm::ReturnInst::Create(context, exit);
    if (join.kind != ExitJoin::Kind::Always)
      unjoined.push_back(std::move(join));
  }
  // Then those from whose join no barrier can be reached return after all;
  // with fewer ways on, fewer barriers can be reached from the others.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto *it = continuing.begin(); it != continuing.end();) {
      if (reachesBarrier(it->join)) {
        ++it;
        continue;
      }
      it->join->removePredecessor(it->exit);
      it->exit->getTerminator()->eraseFromParent();
      llvm::ReturnInst::Create(context, it->exit);
      it = continuing.erase(it);
      changed = true;
    }
  }
  for (const ExitJoin &join : unjoined)
    if (reachesBarrier(join.otherWays))
      reportBuildError(*kernel.getParent(),
                       "error: kernel '" + kernel.getName() + "' calls kernel_exit where the other work-items " +
                           (join.kind == ExitJoin::Kind::NoWayOut ? "go on in a loop that only kernel_exit leaves"
                                                                  : "go on along ways that never meet again") +
                           ", and barriers follow; on this device a work-item that has left cannot pass the "
                           "barriers of its work-group there");
  if (continuing.empty())
    return leftCount;
  llvm::BasicBlock &entry = kernel.getEntryBlock();
  llvm::IRBuilder<> builder(&entry, entry.getFirstInsertionPt());
  llvm::AllocaInst *left = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "left");
  builder.CreateStore(builder.getFalse(), left);
  llvm::SmallVector<llvm::BasicBlock *, 4> joins;
  for (auto [exit, join] : continuing) {
    builder.SetInsertPoint(exit->getTerminator());
    // Counted while the flag is still clear: the first time only.
    if (leftCount)
      builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, leftCount, builder.getInt32(1), llvm::Align(4),
                              llvm::AtomicOrdering::Monotonic, context.getOrInsertSyncScopeID("workgroup"));
    builder.CreateStore(builder.getTrue(), left);
    builder.CreateCall(exitLeftFunction(*kernel.getParent()));
    if (!llvm::is_contained(joins, join))
      joins.push_back(join);
  }
  llvm::EliminateUnreachableBlocks(kernel);
  maskAfterKernelExit(kernel, *left, joins);
  return leftCount;
}

void lowerIsExiting(llvm::CallInst &call, RecordSource source) {
  llvm::IRBuilder<> builder(&call);
  llvm::Value *exiting = isExiting(builder, exitRecord(builder, source));
  call.replaceAllUsesWith(builder.CreateZExt(exiting, call.getType()));
  call.eraseFromParent();
}

/// For targets whose runtime cannot hold back work-groups: `kernel` starts
/// with "if the record is set, this work-group does nothing". Work-item 0
/// decides for its work-group (a __local flag, then a barrier), so that a
/// work-group runs whole or not at all, however its work-items are
/// scheduled. It also zeroes `leftCount` where there is one.
void guardWorkGroupStart(llvm::Function &kernel, llvm::GlobalVariable *leftCount) {
  llvm::Module &module = *kernel.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  auto *decided = new llvm::GlobalVariable(module, i32, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
                                           llvm::UndefValue::get(i32), kernel.getName() + ".exit.decided", nullptr,
                                           llvm::GlobalValue::NotThreadLocal, kLocalAddressSpace);
  decided->setAlignment(llvm::Align(4));

  llvm::BasicBlock *entry = &kernel.getEntryBlock();
  llvm::BasicBlock *body = entry->splitBasicBlock(entry->getFirstInsertionPt(), "work.group.body");
  entry->getTerminator()->eraseFromParent();
  auto *decide = llvm::BasicBlock::Create(context, "exit.decide", &kernel, body);
  auto *wait = llvm::BasicBlock::Create(context, "exit.wait", &kernel, body);
  auto *skip = llvm::BasicBlock::Create(context, "exit.skip", &kernel, body);

  llvm::IRBuilder<> builder(entry);
  llvm::FunctionCallee localLinearId = module.getOrInsertFunction("_Z19get_local_linear_idv", builder.getInt64Ty());
  llvm::Value *first = builder.CreateICmpEQ(builder.CreateCall(localLinearId), builder.getInt64(0), "first.work.item");
  builder.CreateCondBr(first, decide, wait);

  builder.SetInsertPoint(decide);
  builder.CreateStore(builder.CreateZExt(isExiting(builder, exitRecord(builder, RecordSource::RecordFunction)), i32),
                      decided);
  if (leftCount)
    builder.CreateStore(builder.getInt32(0), leftCount);
  builder.CreateBr(wait);

  builder.SetInsertPoint(wait);
  llvm::FunctionCallee barrier = module.getOrInsertFunction("_Z7barrierj", builder.getVoidTy(), i32);
  builder.CreateCall(barrier, {builder.getInt32(kLocalMemFence)});
  llvm::Value *skipped = builder.CreateICmpNE(builder.CreateLoad(i32, decided, "exit.decided"), builder.getInt32(0));
  builder.CreateCondBr(skipped, skip, body);

  builder.SetInsertPoint(skip);
  builder.CreateRetVoid();
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
  llvm::SmallPtrSet<llvm::Function *, 4> changed, exiting;
  llvm::SmallVector<std::pair<llvm::CallInst *, bool>, 8> lowerable;
  for (auto [call, isExit] : calls) {
    llvm::Function &function = *call->getFunction();
    bool lowered =
        source == RecordSource::WorkGroupInfo ? function.hasFnAttribute(kWorkItemAttribute) : isKernel(function);
    if (!lowered) {
      // Everything a kernel calls is inlined into it (or into its work-item
      // function) first; what is left is code no kernel reaches.
      reportBuildError(module, llvm::Twine("error: ") + (isExit ? "kernel_exit" : "is_kernel_exiting") +
                                   " called from function '" + function.getName() + "', which no kernel inlines");
      if (!call->getType()->isVoidTy())
        call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), 0));
      call->eraseFromParent();
      continue;
    }
    changed.insert(&function);
    lowerable.push_back({call, isExit});
    if (isExit) {
      exiting.insert(&function);
      function.addFnAttr(kCallsKernelExitAttribute);
    }
  }
  for (auto [call, isExit] : lowerable) {
    if (!isExit)
      lowerIsExiting(*call, source);
    else if (source == RecordSource::WorkGroupInfo)
      lowerExit(*call, source);
  }
  llvm::DenseMap<llvm::Function *, llvm::GlobalVariable *> leftCounts;
  if (source == RecordSource::RecordFunction)
    for (llvm::Function &kernel : module) {
      if (!exiting.contains(&kernel))
        continue;
      // In block order, which fixes the order the joins are found in.
      llvm::SmallVector<llvm::CallInst *, 4> exits;
      for (llvm::Instruction &instruction : llvm::instructions(kernel))
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
            call && call->getCalledFunction() && call->getCalledFunction()->getName() == kKernelExitFunction)
          exits.push_back(call);
      leftCounts[&kernel] = lowerExitsOfKernel(kernel, exits);
    }
  for (llvm::Function *function : changed)
    llvm::EliminateUnreachableBlocks(*function);
  if (source == RecordSource::RecordFunction)
    for (llvm::Function *kernel : exiting)
      guardWorkGroupStart(*kernel, leftCounts.lookup(kernel));
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler
