// The work-item vectoriser's entry for one function: a work-item function
// (VectorizeWorkItemsPass) or a barrier region of one (KernelWrapperPass).
#pragma once

#include "widen_work_item.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"

namespace compiler {

/// A vector form: null function when the scalar form stays alone.
using VectorForm = WidenedWorkItem;

/// Whether `workItem` keeps only its scalar form whatever its code: built
/// with debug information (a debugger steps one work-item at a time), or
/// calling printf (whose output keeps the order of work-items).
bool keepsScalarForm(const llvm::Function &workItem);

/// The vector form of work-item function `scalar` for vector registers of
/// `vectorBits` bits, when it pays. `laneIdArgument` is the index of its
/// local id argument of dimension 0. A function with sub-group collective
/// markers or sub-group barriers gets a vector form of width
/// `subGroupSize` (when at least 2), valid only where each vector is one
/// whole sub-group.
VectorForm vectorizeWorkItem(llvm::Function &scalar, unsigned laneIdArgument, unsigned vectorBits,
                             unsigned subGroupSize, llvm::FunctionAnalysisManager &analyses);

/// The most work-items worth packing into one vector for `workItem`: a
/// kernel that requires (or hints) a work-group size along x which is not a
/// multiple of a register's lanes would never run a vector form that wide,
/// so its vector forms take at most the largest power of two dividing that
/// size (CLBlast's Xgemm requires 8). Unbounded without such an attribute.
unsigned maxLanesAlongX(const llvm::Function &workItem);

/// Vector forms of all the barrier regions of one kernel (barrier_regions.h)
/// at one width, a float register's lanes (at most `maxWidth`), or none (when one cannot be
/// widened or they would not pay together). With `subGroupWidth`, the
/// regions call sub-group collectives and get exactly that width, each
/// vector one sub-group, whatever the cost (the scalar regions would run
/// in rounds, each collective between sub-group barriers). A vector form's state argument
/// (with `keepsState`) points at the block of its `width` work-items'
/// states, which it keeps field by field: the field at byte offset o of a
/// work-item's state at o * width, each lane's copy after the previous
/// one's, or only lane 0's copy for a field that holds the same value in
/// every lane. Every work-item of such a block must therefore run every
/// region through the vector forms.
llvm::SmallVector<VectorForm, 4> vectorizeRegions(llvm::ArrayRef<llvm::Function *> regions, bool keepsState,
                                                  unsigned vectorBits, unsigned maxWidth,
                                                  llvm::FunctionAnalysisManager &analyses, unsigned subGroupWidth = 0);

} // namespace compiler
