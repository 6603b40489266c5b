// cl_polymux_kernel_exit where a work-item that left goes on with its
// work-group (lower_kernel_exit.cpp, vulkan): a loop with barriers that
// only kernel_exit leaves would keep the work-items that left going round
// it for ever once all have left. Such a loop gets a way out: after each of
// its work-group barriers the work-group returns once every one of its
// work-items has left.
#pragma once

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

namespace compiler {

/// After each work-group barrier of `kernel` that lies on a cycle from
/// which no return can be reached, returns from the kernel when `left`
/// (a __local i32: how many of the work-group's work-items have left, 0 at
/// its start) equals the work-group's size. Every work-item reads the count
/// between that barrier (or one added when it does not order __local
/// memory) and a second one, when nobody can be leaving, so all of them
/// take the same way. Returns whether it added any such check.
bool returnOnceAllLeft(llvm::Function &kernel, llvm::GlobalVariable &left);

} // namespace compiler
