// cl_polymux_kernel_exit where a work-item cannot leave its work-group
// early: on vulkan an invocation that has returned never reaches a later
// OpControlBarrier, so the rest of its work-group would wait for it there.
// Instead, a work-item that calls kernel_exit before a barrier sets a flag
// and goes on from the exit's join (exit_join.h) along the same control
// flow as its work-group, through the same barriers, with nothing it does
// visible to anyone: its stores to memory other than its private variables,
// its atomics and its calls with side effects do not happen. Its loads still
// do, so that it takes the branches its work-group takes.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace compiler {

/// In the blocks reachable from `joins`, makes each side effect of `kernel`
/// that another work-item or the host could see happen only while `left`
/// (an i1 alloca in the entry block, false until an exit sets it) is false:
///   - a store, atomicrmw or cmpxchg to memory not provably private (address
///     space 0, or a pointer that only derives from allocas);
///   - a memset/memcpy/memmove to such memory;
///   - a call that may write memory, returns nothing and is neither a
///     barrier nor otherwise convergent.
/// A skipped atomic yields an atomic load of its location instead (a
/// cmpxchg: that value, and success when it equals the expected one), so
/// that code using its result stays defined. Promotes the kernel's
/// promotable private variables first (so that a pointer to one, passed
/// through an inlined helper, is seen as private) and `left` last.
void maskAfterKernelExit(llvm::Function &kernel, llvm::AllocaInst &left, llvm::ArrayRef<llvm::BasicBlock *> joins);

} // namespace compiler
