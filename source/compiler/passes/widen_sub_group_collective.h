// Sub-group collectives as vector operations: when the lanes of one vector
// are exactly the work-items of one sub-group (the vectoriser packs them so
// for functions that call sub-group collectives), a reduction is a vector
// reduction, a scan a few shuffles, a broadcast an element extraction.
#pragma once

#include "compiler/group_collectives.h"

#include "llvm/IR/IRBuilder.h"

namespace compiler {

/// The result of `collective` for the sub-group whose work-items' values
/// are the lanes of `value` (a fixed vector, lane i = sub-group local id i):
/// a scalar when every work-item gets the same result (reductions,
/// broadcast, any, all), a vector like `value` for scans. `id` is a
/// broadcast's source lane (an i32; out-of-range ids read the last lane).
/// Floating-point additions run in lane order, as the scalar lowering runs
/// them, so both give the same bits; integer additions wrap.
llvm::Value *widenSubGroupCollective(llvm::IRBuilder<> &builder, const CollectiveCall &collective, llvm::Value *value,
                                     llvm::Value *id);

} // namespace compiler
