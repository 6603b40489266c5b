// Sub-group collectives as vector operations (see the header).
#include "widen_sub_group_collective.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Intrinsics.h"

namespace compiler {
namespace {

llvm::Value *reduce(llvm::IRBuilder<> &builder, const CollectiveCall &collective, llvm::Value *value) {
  const ClType &type = collective.type;
  llvm::Type *element = value->getType()->getScalarType();
  switch (collective.operation) {
  case CollectiveOperation::Add:
    // Without reassociation the reduction is ordered: lane 0 first.
    return type.isFloat() ? builder.CreateFAddReduce(llvm::ConstantFP::getNegativeZero(element), value)
                          : builder.CreateAddReduce(value);
  case CollectiveOperation::Min:
    return type.isFloat() ? builder.CreateFPMinReduce(value) : builder.CreateIntMinReduce(value, type.isSigned());
  case CollectiveOperation::Max:
    return type.isFloat() ? builder.CreateFPMaxReduce(value) : builder.CreateIntMaxReduce(value, type.isSigned());
  case CollectiveOperation::Or:
  case CollectiveOperation::And:
    break;
  }
  llvm_unreachable("any and all are not reductions here");
}

/// Floating-point addition scans one lane after the other, in the order the
/// scalar lowering adds (the identity first for the exclusive form).
llvm::Value *sequentialScan(llvm::IRBuilder<> &builder, const CollectiveCall &collective, llvm::Value *value,
                            unsigned width) {
  bool exclusive = collective.collective == Collective::ScanExclusive;
  llvm::Type *element = value->getType()->getScalarType();
  llvm::Value *result = llvm::PoisonValue::get(value->getType());
  llvm::Value *sum = exclusive ? collectiveIdentity(collective.operation, collective.type, element) : nullptr;
  for (unsigned i = 0; i < width; ++i) {
    llvm::Value *x = builder.CreateExtractElement(value, i);
    if (exclusive) {
      result = builder.CreateInsertElement(result, sum, i);
      sum = builder.CreateFAdd(sum, x);
    } else {
      sum = sum ? builder.CreateFAdd(sum, x) : x;
      result = builder.CreateInsertElement(result, sum, i);
    }
  }
  return result;
}

/// `value` moved up by `shift` lanes, the identity in the lanes it leaves.
llvm::Value *shiftLanes(llvm::IRBuilder<> &builder, llvm::Value *value, llvm::Value *identity, unsigned width,
                        unsigned shift) {
  llvm::SmallVector<int, 16> mask;
  for (unsigned i = 0; i < width; ++i)
    mask.push_back(i < shift ? static_cast<int>(i) : static_cast<int>(width + i - shift));
  return builder.CreateShuffleVector(identity, value, mask);
}

/// Associative scans in log2(width) steps: after the step of shift k, lane i
/// holds the combination of lanes max(0, i - 2k + 1) .. i.
llvm::Value *logarithmicScan(llvm::IRBuilder<> &builder, const CollectiveCall &collective, llvm::Value *value,
                             unsigned width) {
  llvm::Value *identity = collectiveIdentity(collective.operation, collective.type, value->getType());
  llvm::Value *inclusive = value;
  for (unsigned shift = 1; shift < width; shift *= 2)
    inclusive = combineCollective(builder, collective.operation, collective.type, inclusive,
                                  shiftLanes(builder, inclusive, identity, width, shift));
  if (collective.collective == Collective::ScanInclusive)
    return inclusive;
  return shiftLanes(builder, inclusive, identity, width, 1);
}

} // namespace

llvm::Value *widenSubGroupCollective(llvm::IRBuilder<> &builder, const CollectiveCall &collective, llvm::Value *value,
                                     llvm::Value *id) {
  unsigned width = llvm::cast<llvm::FixedVectorType>(value->getType())->getNumElements();
  switch (collective.collective) {
  case Collective::Any:
  case Collective::All: {
    llvm::Value *truth = builder.CreateICmpNE(value, llvm::Constant::getNullValue(value->getType()));
    llvm::Value *result =
        collective.collective == Collective::Any ? builder.CreateOrReduce(truth) : builder.CreateAndReduce(truth);
    return builder.CreateZExt(result, value->getType()->getScalarType());
  }
  case Collective::Broadcast: {
    llvm::Value *lane = builder.CreateZExtOrTrunc(id, builder.getInt32Ty());
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(lane))
      lane = builder.getInt32(std::min<uint64_t>(constant->getZExtValue(), width - 1));
    else
      lane = builder.CreateBinaryIntrinsic(llvm::Intrinsic::umin, lane, builder.getInt32(width - 1));
    return builder.CreateExtractElement(value, lane);
  }
  case Collective::Reduce:
    return reduce(builder, collective, value);
  case Collective::ScanInclusive:
  case Collective::ScanExclusive:
    if (collective.type.isFloat() && collective.operation == CollectiveOperation::Add)
      return sequentialScan(builder, collective, value, width);
    return logarithmicScan(builder, collective, value, width);
  }
  llvm_unreachable("unknown collective");
}

} // namespace compiler
