// Cuts a work-item function at its barriers.
//
// Each barrier call gets a block of its own, which becomes `ret i32 <its
// number>`; `ret void` becomes `ret i32 0`. A new entry block switches on a
// region number to the original entry (region 0) or to the block after
// barrier r (region r). Cloning that function once per region with the
// number fixed gives the region functions.
//
// Values whose definition no longer dominates a use (they are live across a
// barrier) are kept per work-item in a state block: private variables live
// across a barrier become fields of it, other values are stored there after
// their definition and reloaded where used. Values computed only from the
// arguments (work-item ids, __local pointers, the WorkGroupInfo) are
// recomputed in the entry block instead.
#include "barrier_regions.h"

#include "compiler/passes.h"
#include "mux/status.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>

namespace compiler {
namespace {

/// The runtime aligns the state of the group (and so of work-item 0) to 128.
constexpr uint64_t kMaxStateAlignment = 128;

llvm::SmallVector<llvm::CallInst *, 4> findBarrierCalls(llvm::Function &function) {
  llvm::SmallVector<llvm::CallInst *, 4> calls;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction(); callee && isBarrierFunction(callee->getName()))
          calls.push_back(call);
  return calls;
}

/// How the memory behind a pointer (an alloca or a byval argument) is
/// reached: through it and every pointer derived from it.
struct PointerUses {
  /// The pointer leaves the tracked values (stored, turned into an integer,
  /// passed to a call): later accesses cannot be found.
  bool escapes = false;
  bool written = false;
  llvm::SmallVector<llvm::Instruction *, 16> users;
};

PointerUses findPointerUses(llvm::Value *pointer) {
  PointerUses result;
  llvm::SmallPtrSet<llvm::Value *, 16> visited{pointer};
  llvm::SmallVector<llvm::Value *, 8> worklist{pointer};
  while (!worklist.empty()) {
    llvm::Value *current = worklist.pop_back_val();
    for (llvm::Use &use : current->uses()) {
      auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      if (!user) {
        result.escapes = true;
        continue;
      }
      result.users.push_back(user);
      if (llvm::isa<llvm::LoadInst, llvm::ICmpInst>(user))
        continue;
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (use.getOperandNo() == store->getPointerOperandIndex())
          result.written = true;
        else
          result.escapes = true;
        continue;
      }
      if (llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst, llvm::AddrSpaceCastInst, llvm::PHINode,
                    llvm::SelectInst>(user)) {
        if (visited.insert(user).second)
          worklist.push_back(user);
        continue;
      }
      if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user)) {
        if (intrinsic->isLifetimeStartOrEnd())
          continue;
        if (auto *memory = llvm::dyn_cast<llvm::MemIntrinsic>(intrinsic)) {
          if (&use == &memory->getRawDestUse())
            result.written = true;
          continue;
        }
      }
      result.escapes = true;
      result.written = true;
    }
  }
  return result;
}

bool containsPointer(llvm::Type *type) {
  if (type->isPtrOrPtrVectorTy())
    return true;
  return llvm::any_of(type->subtypes(), containsPointer);
}

/// Byte offsets in the per-work-item state.
class StateLayout {
public:
  struct Request {
    uint64_t size;
    uint64_t alignment;
  };
  /// Places `requests` (largest alignment first, to save padding) after the
  /// fields placed so far; returns their offsets in request order.
  llvm::SmallVector<uint64_t, 8> place(llvm::ArrayRef<Request> requests) {
    llvm::SmallVector<unsigned, 8> order;
    for (unsigned i = 0; i < requests.size(); ++i)
      order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](unsigned a, unsigned b) { return requests[a].alignment > requests[b].alignment; });
    llvm::SmallVector<uint64_t, 8> offsets(requests.size());
    for (unsigned i : order) {
      uint64_t alignment = std::min(requests[i].alignment, kMaxStateAlignment);
      size_ = llvm::alignTo(size_, alignment);
      offsets[i] = size_;
      size_ += requests[i].size;
      alignment_ = std::max(alignment_, alignment);
    }
    return offsets;
  }
  uint64_t stride() const { return llvm::alignTo(size_, alignment_); }
  uint64_t alignment() const { return alignment_; }

private:
  uint64_t size_ = 0;
  uint64_t alignment_ = 1;
};

class BarrierSplitter {
public:
  BarrierSplitter(llvm::Function &workItem, llvm::ArrayRef<llvm::CallInst *> barriers)
      : workItem_(workItem), context_(workItem.getContext()), barriers_(barriers) {}

  llvm::Expected<BarrierRegions> run() {
    createBody();
    cutAtBarriers();
    llvm::DominatorTree dominators(*body_);
    llvm::Error error = placePrivateMemory(dominators);
    if (!error)
      error = keepValuesAcrossBarriers(dominators);
    if (error) {
      body_->eraseFromParent();
      return error;
    }
    dropUndominatedDebugLocations(dominators);
    // noalias promises that the state is reached only through pointers
    // computed from the argument in the same call; a pointer into it that
    // was stored (in the state or elsewhere) and loaded again is not.
    if (!stateMayBeReachedIndirectly_)
      body_->addParamAttr(stateArgument_->getArgNo(), llvm::Attribute::NoAlias);
    BarrierRegions regions;
    regions.stateStride = state_.stride();
    regions.stateAlignment = state_.alignment();
    body_->addParamAttr(stateArgument_->getArgNo(),
                        llvm::Attribute::getWithAlignment(context_, llvm::Align(regions.stateAlignment)));
    for (unsigned region = 0; region <= barriers_.size(); ++region)
      regions.functions.push_back(cloneRegion(region));
    body_->eraseFromParent();
    return regions;
  }

private:
  /// Moves the body of the work-item function into `i32 body(params...,
  /// ptr state, i32 region)`.
  void createBody() {
    llvm::SmallVector<llvm::Type *, 12> params(workItem_.getFunctionType()->params());
    llvm::Type *i32 = llvm::Type::getInt32Ty(context_);
    params.append({llvm::PointerType::getUnqual(context_), i32});
    auto *type = llvm::FunctionType::get(i32, params, false);
    body_ = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, workItem_.getName() + ".regions",
                                   workItem_.getParent());
    body_->copyAttributesFrom(&workItem_);
    body_->setSubprogram(workItem_.getSubprogram());
    workItem_.setSubprogram(nullptr);
    body_->splice(body_->begin(), &workItem_);
    for (auto [from, to] : llvm::zip(workItem_.args(), body_->args())) {
      to.setName(from.getName());
      from.replaceAllUsesWith(&to);
    }
    stateArgument_ = body_->getArg(workItem_.arg_size());
    stateArgument_->setName("wi.state");
    body_->addParamAttr(stateArgument_->getArgNo(), llvm::Attribute::NoUndef);
    regionArgument_ = body_->getArg(workItem_.arg_size() + 1);
    regionArgument_->setName("region");
    info_ = body_->getArg(workItem_.arg_size() - 4);
  }

  /// Gives each barrier its own block returning the barrier's number, makes
  /// `ret void` return 0 and adds the entry block that dispatches on the
  /// region number.
  void cutAtBarriers() {
    llvm::Type *i32 = llvm::Type::getInt32Ty(context_);
    llvm::SmallVector<llvm::BasicBlock *, 4> regionStarts;
    unsigned number = 0;
    for (llvm::CallInst *call : barriers_) {
      ++number;
      llvm::BasicBlock *barrier = call->getParent()->splitBasicBlock(call, "barrier." + llvm::Twine(number));
      llvm::BasicBlock *after = barrier->splitBasicBlock(call->getNextNode(), "post." + llvm::Twine(number));
      llvm::DebugLoc location = call->getDebugLoc();
      call->eraseFromParent();
      barrier->getTerminator()->eraseFromParent();
      llvm::ReturnInst::Create(context_, llvm::ConstantInt::get(i32, number), barrier)->setDebugLoc(location);
      regionStarts.push_back(after);
    }
    for (llvm::BasicBlock &block : *body_)
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()); ret && !ret->getReturnValue()) {
        llvm::ReturnInst::Create(context_, llvm::ConstantInt::get(i32, 0), ret->getIterator())
            ->setDebugLoc(ret->getDebugLoc());
        ret->eraseFromParent();
      }
    start_ = &body_->getEntryBlock();
    dispatch_ = llvm::BasicBlock::Create(context_, "dispatch", body_, start_);
    auto *dispatch = llvm::SwitchInst::Create(regionArgument_, start_, regionStarts.size(), dispatch_);
    for (auto [index, block] : llvm::enumerate(regionStarts))
      dispatch->addCase(llvm::ConstantInt::get(llvm::cast<llvm::IntegerType>(i32), index + 1), block);
  }

  /// Whether `block` runs only in region 0, before the first barrier.
  bool onlyBeforeBarriers(const llvm::DominatorTree &dominators, const llvm::BasicBlock *block) const {
    return dominators.dominates(start_, block);
  }

  bool usedAfterBarrier(const llvm::DominatorTree &dominators, const PointerUses &uses) const {
    return llvm::any_of(uses.users, [&](llvm::Instruction *user) {
      auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user);
      return !(intrinsic && intrinsic->isLifetimeStartOrEnd()) && !onlyBeforeBarriers(dominators, user->getParent());
    });
  }

  /// Private variables (allocas) and byval arguments whose memory is reached
  /// after a barrier become fields of the state; the other allocas of the
  /// original entry block move to the new entry block.
  llvm::Error placePrivateMemory(const llvm::DominatorTree &dominators) {
    const llvm::DataLayout &layout = body_->getDataLayout();
    llvm::SmallVector<llvm::AllocaInst *, 8> stateAllocas;
    llvm::SmallVector<llvm::AllocaInst *, 8> stackAllocas;
    llvm::SmallVector<StateLayout::Request, 8> requests;
    for (llvm::BasicBlock &block : *body_)
      for (llvm::Instruction &instruction : block)
        if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) {
          PointerUses uses = findPointerUses(alloca);
          if (!uses.escapes && !usedAfterBarrier(dominators, uses)) {
            stackAllocas.push_back(alloca);
            continue;
          }
          std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout);
          if (!size || size->isScalable())
            return mux::makeError(mux::Status::Unsupported,
                                  "error: a private array of run-time size is live across a barrier in kernel " +
                                      kernelName());
          stateAllocas.push_back(alloca);
          stateMayBeReachedIndirectly_ |= uses.escapes;
          requests.push_back({size->getFixedValue(), alloca->getAlign().value()});
        }
    llvm::SmallVector<llvm::Argument *, 4> stateArguments;
    for (unsigned i = 0; i + 4 < workItem_.arg_size(); ++i) {
      llvm::Argument *argument = body_->getArg(i);
      if (!argument->hasByValAttr())
        continue;
      PointerUses uses = findPointerUses(argument);
      if ((uses.escapes || uses.written) && usedAfterBarrier(dominators, uses)) {
        stateArguments.push_back(argument);
        stateMayBeReachedIndirectly_ |= uses.escapes;
        uint64_t size = layout.getTypeAllocSize(argument->getParamByValType()).getFixedValue();
        requests.push_back({size, argument->getParamAlign().valueOrOne().value()});
      }
    }
    llvm::SmallVector<uint64_t, 8> offsets = state_.place(requests);
    hasMemoryFields_ = !requests.empty();
    llvm::IRBuilder<> builder(dispatch_);
    for (auto [alloca, offset] : llvm::zip(stateAllocas, offsets)) {
      for (llvm::User *user : llvm::make_early_inc_range(alloca->users()))
        if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user); intrinsic && intrinsic->isLifetimeStartOrEnd())
          intrinsic->eraseFromParent();
      llvm::Value *field = stateField(builder, offset, alloca->getName());
      if (field->getType() != alloca->getType())
        field = builder.CreateAddrSpaceCast(field, alloca->getType());
      alloca->replaceAllUsesWith(field);
      alloca->eraseFromParent();
    }
    // A byval argument is a fresh copy in each region: copy it into the
    // state at the start of region 0 and use that copy everywhere.
    llvm::IRBuilder<> start(start_, start_->getFirstNonPHIOrDbgOrAlloca());
    for (auto [argument, offset] : llvm::zip(stateArguments, llvm::ArrayRef(offsets).drop_front(stateAllocas.size()))) {
      llvm::Value *field = stateField(builder, offset, argument->getName() + ".copy");
      uint64_t size = layout.getTypeAllocSize(argument->getParamByValType()).getFixedValue();
      llvm::MaybeAlign alignment = argument->getParamAlign();
      llvm::CallInst *copy = start.CreateMemCpy(field, alignment, argument, alignment, size);
      argument->replaceUsesWithIf(field, [&](llvm::Use &use) { return use.getUser() != copy; });
    }
    for (llvm::AllocaInst *alloca : stackAllocas) {
      // Lifetime markers outside region 0 would refer to an alloca that
      // region functions do not have.
      for (llvm::User *user : llvm::make_early_inc_range(alloca->users()))
        if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user);
            intrinsic && intrinsic->isLifetimeStartOrEnd() && !onlyBeforeBarriers(dominators, intrinsic->getParent()))
          intrinsic->eraseFromParent();
      // Keep static allocas in the entry block, where LLVM expects them.
      if (alloca->getParent() == start_ && llvm::isa<llvm::ConstantInt>(alloca->getArraySize()))
        alloca->moveBefore(dispatch_->getTerminator()->getIterator());
    }
    return llvm::Error::success();
  }

  llvm::Value *stateField(llvm::IRBuilder<> &builder, uint64_t offset, const llvm::Twine &name) {
    builder.SetInsertPoint(dispatch_->getTerminator());
    return builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), stateArgument_, offset, name + ".state");
  }

  /// Whether `instruction` computes the same value wherever it runs, without
  /// side effects: pure operations and invariant loads from the
  /// WorkGroupInfo.
  bool isPure(const llvm::Instruction &instruction) const {
    if (llvm::isa<llvm::PHINode, llvm::AllocaInst>(instruction))
      return false;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      return load->isSimple() && load->hasMetadata(llvm::LLVMContext::MD_invariant_load) &&
             llvm::getUnderlyingObject(load->getPointerOperand()) == info_;
    return !instruction.mayReadOrWriteMemory() && llvm::isSafeToSpeculativelyExecute(&instruction);
  }

  /// Whether `instruction` can be recomputed in the entry block: it is pure
  /// and depends only on arguments, constants and such instructions.
  bool canRecompute(llvm::Instruction *instruction) {
    if (instruction->getParent() == dispatch_)
      return true;
    if (auto found = recomputable_.find(instruction); found != recomputable_.end())
      return found->second;
    recomputable_[instruction] = false; // until shown otherwise
    bool result = isPure(*instruction) && llvm::all_of(instruction->operands(), [&](llvm::Value *operand) {
                    if (auto *defined = llvm::dyn_cast<llvm::Instruction>(operand))
                      return canRecompute(defined);
                    return llvm::isa<llvm::Constant, llvm::Argument>(operand);
                  });
    recomputable_[instruction] = result;
    return result;
  }

  void moveToEntry(llvm::Instruction *instruction) {
    if (instruction->getParent() == dispatch_)
      return;
    for (llvm::Value *operand : instruction->operands())
      if (auto *defined = llvm::dyn_cast<llvm::Instruction>(operand))
        moveToEntry(defined);
    instruction->moveBefore(dispatch_->getTerminator()->getIterator());
  }

  /// Every value with a use its definition does not dominate any more is
  /// live across a barrier: recompute it in the entry block, or keep it in
  /// the state.
  llvm::Error keepValuesAcrossBarriers(const llvm::DominatorTree &dominators) {
    struct Crossing {
      llvm::Instruction *value;
      llvm::SmallVector<llvm::Use *, 4> uses; ///< the uses it does not dominate
    };
    llvm::SmallVector<Crossing, 16> crossing;
    for (llvm::BasicBlock &block : *body_) {
      if (&block == dispatch_)
        continue;
      for (llvm::Instruction &instruction : block) {
        Crossing entry{&instruction, {}};
        for (llvm::Use &use : instruction.uses())
          if (!dominators.dominates(&instruction, use))
            entry.uses.push_back(&use);
        if (!entry.uses.empty())
          crossing.push_back(std::move(entry));
      }
    }
    llvm::SmallVector<Crossing, 16> saved;
    for (Crossing &value : crossing) {
      if (canRecompute(value.value))
        moveToEntry(value.value);
      else if (value.value->getParent() != dispatch_) {
        stateMayBeReachedIndirectly_ |= hasMemoryFields_ && containsPointer(value.value->getType());
        saved.push_back(std::move(value));
      }
    }

    const llvm::DataLayout &layout = body_->getDataLayout();
    llvm::SmallVector<StateLayout::Request, 16> requests;
    for (Crossing &value : saved) {
      llvm::Type *type = value.value->getType();
      if (!type->isSized() || type->isTokenTy())
        return mux::makeError(mux::Status::Unsupported, "error: a value of a type that cannot be stored is live "
                                                        "across a barrier in kernel " +
                                                            kernelName());
      requests.push_back({layout.getTypeAllocSize(type).getFixedValue(), layout.getABITypeAlign(type).value()});
    }
    llvm::SmallVector<uint64_t, 16> offsets = state_.place(requests);
    llvm::IRBuilder<> builder(context_);
    for (auto [value, offset] : llvm::zip(saved, offsets)) {
      llvm::Instruction *definition = value.value;
      llvm::Type *type = definition->getType();
      llvm::Align alignment = std::min(layout.getABITypeAlign(type), llvm::Align(kMaxStateAlignment));
      llvm::Value *slot = stateField(builder, offset, definition->getName());
      std::optional<llvm::BasicBlock::iterator> after = definition->getInsertionPointAfterDef();
      if (!after)
        return mux::makeError(mux::Status::Unsupported,
                              "error: a value live across a barrier cannot be saved in kernel " + kernelName());
      builder.SetInsertPoint(definition->getParent(), *after);
      builder.CreateAlignedStore(definition, slot, alignment);
      // One reload per block; a phi's operand is used at the end of its
      // incoming block. The block is not the definition's (which would
      // dominate the use), so the slot holds the value all through it.
      llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> reloads;
      for (llvm::Use *use : value.uses) {
        auto *user = llvm::cast<llvm::Instruction>(use->getUser());
        llvm::BasicBlock *block = user->getParent();
        if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
          block = phi->getIncomingBlock(*use);
        llvm::Value *&reload = reloads[block];
        if (!reload) {
          builder.SetInsertPoint(block, block->getFirstInsertionPt());
          reload = builder.CreateAlignedLoad(type, slot, alignment, definition->getName() + ".reload");
        }
        use->set(reload);
      }
    }
    return llvm::Error::success();
  }

  /// Debug records are not uses: those that name a value where it is no
  /// longer available lose their location.
  void dropUndominatedDebugLocations(const llvm::DominatorTree &dominators) {
    for (llvm::BasicBlock &block : *body_)
      for (llvm::Instruction &instruction : block)
        for (llvm::DbgVariableRecord &record : llvm::filterDbgVars(instruction.getDbgRecordRange()))
          for (llvm::Value *location : record.location_ops())
            if (auto *defined = llvm::dyn_cast_or_null<llvm::Instruction>(location);
                defined && !dominators.dominates(defined, &instruction)) {
              record.setKillLocation();
              break;
            }
  }

  llvm::Function *cloneRegion(unsigned region) {
    llvm::ValueToValueMapTy map;
    map[regionArgument_] = llvm::ConstantInt::get(regionArgument_->getType(), region);
    llvm::Function *function = llvm::CloneFunction(body_, map);
    function->setName("__polymux_region" + llvm::Twine(region) + "_" + kernelName());
    function->setLinkage(llvm::GlobalValue::InternalLinkage);
    function->removeFnAttr(kWorkItemAttribute);
    function->removeFnAttr(llvm::Attribute::NoInline);
    function->removeFnAttr(llvm::Attribute::OptimizeNone);
    function->addFnAttr(llvm::Attribute::AlwaysInline);
    llvm::ConstantFoldTerminator(&function->getEntryBlock(), /*DeleteDeadConditions=*/true);
    llvm::removeUnreachableBlocks(*function);
    return function;
  }

  std::string kernelName() const { return workItem_.getFnAttribute(kWorkItemAttribute).getValueAsString().str(); }

  llvm::Function &workItem_;
  llvm::LLVMContext &context_;
  llvm::ArrayRef<llvm::CallInst *> barriers_;
  llvm::Function *body_ = nullptr;
  llvm::Argument *stateArgument_ = nullptr;
  llvm::Argument *regionArgument_ = nullptr;
  llvm::Argument *info_ = nullptr;
  llvm::BasicBlock *start_ = nullptr;    ///< the original entry block
  llvm::BasicBlock *dispatch_ = nullptr; ///< the new entry block
  StateLayout state_;
  /// Whether private memory (allocas, byval copies) lives in the state.
  bool hasMemoryFields_ = false;
  /// Whether a pointer into the state may be stored and loaded again.
  bool stateMayBeReachedIndirectly_ = false;
  llvm::DenseMap<llvm::Instruction *, bool> recomputable_;
};

} // namespace

llvm::Expected<BarrierRegions> splitAtBarriers(llvm::Function &workItem, llvm::FunctionAnalysisManager &analyses) {
  if (findBarrierCalls(workItem).empty())
    return BarrierRegions{};
  // The front end leaves every variable in an alloca. Those SROA can turn
  // into SSA values need state only where live across a barrier, and can
  // often be recomputed; the others would all be kept in the state.
  llvm::PreservedAnalyses preserved = llvm::SROAPass(llvm::SROAOptions::ModifyCFG).run(workItem, analyses);
  analyses.invalidate(workItem, preserved);
  // Unreachable code may hold barriers or odd SSA that would become
  // reachable from the region entries.
  llvm::removeUnreachableBlocks(workItem);
  llvm::SmallVector<llvm::CallInst *, 4> barriers = findBarrierCalls(workItem);
  if (barriers.empty())
    return BarrierRegions{};
  llvm::SmallVector<bool, 4> afterSubGroupBarrier{false};
  for (llvm::CallInst *barrier : barriers)
    afterSubGroupBarrier.push_back(isSubGroupBarrierFunction(barrier->getCalledFunction()->getName()));
  llvm::Expected<BarrierRegions> regions = BarrierSplitter(workItem, barriers).run();
  analyses.clear(workItem, workItem.getName());
  if (regions)
    regions->afterSubGroupBarrier = std::move(afterSubGroupBarrier);
  return regions;
}

} // namespace compiler
