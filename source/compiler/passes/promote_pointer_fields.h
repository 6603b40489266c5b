// Keeps the fields a function reads and writes through one pointer argument
// in registers for the whole call: the work-item vectoriser's input for a
// barrier region, whose live values and private variables sit in the
// work-item's barrier state. In the vector form each lane's state is at
// its own address, so every access left in memory would be a gather or a
// scatter; promoted, a field is gathered once on entry and scattered once
// on return.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"

namespace compiler {

/// Where the field at byte `offset` of type `type` is loaded from on entry
/// and stored to on return, emitted at the builder's position.
using FieldAddress = llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &builder, int64_t offset, llvm::Type *type)>;

/// Replaces the loads and stores of `function` through `pointer` at
/// constant offsets by private variables (which SROA then makes registers):
/// each field is loaded from `fieldAddress` at the entry and, when the
/// function writes it, stored back there before every return (with
/// `alignment` at most). Returns false, leaving the function unchanged,
/// when `pointer` is used any other way (a variable index, a pointer that
/// escapes, fields that overlap or are read with different types).
bool promotePointerFields(llvm::Function &function, llvm::Argument &pointer, FieldAddress fieldAddress,
                          llvm::Align alignment);

} // namespace compiler
