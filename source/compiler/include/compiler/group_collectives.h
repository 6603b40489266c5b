// What the group collective builtins compute, shared by their lowering
// (passes/lower_group_builtins.cpp), by the work-item vectoriser, which
// turns a sub-group collective into vector operations when one vector holds
// one whole sub-group (passes/widen_sub_group_collective.h), and by the
// vulkan SPIR-V emitter (spirv/sub_group_emitter.cpp), which turns it into a
// GroupNonUniform instruction.
//
// On CPU targets the sub-group collectives are kept, until the vectoriser
// has run, as marker calls that carry what either lowering needs:
//   T @"__polymux_sub_group_collective.<mangled builtin>"(
//       T value, [i32 id,] ptr scratch, i64 localLinearId, i64 workGroupSize)
// (id for broadcasts only; scratch is the function's __local scratch).
#pragma once

#include "compiler/builtin_signature.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"

#include <optional>

namespace compiler {

enum class Collective { Reduce, ScanInclusive, ScanExclusive, Broadcast, Any, All };
enum class CollectiveOperation { Add, Min, Max, Or, And };

struct CollectiveCall {
  Collective collective;
  CollectiveOperation operation = CollectiveOperation::Add;
  /// The value's OpenCL C type (any and all: int).
  ClType type;
  bool subGroup = false;

  bool isScan() const { return collective == Collective::ScanInclusive || collective == Collective::ScanExclusive; }
  /// Whether every work-item of the group gets the same result.
  bool isGroupUniform() const { return !isScan(); }
};

/// The collective a mangled builtin name (`_Z20sub_group_reduce_addi`)
/// denotes, if it is one the lowering implements.
std::optional<CollectiveCall> classifyCollective(llvm::StringRef symbol);

/// The identity of `operation` on values of `type` (IR type `irType`, or a
/// vector of it): the first result of an exclusive scan.
llvm::Constant *collectiveIdentity(CollectiveOperation operation, const ClType &type, llvm::Type *irType);

/// `left op right` for values (or vectors of values) of `type`. Integer
/// addition wraps; floating-point min and max are minnum and maxnum.
llvm::Value *combineCollective(llvm::IRBuilder<> &builder, CollectiveOperation operation, const ClType &type,
                               llvm::Value *left, llvm::Value *right);

/// The marker declaration for sub-group collective `builtin` (a declared
/// builtin whose name classifyCollective accepts).
llvm::Function *subGroupCollectiveMarker(llvm::Function &builtin, llvm::Type *scratchType);

/// The sub-group collective whose marker `function` is, if it is one.
std::optional<CollectiveCall> classifySubGroupCollectiveMarker(const llvm::Function &function);
/// The sub-group collective that `value` calls through its marker, if any.
std::optional<CollectiveCall> classifySubGroupCollectiveMarkerCall(const llvm::Value *value);

/// The operands of a marker call beyond its value (and id).
struct SubGroupCollectiveOperands {
  llvm::Value *value;
  llvm::Value *id; ///< broadcasts only, else nullptr
  llvm::Value *scratch;
  llvm::Value *localLinearId;
  llvm::Value *workGroupSize;
};
SubGroupCollectiveOperands subGroupCollectiveOperands(const llvm::CallBase &marker);

} // namespace compiler
