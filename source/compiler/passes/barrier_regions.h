// Splits a work-item function at its work-group barriers into region
// functions that the CPU entry point runs one after the other for every
// work-item of the group (see KernelWrapperPass in compiler/passes.h).
#pragma once

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace compiler {

/// The work-item function cut at its N barriers into N + 1 regions.
struct BarrierRegions {
  /// Region r (0: from the function's entry, r > 0: from just after barrier
  /// r) as `i32 region_r(work-item params..., ptr state)`. It returns the
  /// barrier the work-item stopped at (1..N), or 0 when it finished. All
  /// are internal and always-inline.
  llvm::SmallVector<llvm::Function *, 4> functions;
  /// Bytes of the state each work-item keeps across barriers (values and
  /// private variables live across them), a multiple of stateAlignment.
  uint64_t stateStride = 0;
  /// Alignment the state of each work-item needs (at most 128).
  uint64_t stateAlignment = 1;
  /// Per region: whether it starts after a sub-group barrier (region 0 and
  /// regions after work-group barriers: false).
  llvm::SmallVector<bool, 4> afterSubGroupBarrier;

  bool hasSubGroupBarriers() const { return llvm::is_contained(afterSubGroupBarrier, true); }
};

/// When `workItem` calls no barrier, returns no functions and leaves it
/// unchanged. Otherwise promotes its private variables to registers where
/// it can (SROA, with `analyses`), then moves its body into the region
/// functions (leaving `workItem` a declaration of the same type and
/// attributes). Fails with Status::Unsupported for what cannot be kept
/// across a barrier (private arrays of run-time size).
llvm::Expected<BarrierRegions> splitAtBarriers(llvm::Function &workItem, llvm::FunctionAnalysisManager &analyses);

} // namespace compiler
