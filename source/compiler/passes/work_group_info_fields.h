// Field indices of workGroupInfoType(), shared by the passes in this folder.
#pragma once

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
};
} // namespace compiler::info_field
