#include "work_item_builtins.h"

#include "compiler/abi/vulkan_kernel_abi.h"
#include "compiler/passes.h"
#include "passes/vulkan_passes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {

using abi::vulkan::LaunchField;

std::optional<WorkItemBuiltin> workItemBuiltin(llvm::StringRef mangledName) {
  return llvm::StringSwitch<std::optional<WorkItemBuiltin>>(mangledName)
      .Case("_Z13get_global_idj", WorkItemBuiltin::GlobalId)
      .Case("_Z12get_local_idj", WorkItemBuiltin::LocalId)
      .Case("_Z12get_group_idj", WorkItemBuiltin::GroupId)
      .Case("_Z14get_local_sizej", WorkItemBuiltin::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", WorkItemBuiltin::EnqueuedLocalSize)
      .Case("_Z15get_global_sizej", WorkItemBuiltin::GlobalSize)
      .Case("_Z14get_num_groupsj", WorkItemBuiltin::NumGroups)
      .Case("_Z17get_global_offsetj", WorkItemBuiltin::GlobalOffset)
      .Case("_Z12get_work_dimv", WorkItemBuiltin::WorkDim)
      .Case("_Z20get_global_linear_idv", WorkItemBuiltin::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", WorkItemBuiltin::LocalLinearId)
      .Default(std::nullopt);
}

namespace {

unsigned bit(LaunchField field) { return 1u << unsigned(field); }

unsigned fieldsOf(WorkItemBuiltin builtin) {
  switch (builtin) {
  case WorkItemBuiltin::GlobalId:
    // (WorkgroupId + GroupOffset) * EnqueuedLocalSize + LocalInvocationId + GlobalOffset
    return bit(LaunchField::GroupOffset) | bit(LaunchField::EnqueuedLocalSize) | bit(LaunchField::GlobalOffset);
  case WorkItemBuiltin::GlobalLinearId:
    return bit(LaunchField::GroupOffset) | bit(LaunchField::EnqueuedLocalSize) | bit(LaunchField::GlobalSize);
  case WorkItemBuiltin::GroupId:
    return bit(LaunchField::GroupOffset);
  case WorkItemBuiltin::EnqueuedLocalSize:
    return bit(LaunchField::EnqueuedLocalSize);
  case WorkItemBuiltin::GlobalSize:
    return bit(LaunchField::GlobalSize);
  case WorkItemBuiltin::NumGroups:
    return bit(LaunchField::NumGroups);
  case WorkItemBuiltin::GlobalOffset:
    return bit(LaunchField::GlobalOffset);
  case WorkItemBuiltin::WorkDim:
    return bit(LaunchField::WorkDim);
  case WorkItemBuiltin::LocalId:
  case WorkItemBuiltin::LocalSize:
  case WorkItemBuiltin::LocalLinearId:
    return 0; // Vulkan built-ins and the local-size spec constants
  }
  return 0;
}

} // namespace

unsigned accessRangeIndex(const llvm::CallInst &call) {
  auto *index = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
  return index ? unsigned(index->getZExtValue()) : ~0u;
}

llvm::DenseSet<unsigned> accessRangeArguments(const llvm::Function &kernel, bool texels) {
  llvm::DenseSet<unsigned> arguments;
  for (const llvm::Instruction &instruction : llvm::instructions(kernel))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (const llvm::Function *callee = call->getCalledFunction();
          callee && (callee->getName() == kAccessRangeBaseFunction || callee->getName() == kAccessRangeSizeFunction)) {
        const unsigned index = accessRangeIndex(*call);
        if (!texels && index < programScopeRange(kernel))
          arguments.insert(index);
        else if (texels && index != ~0u && index >= texelRange(kernel, 0))
          arguments.insert(index - texelRange(kernel, 0));
      }
  return arguments;
}

unsigned launchFieldsUsedBy(const llvm::Function &kernel) {
  unsigned fields = 0;
  for (const llvm::Instruction &instruction : llvm::instructions(kernel)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee)
      continue;
    if (auto builtin = workItemBuiltin(callee->getName()))
      fields |= fieldsOf(*builtin);
    else if (callee->getName() == kPrintfBufferFunction)
      fields |= bit(LaunchField::PrintfBuffer);
    else if (callee->getName() == kAccessReportFunction)
      fields |= bit(LaunchField::AccessReport);
    else if (callee->getName() == kKernelExitRecordFunction)
      fields |= bit(LaunchField::KernelExit);
    else if (callee->getName() == kAccessRangeBaseFunction && accessRangeIndex(*call) == programScopeRange(kernel))
      fields |= bit(LaunchField::GlobalVariables); // the program-scope block's range
    else if (callee->getName().contains("get_max_sub_group_size") ||
             callee->getName().contains("get_enqueued_num_sub_groups"))
      fields |= bit(LaunchField::EnqueuedLocalSize); // the enqueued work-group's items
  }
  return fields;
}

} // namespace compiler::spirv
