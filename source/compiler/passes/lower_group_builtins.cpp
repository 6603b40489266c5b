// Implements the work-group and sub-group collective builtins and the
// sub-group queries. On CPU targets a sub-group is the whole work-group, so
// the sub_group_ forms are the work_group_ ones and the queries are
// work-group facts.
//
// Each collective call becomes, in place:
//   scratch[lid] = x;   barrier
//   if (lid == 0) combine scratch[0 .. n) sequentially (scans in place,
//                 reductions into scratch[maxWorkGroupSize]);
//   barrier;            result = scratch[lid] or scratch[maxWorkGroupSize]
// (or, with Options::resultSlotAfterItems off, into scratch[0], read before
// a third barrier)
// (a broadcast reads scratch[id] between the two barriers instead). That is
// O(n) per work-group. A work-item only ever stores to its own slot before
// the first barrier and only work-item 0 writes between the barriers, so a
// following collective may reuse the scratch without a third barrier.
// The scratch is one per function, sized for the largest element it needs;
// it is a __local variable (internal, undef initializer) with one slot per
// work-item of the largest work-group (Options::maxWorkGroupSize) plus one,
// which LowerLocalVariablesPass places in the work-group's __local area (on
// vulkan: the kernel's Workgroup array).
// The barriers are `barrier(CLK_LOCAL_MEM_FENCE)` calls and the ids are
// calls of the work-item builtins, all lowered by later passes.
#include "builtin_signature.h"
#include "compiler/passes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>

namespace compiler {
namespace {

constexpr unsigned kLocalMemFence = 1; // CLK_LOCAL_MEM_FENCE

enum class Collective { Reduce, ScanInclusive, ScanExclusive, Broadcast, Any, All };
enum class Operation { Add, Min, Max, Or, And };

struct CollectiveCall {
  Collective collective;
  Operation operation = Operation::Add;
  ClType type;
  bool subGroup = false;
};

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

std::optional<CollectiveCall> classifyCollective(llvm::StringRef symbol) {
  std::optional<BuiltinSignature> signature = parseBuiltinSignature(symbol);
  if (!signature)
    return std::nullopt;
  CollectiveCall call;
  llvm::StringRef name = signature->name;
  if (name.consume_front("sub_group_"))
    call.subGroup = true;
  else if (!name.consume_front("work_group_"))
    return std::nullopt;
  const auto &params = signature->params;
  call.type = params.front();
  if (call.type.lanes != 1)
    return std::nullopt;
  auto isIndex = [&](const ClType &type) {
    return type.lanes == 1 && (call.subGroup ? type.scalar == ScalarKind::UInt : type.scalar == ScalarKind::ULong);
  };
  if (name == "broadcast") {
    size_t ids = params.size() - 1;
    if (ids < 1 || ids > (call.subGroup ? 1u : 3u) || !llvm::all_of(llvm::drop_begin(params), isIndex))
      return std::nullopt;
    call.collective = Collective::Broadcast;
    return call;
  }
  if (params.size() != 1)
    return std::nullopt;
  if (name == "any" || name == "all") {
    if (call.type.scalar != ScalarKind::Int)
      return std::nullopt;
    call.collective = name == "any" ? Collective::Any : Collective::All;
    call.operation = name == "any" ? Operation::Or : Operation::And;
    return call;
  }
  if (!call.type.isFloat() && call.type.scalarBits() < 32)
    return std::nullopt; // char and short have no collectives (half does)
  std::optional<Collective> collective;
  if (name.consume_front("reduce_"))
    collective = Collective::Reduce;
  else if (name.consume_front("scan_inclusive_"))
    collective = Collective::ScanInclusive;
  else if (name.consume_front("scan_exclusive_"))
    collective = Collective::ScanExclusive;
  if (!collective)
    return std::nullopt;
  call.collective = *collective;
  std::optional<Operation> operation = llvm::StringSwitch<std::optional<Operation>>(name)
                                           .Case("add", Operation::Add)
                                           .Case("min", Operation::Min)
                                           .Case("max", Operation::Max)
                                           .Default(std::nullopt);
  if (!operation)
    return std::nullopt;
  call.operation = *operation;
  return call;
}

/// Bytes of one scratch slot for `call`.
unsigned slotBytes(const CollectiveCall &call) {
  if (call.collective == Collective::Any || call.collective == Collective::All)
    return 4;
  return call.type.scalarBits() / 8;
}

/// The identity of `operation` on values of `type`: the first result of an
/// exclusive scan.
llvm::Constant *identity(Operation operation, const ClType &type, llvm::Type *irType) {
  if (type.isFloat()) {
    const llvm::fltSemantics &semantics = irType->getFltSemantics();
    switch (operation) {
    case Operation::Min:
      return llvm::ConstantFP::get(irType, llvm::APFloat::getInf(semantics, /*Negative=*/false));
    case Operation::Max:
      return llvm::ConstantFP::get(irType, llvm::APFloat::getInf(semantics, /*Negative=*/true));
    default:
      return llvm::ConstantFP::get(irType, 0.0);
    }
  }
  unsigned bits = type.scalarBits();
  switch (operation) {
  case Operation::Min:
    return llvm::ConstantInt::get(irType, type.isSigned() ? llvm::APInt::getSignedMaxValue(bits)
                                                          : llvm::APInt::getMaxValue(bits));
  case Operation::Max:
    return llvm::ConstantInt::get(irType, type.isSigned() ? llvm::APInt::getSignedMinValue(bits)
                                                          : llvm::APInt::getMinValue(bits));
  case Operation::And:
    return llvm::ConstantInt::get(irType, 1);
  default:
    return llvm::ConstantInt::get(irType, 0);
  }
}

llvm::Value *combine(llvm::IRBuilder<> &builder, Operation operation, const ClType &type, llvm::Value *left,
                     llvm::Value *right) {
  bool isFloat = type.isFloat();
  switch (operation) {
  case Operation::Add:
    // Integer addition wraps (OpenCL C has no signed overflow UB here).
    return isFloat ? builder.CreateFAdd(left, right) : builder.CreateAdd(left, right);
  case Operation::Min:
    return builder.CreateBinaryIntrinsic(isFloat           ? llvm::Intrinsic::minnum
                                         : type.isSigned() ? llvm::Intrinsic::smin
                                                           : llvm::Intrinsic::umin,
                                         left, right);
  case Operation::Max:
    return builder.CreateBinaryIntrinsic(isFloat           ? llvm::Intrinsic::maxnum
                                         : type.isSigned() ? llvm::Intrinsic::smax
                                                           : llvm::Intrinsic::umax,
                                         left, right);
  case Operation::Or:
    return builder.CreateOr(left, right);
  case Operation::And:
    return builder.CreateAnd(left, right);
  }
  llvm_unreachable("unknown operation");
}

/// Emits the collectives and queries of one function.
class GroupLowering {
public:
  GroupLowering(llvm::Function &function, const LowerGroupBuiltinsPass::Options &options)
      : function_(function), module_(*function.getParent()), context_(function.getContext()),
        builder_(function.getContext()), slots_(options.maxWorkGroupSize + (options.resultSlotAfterItems ? 1 : 0)),
        resultSlot_(options.resultSlotAfterItems ? options.maxWorkGroupSize : 0),
        addressSpace_(options.scratchAddressSpace.value_or(module_.getDataLayout().getDefaultGlobalsAddressSpace())) {}

  /// Creates the function's scratch variable with slots of `bytes` bytes.
  void createScratch(unsigned bytes) {
    llvm::Type *slot = llvm::Type::getIntNTy(context_, bytes * 8);
    auto *type = llvm::ArrayType::get(slot, slots_);
    scratch_ = new llvm::GlobalVariable(module_, type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
                                        llvm::UndefValue::get(type), "__polymux_group_scratch." + function_.getName(),
                                        nullptr, llvm::GlobalValue::NotThreadLocal, addressSpace_);
    scratch_->setAlignment(llvm::Align(8));
    scratch_->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  }

  void lowerQuery(llvm::CallInst &call, Query query) {
    builder_.SetInsertPoint(&call);
    llvm::Value *value = nullptr;
    switch (query) {
    case Query::SubGroupSize:
      value = linearSize("_Z14get_local_sizej");
      break;
    case Query::MaxSubGroupSize:
      value = linearSize("_Z23get_enqueued_local_sizej");
      break;
    case Query::NumSubGroups:
    case Query::EnqueuedNumSubGroups:
      value = builder_.getInt64(1);
      break;
    case Query::SubGroupId:
      value = builder_.getInt64(0);
      break;
    case Query::LocalId:
      value = localLinearId();
      break;
    case Query::None:
      llvm_unreachable("not a query");
    }
    replace(call, builder_.CreateZExtOrTrunc(value, call.getType()));
  }

  void lowerCollective(llvm::CallInst &call, const CollectiveCall &collective) {
    builder_.SetInsertPoint(&call);
    llvm::Value *value = call.getArgOperand(0);
    llvm::Type *type = value->getType();
    if (collective.collective == Collective::Any || collective.collective == Collective::All) {
      value = builder_.CreateZExt(builder_.CreateICmpNE(value, llvm::ConstantInt::get(type, 0)), builder_.getInt32Ty());
      type = builder_.getInt32Ty();
    }
    llvm::Value *lid = localLinearId();
    llvm::Value *size = linearSize("_Z14get_local_sizej");
    builder_.CreateAlignedStore(value, slot(type, lid), alignOf(type));
    barrier();

    if (collective.collective == Collective::Broadcast) {
      llvm::Value *source = broadcastSource(call, collective.subGroup);
      // Out-of-range ids are undefined behaviour; stay inside the group.
      source =
          builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, source, builder_.CreateSub(size, builder_.getInt64(1)));
      llvm::Value *result = builder_.CreateAlignedLoad(type, slot(type, source), alignOf(type));
      barrier();
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
    builder_.CreateCondBr(builder_.CreateICmpEQ(lid, builder_.getInt64(0)), init, after);

    // Work-item 0 folds the slots in order of local linear id.
    bool exclusive = collective.collective == Collective::ScanExclusive;
    builder_.SetInsertPoint(init);
    llvm::Value *first = exclusive ? static_cast<llvm::Value *>(identity(collective.operation, collective.type, type))
                                   : builder_.CreateAlignedLoad(type, slot(type, builder_.getInt64(0)), alignOf(type));
    llvm::Value *start = builder_.getInt64(exclusive ? 0 : 1);
    builder_.CreateBr(header);

    builder_.SetInsertPoint(header);
    llvm::PHINode *index = builder_.CreatePHI(builder_.getInt64Ty(), 2, "group.index");
    llvm::PHINode *accumulator = builder_.CreatePHI(type, 2, "group.acc");
    index->addIncoming(start, init);
    accumulator->addIncoming(first, init);
    builder_.CreateCondBr(builder_.CreateICmpULT(index, size), body, exit);

    builder_.SetInsertPoint(body);
    llvm::Value *address = slot(type, index);
    llvm::Value *element = builder_.CreateAlignedLoad(type, address, alignOf(type));
    llvm::Value *next = combine(builder_, collective.operation, collective.type, accumulator, element);
    if (exclusive)
      builder_.CreateAlignedStore(accumulator, address, alignOf(type));
    else if (collective.collective == Collective::ScanInclusive)
      builder_.CreateAlignedStore(next, address, alignOf(type));
    index->addIncoming(builder_.CreateAdd(index, builder_.getInt64(1)), body);
    accumulator->addIncoming(next, body);
    builder_.CreateBr(header);

    builder_.SetInsertPoint(exit);
    bool isScan = collective.collective == Collective::ScanInclusive || exclusive;
    if (!isScan)
      builder_.CreateAlignedStore(accumulator, slot(type, builder_.getInt64(resultSlot_)), alignOf(type));
    builder_.CreateBr(after);

    builder_.SetInsertPoint(&call);
    barrier();
    llvm::Value *result =
        builder_.CreateAlignedLoad(type, slot(type, isScan ? lid : builder_.getInt64(resultSlot_)), alignOf(type));
    if (!isScan && resultSlot_ == 0)
      barrier(); // everyone has read slot 0 before the next collective's stores
    replace(call, result);
  }

private:
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

  /// The local linear id a broadcast reads: the sub-group local id as is, or
  /// the work-group local id (x[, y[, z]]) made linear.
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

  void barrier() {
    llvm::FunctionCallee callee = module_.getOrInsertFunction(
        "_Z7barrierj", llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getInt32Ty()}, false));
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
  llvm::GlobalVariable *scratch_ = nullptr;
  uint64_t slots_;
  /// Where a reduction's result goes (Options::resultSlotAfterItems).
  uint64_t resultSlot_;
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
      if (options.subGroupsAreWorkGroups)
        queries[&function] = query;
    } else if (std::optional<CollectiveCall> collective = classifyCollective(function.getName())) {
      if (options.subGroupsAreWorkGroups || !collective->subGroup)
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
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee)
        continue;
      if (auto found = queries.find(callee); found != queries.end())
        queryCalls.push_back({call, found->second});
      else if (auto found = collectives.find(callee); found != collectives.end()) {
        collectiveCalls.push_back({call, found->second});
        scratchBytes = std::max(scratchBytes, slotBytes(found->second));
      }
    }
    if (queryCalls.empty() && collectiveCalls.empty())
      continue;
    GroupLowering lowering(function, options);
    if (scratchBytes)
      lowering.createScratch(scratchBytes);
    for (auto [call, query] : queryCalls)
      lowering.lowerQuery(*call, query);
    for (auto &[call, collective] : collectiveCalls)
      lowering.lowerCollective(*call, collective);
  }
  for (auto &entry : queries)
    if (entry.first->use_empty())
      entry.first->eraseFromParent();
  for (auto &entry : collectives)
    if (entry.first->use_empty())
      entry.first->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler
