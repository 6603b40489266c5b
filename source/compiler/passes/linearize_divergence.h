// Turns the divergent branches of a work-item function (branches on values
// that differ between the lanes the vectoriser packs) into straight-line
// code with per-lane masks, so that every lane can run the same
// instructions.
#pragma once

#include "work_item_uniformity.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

namespace compiler {

/// The masks of the blocks that run for only some lanes: an i1 value of the
/// (scalar) function, true in the lanes for which the block really runs.
/// Blocks without an entry run for every lane.
using BlockMasks = llvm::DenseMap<llvm::BasicBlock *, llvm::Value *>;

/// For each divergent branch B with immediate post-dominator P, the blocks
/// between them are put in one chain B, b1, ..., bk, P.blend, P that every
/// lane runs; each bi gets the mask of the lanes that reach it, and the phis
/// of the bi (and of P, in the unmasked P.blend) become selects on the masks
/// of the edges the lanes came along. A loop whose exit is divergent, or
/// that lies in such a chain (where it is one link), runs while any lane is
/// in it: a header phi `lanes.active` is its mask, its body is one masked
/// chain, an unmasked exit test branches on anyLaneFunction(), and each
/// value used after the loop is kept per lane as it was when the lane left.
/// Uniform control flow (including uniform loops outside divergent code) is
/// left as it is. `function` must have one return block and loops in
/// LoopSimplify form. Marks the phis that become varying in `uniformity` on
/// the way and recomputes it at the end.
///
/// Fails with Status::Unsupported, leaving `function` unchanged, when such a
/// loop has a loop inside it, more than one exiting block (or one that is
/// neither its header nor its latch) or more than one exit, when a
/// divergent branch has no post-dominator, or when divergent code is entered
/// other than through its branch.
llvm::Expected<BlockMasks> linearizeDivergentControlFlow(llvm::Function &function, WorkItemUniformity &uniformity);

} // namespace compiler
