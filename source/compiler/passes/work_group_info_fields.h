// Field indices of workGroupInfoType(), shared by the passes in this folder.
#pragma once

#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace compiler::info_field {
enum : unsigned {
  WorkDim = 0,
  GlobalOffset = 2,
  GlobalSize = 3,
  EnqueuedLocalSize = 4,
  LocalSize = 5,
  NumGroups = 6,
  GroupId = 7,
  LocalMemory = 8,
  LocalMemorySize = 9,
  WorkItemState = 10,
  PrintfBuffer = 11,
  StackBegin = 12,
  StackEnd = 13,
  WorkItemStateEnd = 14,
  KernelExit = 15,
};
} // namespace compiler::info_field

namespace compiler {
/// Loads `info->field` (or `info->field[element]`) as `type`, marked
/// invariant: the WorkGroupInfo never changes while a work-group runs.
llvm::LoadInst *loadInfoField(llvm::IRBuilder<> &builder, llvm::Value *info, llvm::Type *type, unsigned field,
                              std::optional<unsigned> element = std::nullopt, const llvm::Twine &name = "");
} // namespace compiler
