// The OpenCL C 2.0/3.0 atomics (atomic_load, atomic_fetch_add_explicit,
// atomic_flag_test_and_set, atomic_work_item_fence, ...), part of
// LowerAtomicBuiltinsPass.
#pragma once

#include "llvm/IR/Function.h"

namespace compiler {

/// When `function` is a declaration of one of the C11-style atomic builtins
/// with a shape this lowering supports, gives it a body made of LLVM atomic
/// instructions and returns true. Anything else (including forms OpenCL C
/// does not define, such as atomic_fetch_add on atomic_float without
/// cl_ext_float_atomics) is left declared and gives false.
///
/// memory_order maps to the LLVM ordering (relaxed -> monotonic), orders a
/// given operation cannot take are strengthened; memory_scope_work_item maps
/// to syncscope("singlethread"), every other scope to the system scope, which
/// is correct on a CPU because it is stronger. Order and scope arguments that
/// are not constants select the instruction at run time; after inlining the
/// usual constant arguments fold the selection away.
bool defineC11AtomicBuiltin(llvm::Function &function);

} // namespace compiler
