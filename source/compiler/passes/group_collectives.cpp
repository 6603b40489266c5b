// What the group collective builtins compute (see the header).
#include "compiler/group_collectives.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

namespace compiler {
namespace {
constexpr llvm::StringLiteral kMarkerPrefix = "__polymux_sub_group_collective.";
} // namespace

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
    call.operation = name == "any" ? CollectiveOperation::Or : CollectiveOperation::And;
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
  std::optional<CollectiveOperation> operation = llvm::StringSwitch<std::optional<CollectiveOperation>>(name)
                                                     .Case("add", CollectiveOperation::Add)
                                                     .Case("min", CollectiveOperation::Min)
                                                     .Case("max", CollectiveOperation::Max)
                                                     .Default(std::nullopt);
  if (!operation)
    return std::nullopt;
  call.operation = *operation;
  return call;
}

llvm::Constant *collectiveIdentity(CollectiveOperation operation, const ClType &type, llvm::Type *irType) {
  if (type.isFloat()) {
    const llvm::fltSemantics &semantics = irType->getScalarType()->getFltSemantics();
    switch (operation) {
    case CollectiveOperation::Min:
      return llvm::ConstantFP::get(irType, llvm::APFloat::getInf(semantics, /*Negative=*/false));
    case CollectiveOperation::Max:
      return llvm::ConstantFP::get(irType, llvm::APFloat::getInf(semantics, /*Negative=*/true));
    default:
      return llvm::ConstantFP::get(irType, 0.0);
    }
  }
  unsigned bits = type.scalarBits();
  switch (operation) {
  case CollectiveOperation::Min:
    return llvm::ConstantInt::get(irType, type.isSigned() ? llvm::APInt::getSignedMaxValue(bits)
                                                          : llvm::APInt::getMaxValue(bits));
  case CollectiveOperation::Max:
    return llvm::ConstantInt::get(irType, type.isSigned() ? llvm::APInt::getSignedMinValue(bits)
                                                          : llvm::APInt::getMinValue(bits));
  case CollectiveOperation::And:
    return llvm::ConstantInt::get(irType, 1);
  default:
    return llvm::ConstantInt::get(irType, 0);
  }
}

llvm::Value *combineCollective(llvm::IRBuilder<> &builder, CollectiveOperation operation, const ClType &type,
                               llvm::Value *left, llvm::Value *right) {
  bool isFloat = type.isFloat();
  switch (operation) {
  case CollectiveOperation::Add:
    // Integer addition wraps (OpenCL C has no signed overflow UB here).
    return isFloat ? builder.CreateFAdd(left, right) : builder.CreateAdd(left, right);
  case CollectiveOperation::Min:
    return builder.CreateBinaryIntrinsic(isFloat           ? llvm::Intrinsic::minnum
                                         : type.isSigned() ? llvm::Intrinsic::smin
                                                           : llvm::Intrinsic::umin,
                                         left, right);
  case CollectiveOperation::Max:
    return builder.CreateBinaryIntrinsic(isFloat           ? llvm::Intrinsic::maxnum
                                         : type.isSigned() ? llvm::Intrinsic::smax
                                                           : llvm::Intrinsic::umax,
                                         left, right);
  case CollectiveOperation::Or:
    return builder.CreateOr(left, right);
  case CollectiveOperation::And:
    return builder.CreateAnd(left, right);
  }
  llvm_unreachable("unknown operation");
}

llvm::Function *subGroupCollectiveMarker(llvm::Function &builtin, llvm::Type *scratchType) {
  llvm::LLVMContext &context = builtin.getContext();
  llvm::SmallVector<llvm::Type *, 5> params(builtin.getFunctionType()->params());
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  params.append({scratchType, i64, i64});
  auto *type = llvm::FunctionType::get(builtin.getReturnType(), params, false);
  llvm::Module &module = *builtin.getParent();
  auto *marker = llvm::cast<llvm::Function>(
      module.getOrInsertFunction((kMarkerPrefix + builtin.getName()).str(), type).getCallee());
  // A function of the sub-group's values alone: passes may remove it when
  // unused or merge two identical ones, but not move it to where other
  // work-items reach it (convergent).
  marker->setDoesNotAccessMemory();
  marker->setDoesNotThrow();
  marker->setWillReturn();
  marker->addFnAttr(llvm::Attribute::Convergent);
  return marker;
}

std::optional<CollectiveCall> classifySubGroupCollectiveMarker(const llvm::Function &function) {
  if (!function.getName().starts_with(kMarkerPrefix))
    return std::nullopt;
  std::optional<CollectiveCall> collective = classifyCollective(function.getName().drop_front(kMarkerPrefix.size()));
  if (!collective || !collective->subGroup)
    return std::nullopt;
  return collective;
}

std::optional<CollectiveCall> classifySubGroupCollectiveMarkerCall(const llvm::Value *value) {
  auto *call = llvm::dyn_cast<llvm::CallBase>(value);
  llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return std::nullopt;
  return classifySubGroupCollectiveMarker(*callee);
}

SubGroupCollectiveOperands subGroupCollectiveOperands(const llvm::CallBase &marker) {
  unsigned count = marker.arg_size();
  assert(count == 4 || count == 5);
  return {marker.getArgOperand(0), count == 5 ? marker.getArgOperand(1) : nullptr, marker.getArgOperand(count - 3),
          marker.getArgOperand(count - 2), marker.getArgOperand(count - 1)};
}

} // namespace compiler
