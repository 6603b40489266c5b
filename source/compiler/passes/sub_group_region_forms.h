// Vector forms of the barrier regions of kernels that call sub-group
// collectives or sub-group barriers and also wait at work-group barriers.
// Their scalar form runs in rounds, each collective between sub-group
// barriers (LowerSubGroupCollectiveMarkersPass, KernelWrapperPass); where every
// sub-group of a work-group is full and within one row, the vector forms
// run the regions instead, one sub-group per vector, each collective a few
// vector operations.
//
// VectorizeWorkItemsPass makes them, before the markers are lowered, from a
// copy of the work-item function cut at its work-group barriers, and names
// them in attributes of the work-item function; KernelWrapperPass, which
// cuts the scalar form later, runs them.
#pragma once

#include "widen_work_item.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <optional>

namespace compiler {

/// The sub-group region forms of one kernel.
struct SubGroupRegionForms {
  /// Region r's vector form, `i32 (work-item params..., ptr state)` as the
  /// regions of barrier_regions.h, for `width` lanes (lane 0 a multiple of
  /// `width` along x) whose states lie in one block, field by field
  /// (vectorizeRegions in vectorize_work_item.h).
  llvm::SmallVector<llvm::Function *, 4> regions;
  unsigned width = 0;
  /// Bytes of state per work-item (0: none), a multiple of every field's
  /// alignment.
  uint64_t stateStride = 0;
};

/// When `workItem` has work-group barriers and sub-group collective markers
/// or sub-group barriers (and nothing that keeps it scalar), adds the vector forms of its regions
/// for sub-groups of `subGroupSize` and records them on `workItem`; returns
/// whether it did. `workItem` itself is left as it was.
bool addSubGroupRegionForms(llvm::Function &workItem, unsigned vectorBits, unsigned subGroupSize,
                            llvm::FunctionAnalysisManager &analyses);

/// The forms addSubGroupRegionForms recorded on `workItem`, if any.
std::optional<SubGroupRegionForms> findSubGroupRegionForms(llvm::Function &workItem);

} // namespace compiler
