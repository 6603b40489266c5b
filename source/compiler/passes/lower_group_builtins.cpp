// Implements the work-group and sub-group collective builtins and the
// sub-group queries. On CPU targets (Options::subGroupSize) a sub-group is
// `subGroupSize` consecutive work-items in local linear id order, the last
// one of a work-group partial when the work-group size is not a multiple;
// the queries are arithmetic on the local linear id and sizes.
//
// Each collective call becomes, in place:
//   scratch[lid] = x;   barrier
//   if (lid == first of its group) combine scratch[first .. first + n)
//                 sequentially (scans in place, reductions into a result
//                 slot after the work-items' ones: one per sub-group);
//   barrier;            result = scratch[lid] or the group's result slot
// (or, with Options::resultSlotAfterItems off, into scratch[first], read
// before a third barrier)
// (a broadcast reads scratch[first + id] between the two barriers instead),
// where the group is the work-group (first = 0) or the caller's sub-group.
// That is O(n) per group. A work-item only ever stores to its own slot before
// the first barrier and only the groups' first work-items write between the
// barriers, each inside its own group's slots, so a following collective may
// reuse the scratch without a third barrier. The result slots start after
// the work-items' slots of the scratch's widest type, also for a narrower
// collective (an `any` beside a long reduction): a sub-group that has gone
// on to the next collective may already be storing to those slots while
// another still reads its result.
// A sub-group collective's barriers are sub-group barriers, which the CPU
// entry point runs per sub-group (KernelWrapperPass): the sub-groups of one
// work-group may call different collectives, or none.
// The scratch is one per function, sized for the largest element it needs;
// it is a __local variable (internal, undef initializer) with one slot per
// work-item of the largest work-group (Options::maxWorkGroupSize) plus the
// result slots, which LowerLocalVariablesPass places in the work-group's
// __local area (on vulkan: the kernel's Workgroup array).
// With Options::deferSubGroupCollectives (CPU targets), a sub-group
// collective first becomes a marker call carrying the scratch, the local
// linear id and the work-group size (group_collectives.h): the work-item
// vectoriser turns it into vector operations where a vector is one
// sub-group, and LowerSubGroupCollectiveMarkersPass gives the markers left
// the form above.
// The barriers are `barrier(CLK_LOCAL_MEM_FENCE)` or
// `sub_group_barrier(CLK_LOCAL_MEM_FENCE)` calls and the ids are calls of
// the work-item builtins, all lowered by later passes.
#include "compiler/group_collectives.h"
#include "compiler/passes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/MathExtras.h"

#include <optional>
#include <string>

namespace compiler {
namespace {

constexpr unsigned kLocalMemFence = 1; // CLK_LOCAL_MEM_FENCE

enum class Query { None, SubGroupSize, MaxSubGroupSize, NumSubGroups, EnqueuedNumSubGroups, SubGroupId, LocalId };

Query classifyQuery(llvm::StringRef name) {
  return llvm::StringSwitch<Query>(name)
      .Case("_Z18get_sub_group_sizev", Query::SubGroupSize)
      .Case("_Z22get_max_sub_group_sizev", Query::MaxSubGroupSize)
      .Case("_Z18get_num_sub_groupsv", Query::NumSubGroups)
      .Case("_Z27get_enqueued_num_sub_groupsv", Query::EnqueuedNumSubGroups)
      .Case("_Z16get_sub_group_idv", Query::SubGroupId)
      .Case("_Z22get_sub_group_local_idv", Query::LocalId)
      .Default(Query::None);
}

/// The bytes of each slot of a function's scratch, on the function: the
/// markers' later lowering needs them.
constexpr const char *kScratchSlotBytesAttribute = "polymux-group-scratch-slot-bytes";

/// Bytes of one scratch slot for `call`.
unsigned slotBytes(const CollectiveCall &call) {
  if (call.collective == Collective::Any || call.collective == Collective::All)
    return 4;
  return call.type.scalarBits() / 8;
}

/// Emits the collectives and queries of one function.
class GroupLowering {
public:
  /// `resultSlots`: how many groups' reductions may be in flight at once
  /// (1, or a work-group's most sub-groups).
  GroupLowering(llvm::Function &function, const LowerGroupBuiltinsPass::Options &options, uint64_t resultSlots)
      : function_(function), module_(*function.getParent()), context_(function.getContext()),
        builder_(function.getContext()),
        slots_(options.maxWorkGroupSize + (options.resultSlotAfterItems ? resultSlots : 0)),
        maxWorkGroupSize_(options.maxWorkGroupSize), subGroupSize_(options.subGroupSize),
        resultSlotAfterItems_(options.resultSlotAfterItems),
        addressSpace_(options.scratchAddressSpace.value_or(module_.getDataLayout().getDefaultGlobalsAddressSpace())) {}

  /// Creates the function's scratch variable with slots of `bytes` bytes.
  void createScratch(unsigned bytes) {
    slotBytes_ = bytes;
    function_.addFnAttr(kScratchSlotBytesAttribute, std::to_string(bytes));
    llvm::Type *slot = llvm::Type::getIntNTy(context_, bytes * 8);
    auto *type = llvm::ArrayType::get(slot, slots_);
    auto *scratch = new llvm::GlobalVariable(
        module_, type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
        "__polymux_group_scratch." + function_.getName(), nullptr, llvm::GlobalValue::NotThreadLocal, addressSpace_);
    scratch->setAlignment(llvm::Align(8));
    scratch->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    scratch_ = scratch;
  }

  void lowerQuery(llvm::CallInst &call, Query query) {
    builder_.SetInsertPoint(&call);
    llvm::Value *value = nullptr;
    llvm::Value *subGroupSize = builder_.getInt64(subGroupSize_);
    auto countOf = [&](llvm::Value *size) {
      return builder_.CreateUDiv(builder_.CreateAdd(size, builder_.getInt64(subGroupSize_ - 1)), subGroupSize);
    };
    switch (query) {
    case Query::SubGroupSize:
      value = subGroupOf(localLinearId(), linearSize("_Z14get_local_sizej")).size;
      break;
    case Query::MaxSubGroupSize:
      value = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, subGroupSize,
                                             linearSize("_Z23get_enqueued_local_sizej"));
      break;
    case Query::NumSubGroups:
      value = countOf(linearSize("_Z14get_local_sizej"));
      break;
    case Query::EnqueuedNumSubGroups:
      value = countOf(linearSize("_Z23get_enqueued_local_sizej"));
      break;
    case Query::SubGroupId:
      value = builder_.CreateUDiv(localLinearId(), subGroupSize);
      break;
    case Query::LocalId:
      value = builder_.CreateURem(localLinearId(), subGroupSize);
      break;
    case Query::None:
      llvm_unreachable("not a query");
    }
    replace(call, builder_.CreateZExtOrTrunc(value, call.getType()));
  }

  /// Replaces a sub-group collective by its marker (group_collectives.h),
  /// which LowerSubGroupCollectiveMarkersPass or the vectoriser lowers.
  void deferCollective(llvm::CallInst &call) {
    builder_.SetInsertPoint(&call);
    llvm::Function *marker = subGroupCollectiveMarker(*call.getCalledFunction(), scratch_->getType());
    llvm::SmallVector<llvm::Value *, 5> arguments(call.args());
    arguments.append({scratch_, localLinearId(), linearSize("_Z14get_local_sizej")});
    llvm::CallInst *deferred = builder_.CreateCall(marker, arguments, call.getName());
    deferred->setConvergent();
    replace(call, deferred);
  }

  /// Emits `collective` in place of `call` for the work-item with local
  /// linear id `lid` in a work-group of `workGroupSize` work-items.
  void lowerCollective(llvm::CallInst &call, const CollectiveCall &collective) {
    builder_.SetInsertPoint(&call);
    lowerCollective(call, collective, localLinearId(), linearSize("_Z14get_local_sizej"));
  }

  /// Lowers a marker call that deferCollective left, with the scratch it names.
  void lowerMarker(llvm::CallInst &call, const CollectiveCall &collective) {
    SubGroupCollectiveOperands operands = subGroupCollectiveOperands(call);
    scratch_ = operands.scratch;
    slotBytes_ = integerAttribute(function_, kScratchSlotBytesAttribute);
    builder_.SetInsertPoint(&call);
    lowerCollective(call, collective, operands.localLinearId, operands.workGroupSize);
  }

private:
  void lowerCollective(llvm::CallInst &call, const CollectiveCall &collective, llvm::Value *lid,
                       llvm::Value *workGroupSize) {
    llvm::Value *value = call.getArgOperand(0);
    llvm::Type *type = value->getType();
    if (collective.collective == Collective::Any || collective.collective == Collective::All) {
      value = builder_.CreateZExt(builder_.CreateICmpNE(value, llvm::ConstantInt::get(type, 0)), builder_.getInt32Ty());
      type = builder_.getInt32Ty();
    }
    Group group = collective.subGroup ? subGroupOf(lid, workGroupSize)
                                      : Group{builder_.getInt64(0), workGroupSize, builder_.getInt64(0)};
    // Result slots follow the work-items' slots of the widest type the
    // scratch holds: a collective of a narrower type indexes them in its
    // own units, past where a wider one's work-items may be storing.
    const uint64_t firstResult = maxWorkGroupSize_ * slotBytes_ / module_.getDataLayout().getTypeAllocSize(type);
    llvm::Value *resultIndex =
        resultSlotAfterItems_ ? builder_.CreateAdd(builder_.getInt64(firstResult), group.index) : group.first;
    builder_.CreateAlignedStore(value, slot(type, lid), alignOf(type));
    barrier(collective.subGroup);

    if (collective.collective == Collective::Broadcast) {
      llvm::Value *source = broadcastSource(call, collective.subGroup);
      // Out-of-range ids are undefined behaviour; stay inside the group.
      source = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, source,
                                              builder_.CreateSub(group.size, builder_.getInt64(1)));
      source = builder_.CreateAdd(group.first, source);
      llvm::Value *result = builder_.CreateAlignedLoad(type, slot(type, source), alignOf(type));
      barrier(collective.subGroup);
      replace(call, result);
      return;
    }

    llvm::BasicBlock *before = call.getParent();
    llvm::BasicBlock *after = before->splitBasicBlock(&call, "group.done");
    before->getTerminator()->eraseFromParent();
    auto *init = llvm::BasicBlock::Create(context_, "group.combine", &function_, after);
    auto *header = llvm::BasicBlock::Create(context_, "group.loop", &function_, after);
    auto *body = llvm::BasicBlock::Create(context_, "group.step", &function_, after);
    auto *exit = llvm::BasicBlock::Create(context_, "group.combined", &function_, after);
    builder_.SetInsertPoint(before);
    builder_.CreateCondBr(builder_.CreateICmpEQ(lid, group.first), init, after);

    // The group's first work-item folds its slots in order of local linear id.
    bool exclusive = collective.collective == Collective::ScanExclusive;
    builder_.SetInsertPoint(init);
    llvm::Value *first =
        exclusive ? static_cast<llvm::Value *>(collectiveIdentity(collective.operation, collective.type, type))
                  : builder_.CreateAlignedLoad(type, slot(type, group.first), alignOf(type));
    llvm::Value *start = exclusive ? group.first : builder_.CreateAdd(group.first, builder_.getInt64(1));
    llvm::Value *end = builder_.CreateAdd(group.first, group.size);
    builder_.CreateBr(header);

    builder_.SetInsertPoint(header);
    llvm::PHINode *index = builder_.CreatePHI(builder_.getInt64Ty(), 2, "group.index");
    llvm::PHINode *accumulator = builder_.CreatePHI(type, 2, "group.acc");
    index->addIncoming(start, init);
    accumulator->addIncoming(first, init);
    builder_.CreateCondBr(builder_.CreateICmpULT(index, end), body, exit);

    builder_.SetInsertPoint(body);
    llvm::Value *address = slot(type, index);
    llvm::Value *element = builder_.CreateAlignedLoad(type, address, alignOf(type));
    llvm::Value *next = combineCollective(builder_, collective.operation, collective.type, accumulator, element);
    if (exclusive)
      builder_.CreateAlignedStore(accumulator, address, alignOf(type));
    else if (collective.collective == Collective::ScanInclusive)
      builder_.CreateAlignedStore(next, address, alignOf(type));
    index->addIncoming(builder_.CreateAdd(index, builder_.getInt64(1)), body);
    accumulator->addIncoming(next, body);
    builder_.CreateBr(header);

    builder_.SetInsertPoint(exit);
    bool isScan = collective.isScan();
    if (!isScan)
      builder_.CreateAlignedStore(accumulator, slot(type, resultIndex), alignOf(type));
    builder_.CreateBr(after);

    builder_.SetInsertPoint(&call);
    barrier(collective.subGroup);
    llvm::Value *result = builder_.CreateAlignedLoad(type, slot(type, isScan ? lid : resultIndex), alignOf(type));
    if (!isScan && !resultSlotAfterItems_)
      barrier(collective.subGroup); // everyone has read the result before the next collective's stores
    replace(call, result);
  }

  /// The work-items a collective combines: local linear ids [first, first +
  /// size), the index-th group of the work-group.
  struct Group {
    llvm::Value *first;
    llvm::Value *size;
    llvm::Value *index;
  };

  /// The sub-group of the work-item with local linear id `lid` in a
  /// work-group of `workGroupSize` work-items.
  Group subGroupOf(llvm::Value *lid, llvm::Value *workGroupSize) {
    llvm::Value *subGroupSize = builder_.getInt64(subGroupSize_);
    llvm::Value *index = builder_.CreateUDiv(lid, subGroupSize);
    llvm::Value *first = builder_.CreateMul(index, subGroupSize);
    llvm::Value *size =
        builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, subGroupSize, builder_.CreateSub(workGroupSize, first));
    return {first, size, index};
  }

  llvm::Align alignOf(llvm::Type *type) { return module_.getDataLayout().getABITypeAlign(type); }

  llvm::Value *slot(llvm::Type *type, llvm::Value *index) { return builder_.CreateInBoundsGEP(type, scratch_, index); }

  llvm::Value *callBuiltin(llvm::StringRef name, llvm::Type *result, llvm::ArrayRef<llvm::Value *> args = {}) {
    llvm::SmallVector<llvm::Type *, 1> params;
    for (llvm::Value *arg : args)
      params.push_back(arg->getType());
    llvm::FunctionCallee callee = module_.getOrInsertFunction(name, llvm::FunctionType::get(result, params, false));
    if (auto *declaration = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      declaration->setDoesNotThrow();
      declaration->setWillReturn();
    }
    return builder_.CreateCall(callee, args);
  }

  llvm::Value *localLinearId() { return callBuiltin("_Z19get_local_linear_idv", builder_.getInt64Ty()); }

  /// Product of `sizeBuiltin(0..2)` (get_local_size or get_enqueued_local_size).
  llvm::Value *linearSize(llvm::StringRef sizeBuiltin) {
    llvm::Value *size = nullptr;
    for (unsigned dim = 0; dim < 3; ++dim) {
      llvm::Value *extent = callBuiltin(sizeBuiltin, builder_.getInt64Ty(), {builder_.getInt32(dim)});
      size = size ? builder_.CreateMul(size, extent) : extent;
    }
    return size;
  }

  /// The id a broadcast reads, relative to its group: the sub-group local id
  /// as is, or the work-group local id (x[, y[, z]]) made linear.
  llvm::Value *broadcastSource(llvm::CallInst &call, bool subGroup) {
    if (subGroup)
      return builder_.CreateZExt(call.getArgOperand(1), builder_.getInt64Ty());
    llvm::Value *linear = nullptr;
    llvm::Value *stride = nullptr;
    for (unsigned dim = 0; dim + 1 < call.arg_size(); ++dim) {
      llvm::Value *id = builder_.CreateZExtOrTrunc(call.getArgOperand(dim + 1), builder_.getInt64Ty());
      linear = linear ? builder_.CreateAdd(linear, builder_.CreateMul(id, stride)) : id;
      llvm::Value *extent = callBuiltin("_Z14get_local_sizej", builder_.getInt64Ty(), {builder_.getInt32(dim)});
      stride = stride ? builder_.CreateMul(stride, extent) : extent;
    }
    return linear;
  }

  /// A work-group barrier, or a sub-group one for a sub-group collective.
  void barrier(bool subGroup) {
    llvm::FunctionCallee callee =
        module_.getOrInsertFunction(subGroup ? "_Z17sub_group_barrierj" : "_Z7barrierj",
                                    llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getInt32Ty()}, false));
    if (auto *declaration = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      declaration->addFnAttr(llvm::Attribute::Convergent);
      declaration->setDoesNotThrow();
    }
    llvm::CallInst *call = builder_.CreateCall(callee, {builder_.getInt32(kLocalMemFence)});
    call->setConvergent();
  }

  void replace(llvm::CallInst &call, llvm::Value *value) {
    call.replaceAllUsesWith(value);
    call.eraseFromParent();
  }

  llvm::Function &function_;
  llvm::Module &module_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  /// The function's scratch (a __local variable, or its address once placed).
  llvm::Value *scratch_ = nullptr;
  /// Bytes of each of its slots: the widest type its collectives use.
  uint64_t slotBytes_ = 0;
  uint64_t slots_;
  uint64_t maxWorkGroupSize_;
  uint64_t subGroupSize_;
  /// Where a reduction's result goes (Options::resultSlotAfterItems).
  bool resultSlotAfterItems_;
  unsigned addressSpace_;
};

} // namespace

llvm::PreservedAnalyses LowerGroupBuiltinsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  // Classify the declarations once.
  llvm::DenseMap<llvm::Function *, Query> queries;
  llvm::DenseMap<llvm::Function *, CollectiveCall> collectives;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration())
      continue;
    if (Query query = classifyQuery(function.getName()); query != Query::None) {
      if (options.subGroupSize)
        queries[&function] = query;
    } else if (std::optional<CollectiveCall> collective = classifyCollective(function.getName())) {
      if (options.subGroupSize || !collective->subGroup)
        collectives[&function] = *collective;
    }
  }
  if (queries.empty() && collectives.empty())
    return llvm::PreservedAnalyses::all();

  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::SmallVector<std::pair<llvm::CallInst *, Query>, 8> queryCalls;
    llvm::SmallVector<std::pair<llvm::CallInst *, CollectiveCall>, 8> collectiveCalls;
    unsigned scratchBytes = 0;
    bool subGroupResults = false; // sub-group reductions, any or all
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee)
        continue;
      if (auto found = queries.find(callee); found != queries.end())
        queryCalls.push_back({call, found->second});
      else if (auto found = collectives.find(callee); found != collectives.end()) {
        const CollectiveCall &collective = found->second;
        collectiveCalls.push_back({call, collective});
        scratchBytes = std::max(scratchBytes, slotBytes(collective));
        subGroupResults |=
            collective.subGroup && !collective.isScan() && collective.collective != Collective::Broadcast;
      }
    }
    if (queryCalls.empty() && collectiveCalls.empty())
      continue;
    uint64_t resultSlots = subGroupResults ? llvm::divideCeil(options.maxWorkGroupSize, options.subGroupSize) : 1;
    GroupLowering lowering(function, options, resultSlots);
    if (scratchBytes)
      lowering.createScratch(scratchBytes);
    for (auto [call, query] : queryCalls)
      lowering.lowerQuery(*call, query);
    for (auto &[call, collective] : collectiveCalls) {
      if (collective.subGroup && options.deferSubGroupCollectives)
        lowering.deferCollective(*call);
      else
        lowering.lowerCollective(*call, collective);
    }
  }
  for (auto &entry : queries)
    if (entry.first->use_empty())
      entry.first->eraseFromParent();
  for (auto &entry : collectives)
    if (entry.first->use_empty())
      entry.first->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses LowerSubGroupCollectiveMarkersPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<std::pair<llvm::Function *, CollectiveCall>, 4> markers;
  for (llvm::Function &function : module)
    if (function.isDeclaration() && !function.use_empty())
      if (std::optional<CollectiveCall> collective = classifySubGroupCollectiveMarker(function))
        markers.push_back({&function, *collective});
  if (markers.empty())
    return llvm::PreservedAnalyses::all();
  for (auto &[marker, collective] : markers) {
    for (llvm::User *user : llvm::make_early_inc_range(marker->users())) {
      auto *call = llvm::cast<llvm::CallInst>(user);
      // The scratch and its result slots exist already (LowerGroupBuiltinsPass).
      GroupLowering lowering(*call->getFunction(), options, /*resultSlots=*/0);
      lowering.lowerMarker(*call, collective);
    }
    marker->eraseFromParent();
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler
