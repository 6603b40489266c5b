// Where a work-item that calls kernel_exit would rejoin its work-group, for
// targets where it must go on to the barriers the group reaches afterwards
// (cl_polymux_kernel_exit on vulkan; see mask_after_kernel_exit.h).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"

namespace compiler {

struct ExitJoin {
  enum class Kind {
    /// Every path through the function reaches the exit: no work-item goes
    /// on past it.
    Always,
    /// `block` is the nearest block that every other way on from the
    /// branches into the exit passes through.
    Join,
    /// The other ways on have no block in common (they end at different
    /// returns or unreachables).
    Diverging,
    /// From some branch into the exit, the only other way on is a loop that
    /// nothing but a kernel_exit leaves.
    NoWayOut,
  };
  Kind kind = Kind::Always;
  llvm::BasicBlock *block = nullptr;
  /// The successors of the branches into the exit that do not lead to it:
  /// where the other work-items go on.
  llvm::SmallVector<llvm::BasicBlock *, 4> otherWays;
};

/// `exitBlock` starts with a kernel_exit call (what follows it never runs).
/// The blocks from which every path ends at that call form the exit's
/// region; the branches into it are where a work-item decides to leave. The
/// join is the nearest block that post-dominates all of those branches once
/// the region is taken away (the point where a SIMT machine would reconverge
/// the work-item that left). It lies outside the region, and the region is
/// acyclic, so a work-item sent from the exit to the join meets the exit
/// again only by going round a loop of the kernel.
ExitJoin findExitJoin(llvm::Function &function, llvm::BasicBlock &exitBlock);

/// Whether a barrier call (isBarrierFunction) can run from the start of one
/// of `starts` on.
bool reachesBarrier(llvm::ArrayRef<llvm::BasicBlock *> starts);

} // namespace compiler
