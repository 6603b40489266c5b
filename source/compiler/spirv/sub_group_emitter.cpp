// OpenCL sub-groups as Vulkan subgroups (cl_khr_subgroups; the runtime
// offers it only where compute shaders have the basic, vote, arithmetic and
// ballot operations): the queries from the subgroup built-ins, the
// collectives as GroupNonUniform instructions. 64-bit integers need
// shaderSubgroupExtendedTypes, which Polymux does not ask for: their
// collectives combine the lanes' values broadcast as 32-bit halves.
#include "kernel_emitter.h"

#include "spirv/unified1/GLSL.std.450.h"

#include "llvm/ADT/StringSwitch.h"

namespace compiler::spirv {

using abi::vulkan::LaunchField;

namespace {

constexpr uint32_t kScopeSubgroup = 3;

/// The OpenCL name and argument mangling of `_Z<length><name><arguments>`.
std::pair<llvm::StringRef, llvm::StringRef> demangle(llvm::StringRef mangled) {
  if (!mangled.consume_front("_Z"))
    return {};
  size_t length = 0;
  if (mangled.consumeInteger(10, length) || length > mangled.size())
    return {};
  return {mangled.take_front(length), mangled.drop_front(length)};
}

bool usesSubGroupSize(const llvm::Function &kernel) {
  for (const llvm::BasicBlock &block : kernel)
    for (const llvm::Instruction &instruction : block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (const llvm::Function *callee = call->getCalledFunction();
            callee && demangle(callee->getName()).first == "get_sub_group_size")
          return true;
  return false;
}

} // namespace

Id KernelEmitter::subgroupBuiltin(spv::BuiltIn which) {
  builder_.capability(spv::Capability::GroupNonUniform);
  Id &variable = state_.scalarBuiltins[uint32_t(which)];
  if (!variable) {
    variable = builder_.variable(builder_.typePointer(spv::StorageClass::Input, uint32Type()), spv::StorageClass::Input);
    builder_.decorate(variable, spv::Decoration::BuiltIn, {uint32_t(which)});
  }
  if (!llvm::is_contained(interface_, variable))
    interface_.push_back(variable);
  return op(spv::Op::OpLoad, uint32Type(), {variable});
}

Id KernelEmitter::activeLanes() {
  builder_.capability(spv::Capability::GroupNonUniformBallot);
  return op(spv::Op::OpGroupNonUniformBallot, builder_.typeVector(uint32Type(), 4),
            {uint32(kScopeSubgroup), builder_.constantBool(true)});
}

void KernelEmitter::emitSubGroupEntry() {
  // The size of this invocation's sub-group, counted where every invocation
  // is still active (a partial last sub-group is smaller).
  if (!usesSubGroupSize(kernel_))
    return;
  subGroupSize_ = op(spv::Op::OpGroupNonUniformBallotBitCount, uint32Type(),
                     {uint32(kScopeSubgroup), uint32_t(spv::GroupOperation::Reduce), activeLanes()});
}

std::optional<llvm::Error> KernelEmitter::emitSubGroupBuiltin(llvm::CallInst &call, llvm::StringRef mangledName) {
  llvm::StringRef name = demangle(mangledName).first;
  if (!name.starts_with("sub_group_") && !name.contains("sub_group"))
    return std::nullopt;
  if (!state_.config.subgroupSize)
    return unsupported(call, "sub-groups on this device ('" + name + "')");
  Id result = values_.lookup(&call);
  auto finish = [&](Id value) -> llvm::Error {
    Id resultType = type(call.getType());
    if (call.getType()->isIntegerTy(32))
      op(spv::Op::OpCopyObject, resultType, {value}, result);
    else
      op(spv::Op::OpUConvert, resultType, {value}, result);
    return llvm::Error::success();
  };
  // Work-items in the enqueued work-group, from the launch fields.
  auto enqueuedItems = [&] {
    Id items = launchField(LaunchField::EnqueuedLocalSize, 0);
    for (uint32_t d = 1; d < 3; ++d)
      items = op(spv::Op::OpIMul, uint32Type(), {items, launchField(LaunchField::EnqueuedLocalSize, d)});
    return items;
  };
  Id glsl = builder_.importGlsl450();
  if (name == "get_sub_group_size")
    return finish(subGroupSize_);
  if (name == "get_max_sub_group_size")
    return finish(op(spv::Op::OpExtInst, uint32Type(),
                     {glsl, GLSLstd450UMin, subgroupBuiltin(spv::BuiltIn::SubgroupSize), enqueuedItems()}));
  if (name == "get_num_sub_groups") {
    // From the dispatched work-group size rather than NumSubgroups, which
    // lavapipe 22.3 rounds down in a partial work-group (13 items in
    // sub-groups of 8 counted as one).
    Id items = op(spv::Op::OpIMul, uint32Type(),
                  {op(spv::Op::OpIMul, uint32Type(), {state_.localSize[0], state_.localSize[1]}), state_.localSize[2]});
    Id size = subgroupBuiltin(spv::BuiltIn::SubgroupSize);
    Id rounded = op(spv::Op::OpISub, uint32Type(), {op(spv::Op::OpIAdd, uint32Type(), {items, size}), uint32(1)});
    return finish(op(spv::Op::OpUDiv, uint32Type(), {rounded, size}));
  }
  if (name == "get_enqueued_num_sub_groups") {
    Id size = subgroupBuiltin(spv::BuiltIn::SubgroupSize);
    Id rounded = op(spv::Op::OpISub, uint32Type(), {op(spv::Op::OpIAdd, uint32Type(), {enqueuedItems(), size}), uint32(1)});
    return finish(op(spv::Op::OpUDiv, uint32Type(), {rounded, size}));
  }
  if (name == "get_sub_group_id")
    return finish(subgroupBuiltin(spv::BuiltIn::SubgroupId));
  if (name == "get_sub_group_local_id")
    return finish(subgroupBuiltin(spv::BuiltIn::SubgroupLocalInvocationId));
  if (name == "sub_group_barrier") {
    // The fence flags as barrier()'s.
    uint32_t flags = 7;
    if (auto *constantFlags = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0)))
      flags = uint32_t(constantFlags->getZExtValue());
    emitBarrier(kScopeSubgroup, kScopeSubgroup, barrierSemantics(flags));
    return llvm::Error::success();
  }
  return emitSubGroupCollective(call, mangledName);
}

llvm::Error KernelEmitter::emitSubGroupCollective(llvm::CallInst &call, llvm::StringRef mangledName) {
  std::optional<CollectiveCall> collective = classifyCollective(mangledName);
  if (!collective || !collective->subGroup)
    return unsupported(call, "the sub-group function '" + demangle(mangledName).first + "'");
  llvm::Type *valueType = call.getType();
  Id resultType = type(valueType);
  Id result = values_.lookup(&call);
  Id x = value(call.getArgOperand(0));
  if (collective->collective == Collective::Any || collective->collective == Collective::All) {
    builder_.capability(spv::Capability::GroupNonUniformVote);
    Id predicate = op(spv::Op::OpINotEqual, builder_.typeBool(), {x, uint32(0)});
    Id vote =
        op(collective->collective == Collective::Any ? spv::Op::OpGroupNonUniformAny : spv::Op::OpGroupNonUniformAll,
           builder_.typeBool(), {uint32(kScopeSubgroup), predicate});
    op(spv::Op::OpSelect, resultType, {vote, uint32(1), uint32(0)}, result);
    return llvm::Error::success();
  }
  if (valueType->isVectorTy() || !resultType)
    return unsupported(call, "the sub-group function '" + demangle(mangledName).first + "' on this type");
  // half (cl_khr_fp16) in float, widened exactly: broadcasts, minima and
  // maxima are exact; a sum or scan is rounded to half once, at the end
  // (OpenCL leaves the order and rounding of collective sums open).
  const Id halfResult = valueType->isHalfTy() ? result : 0;
  if (halfResult) {
    resultType = builder_.typeFloat(32);
    x = op(spv::Op::OpFConvert, resultType, {x});
    result = builder_.newId();
  }
  auto finish = [&] {
    if (halfResult)
      op(spv::Op::OpFConvert, type(valueType), {result}, halfResult);
    return llvm::Error::success();
  };
  if (valueType->isIntegerTy(64)) {
    op(spv::Op::OpCopyObject, resultType,
       {wideSubGroupCollective(*collective, x,
                               collective->collective == Collective::Broadcast ? value(call.getArgOperand(1)) : 0)},
       result);
    return llvm::Error::success();
  }
  if (collective->collective == Collective::Broadcast) {
    builder_.capability(spv::Capability::GroupNonUniformBallot);
    op(spv::Op::OpGroupNonUniformBroadcast, resultType, {uint32(kScopeSubgroup), x, value(call.getArgOperand(1))},
       result);
    return finish();
  }
  builder_.capability(spv::Capability::GroupNonUniformArithmetic);
  bool isFloat = valueType->isFloatingPointTy();
  bool isSigned = collective->type.isSigned();
  spv::Op opcode;
  switch (collective->operation) {
  case CollectiveOperation::Add:
    opcode = isFloat ? spv::Op::OpGroupNonUniformFAdd : spv::Op::OpGroupNonUniformIAdd;
    break;
  case CollectiveOperation::Min:
    opcode = isFloat    ? spv::Op::OpGroupNonUniformFMin
             : isSigned ? spv::Op::OpGroupNonUniformSMin
                        : spv::Op::OpGroupNonUniformUMin;
    break;
  default:
    opcode = isFloat    ? spv::Op::OpGroupNonUniformFMax
             : isSigned ? spv::Op::OpGroupNonUniformSMax
                        : spv::Op::OpGroupNonUniformUMax;
    break;
  }
  spv::GroupOperation group = collective->collective == Collective::Reduce ? spv::GroupOperation::Reduce
                              : collective->collective == Collective::ScanInclusive
                                  ? spv::GroupOperation::InclusiveScan
                                  : spv::GroupOperation::ExclusiveScan;
  op(opcode, resultType, {uint32(kScopeSubgroup), uint32_t(group), x}, result);
  return finish();
}

Id KernelEmitter::wideSubGroupCollective(const CollectiveCall &call, Id x, Id source) {
  // Each lane's value as two 32-bit broadcasts, combined by every lane for
  // the lanes its result covers: all active lanes (reduce), those up to and
  // including its own (inclusive scan) or before it (exclusive scan).
  const Collective collective = call.collective;
  const CollectiveOperation combine = call.operation;
  const bool isSigned = call.type.isSigned();
  builder_.capability(spv::Capability::GroupNonUniformBallot);
  Id int64 = uint64Type(), boolType = builder_.typeBool();
  auto broadcast = [&](Id value, Id lane) {
    Id low = op(spv::Op::OpUConvert, uint32Type(), {value});
    Id high = op(spv::Op::OpUConvert, uint32Type(), {op(spv::Op::OpShiftRightLogical, int64, {value, uint32(32)})});
    low = op(spv::Op::OpGroupNonUniformBroadcast, uint32Type(), {uint32(kScopeSubgroup), low, lane});
    high = op(spv::Op::OpGroupNonUniformBroadcast, uint32Type(), {uint32(kScopeSubgroup), high, lane});
    return op(spv::Op::OpBitwiseOr, int64,
              {op(spv::Op::OpUConvert, int64, {low}),
               op(spv::Op::OpShiftLeftLogical, int64, {op(spv::Op::OpUConvert, int64, {high}), uint32(32)})});
  };
  if (collective == Collective::Broadcast)
    return broadcast(x, source);
  llvm::Type *i64 = llvm::Type::getInt64Ty(kernel_.getContext());
  auto identity = [&]() -> Id {
    if (combine == CollectiveOperation::Add)
      return constant(llvm::ConstantInt::get(i64, 0));
    bool isMin = combine == CollectiveOperation::Min;
    llvm::APInt bound = isSigned ? (isMin ? llvm::APInt::getSignedMaxValue(64) : llvm::APInt::getSignedMinValue(64))
                                 : (isMin ? llvm::APInt::getMaxValue(64) : llvm::APInt::getMinValue(64));
    return constant(llvm::ConstantInt::get(i64, bound));
  };
  Id active = activeLanes();
  Id self = subgroupBuiltin(spv::BuiltIn::SubgroupLocalInvocationId);
  Id accumulated = identity();
  Id glsl = builder_.importGlsl450();
  for (uint32_t lane = 0; lane < state_.config.subgroupSize; ++lane) {
    Id laneValue = broadcast(x, uint32(lane));
    Id covered = op(spv::Op::OpGroupNonUniformBallotBitExtract, boolType, {uint32(kScopeSubgroup), active, uint32(lane)});
    if (collective != Collective::Reduce)
      covered =
          op(spv::Op::OpLogicalAnd, boolType,
             {covered, op(collective == Collective::ScanInclusive ? spv::Op::OpULessThanEqual : spv::Op::OpULessThan,
                          boolType, {uint32(lane), self})});
    Id combined;
    if (combine == CollectiveOperation::Add)
      combined = op(spv::Op::OpIAdd, int64, {accumulated, laneValue});
    else
      combined = op(spv::Op::OpExtInst, int64,
                    {glsl,
                     uint32_t(combine == CollectiveOperation::Min ? (isSigned ? GLSLstd450SMin : GLSLstd450UMin)
                                                                  : (isSigned ? GLSLstd450SMax : GLSLstd450UMax)),
                     accumulated, laneValue});
    accumulated = op(spv::Op::OpSelect, int64, {covered, combined, accumulated});
  }
  return accumulated;
}

} // namespace compiler::spirv
