// The OpenCL work-item builtins (get_global_id, ...) a kernel calls, and
// the launch fields (compiler/abi/vulkan_kernel_abi.h) each one reads.
#pragma once

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Instructions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"

#include <optional>

namespace compiler::spirv {

enum class WorkItemBuiltin {
  GlobalId,
  LocalId,
  GroupId,
  LocalSize,
  EnqueuedLocalSize,
  GlobalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
};

/// The builtin a mangled name denotes, if any.
std::optional<WorkItemBuiltin> workItemBuiltin(llvm::StringRef mangledName);

/// Bit mask (1 << LaunchField) of the launch fields `kernel` reads through
/// the work-item builtins it calls (and kPrintfBufferFunction and the
/// checked accesses' functions, passes/vulkan_passes.h).
unsigned launchFieldsUsedBy(const llvm::Function &kernel);

/// The range index a call of kAccessRangeBaseFunction/kAccessRangeSizeFunction
/// names (~0u when it is not a constant).
unsigned accessRangeIndex(const llvm::CallInst &call);
/// The arguments whose AccessRange `kernel`'s checked accesses read, or
/// with `texels` the image arguments whose texels' range they read.
llvm::DenseSet<unsigned> accessRangeArguments(const llvm::Function &kernel, bool texels = false);

} // namespace compiler::spirv
