// Which values of a work-item function differ between the work-items that
// the vectoriser packs into SIMD lanes (consecutive local ids of dimension
// 0), and how addresses and integers step from one lane to the next.
#pragma once

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <cstdint>
#include <optional>

namespace compiler {

/// `i1 @__polymux_any_lane(i1)`: true in every lane when its operand is
/// true in any active lane. The linearisation of divergent loops branches on
/// it; the widener makes it a reduction. Its result is uniform.
llvm::Function *anyLaneFunction(llvm::Module &module);
bool isAnyLaneCall(const llvm::Value *value);

/// `i64 @__polymux_lane_index()`: the lane's position in the vector, 0 to
/// width - 1 (varying, step 1). Only the vectoriser's own input uses it:
/// a barrier region's state addresses its lanes' copies of a field with it.
llvm::Function *laneIndexFunction(llvm::Module &module);
bool isLaneIndexCall(const llvm::Value *value);

class WorkItemUniformity {
public:
  /// Analyses `function`, whose argument `laneId` is the local id that
  /// differs by one from lane to lane. With `laneBlock` (a power of two, at
  /// least 2), the vectoriser promises vectors of at most `laneBlock`
  /// lanes whose lane 0 has a local id that is a multiple of their width:
  /// `(id + u) / C` is then uniform and `(id + u) % C` steps by one when C
  /// and u are multiples of `laneBlock` (isLaneBlockUniform).
  WorkItemUniformity(llvm::Function &function, llvm::Value *laneId, unsigned laneBlock = 0);

  /// Marks `value` varying and everything computed from it; for the phis
  /// at joins of divergent control flow.
  void markVarying(llvm::Value *value);
  /// Forgets everything and analyses the function again (after it changed).
  void recompute();

  /// Whether lanes may hold different values of `value`. Allocas are
  /// always varying (each work-item has its own private memory); so are
  /// atomics and calls that may write memory.
  bool isVarying(const llvm::Value *value) const { return varying_.contains(value); }
  /// Whether `instruction` is uniform although an operand varies: the
  /// quotient of a value whose lanes all lie in one block of its divisor.
  /// Lane 0's operands give its value.
  bool isLaneBlockUniform(const llvm::Instruction *instruction) const {
    return laneBlockUniform_.contains(instruction);
  }

  /// Whether `terminator` branches on a varying condition.
  bool isDivergent(const llvm::Instruction *terminator) const;

  /// The step from one lane's value to the next lane's for an integer or
  /// pointer value (bytes for pointers): 0 for uniform values, nullopt when
  /// lanes are not evenly spaced or the step is not a constant. Integer
  /// widening casts keep the step: the analysis assumes, as the kernel's own
  /// integer types imply, that an index does not wrap between neighbouring
  /// work-items.
  std::optional<int64_t> stride(llvm::Value *value);

private:
  void propagate(llvm::SmallVectorImpl<llvm::Value *> &worklist);
  bool producesVaryingResult(const llvm::Instruction &instruction) const;
  std::optional<int64_t> computeStride(llvm::Value *value);
  std::optional<int64_t> phiStride(llvm::PHINode &phi);
  bool isUniformStepOf(llvm::Value *value, llvm::PHINode &phi) const;
  void analyse();
  bool dropInvalidLaneBlockUniforms();
  bool isLaneBlockQuotient(const llvm::Instruction &instruction) const;
  std::optional<llvm::APInt> varyingBits(const llvm::Value *value) const;
  std::optional<llvm::APInt> resultVaryingBits(const llvm::Instruction &instruction) const;
  bool keepsVaryingBits(const llvm::Instruction &instruction) const;

  llvm::Function &function_;
  llvm::Value *laneId_;
  unsigned laneBlock_;
  llvm::SmallPtrSet<const llvm::Value *, 32> varying_;
  llvm::SmallPtrSet<const llvm::Instruction *, 8> laneBlockUniform_;
  llvm::DenseMap<llvm::Value *, std::optional<int64_t>> strides_;
  /// varyingBits: the bits of an integer in which lanes may differ.
  mutable llvm::DenseMap<const llvm::Value *, std::optional<llvm::APInt>> bits_;
};

} // namespace compiler
