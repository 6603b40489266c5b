#include "sub_group_region_forms.h"

#include "barrier_regions.h"
#include "compiler/group_collectives.h"
#include "compiler/passes.h"
#include "vectorize_work_item.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <string>

namespace compiler {
namespace {

/// The attributes addSubGroupRegionForms leaves on the work-item function:
/// the regions' vector forms (names, comma-separated, in region order),
/// their width and the bytes of state per work-item they keep.
constexpr const char *kRegionFormsAttribute = "polymux-sub-group-region-forms";
constexpr const char *kRegionWidthAttribute = "polymux-sub-group-region-width";
constexpr const char *kRegionStateAttribute = "polymux-sub-group-region-state";

/// Whether `function` waits at work-group barriers and synchronises
/// sub-groups (sub-group collective markers or sub-group barriers), and
/// calls nothing through a pointer.
bool needsSubGroupRegionForms(llvm::Function &function) {
  bool workGroupBarriers = false, subGroups = false;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    if (!call)
      continue;
    llvm::Function *callee = call->getCalledFunction();
    if (!callee)
      return false;
    bool subGroupBarrier = isSubGroupBarrierFunction(callee->getName());
    workGroupBarriers |= isBarrierFunction(callee->getName()) && !subGroupBarrier;
    subGroups |= subGroupBarrier || classifySubGroupCollectiveMarker(*callee).has_value();
  }
  return workGroupBarriers && subGroups;
}

/// Removes the sub-group barriers of `function`: in a vector that holds one
/// sub-group, its work-items run each instruction together, so they wait
/// for nothing (the work-item vectoriser widens them to nothing too).
void removeSubGroupBarriers(llvm::Function &function) {
  for (llvm::Instruction &instruction : llvm::make_early_inc_range(llvm::instructions(function)))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction();
          callee && isSubGroupBarrierFunction(callee->getName()) && call->use_empty())
        call->eraseFromParent();
}

} // namespace

bool addSubGroupRegionForms(llvm::Function &workItem, unsigned vectorBits, unsigned subGroupSize,
                            llvm::FunctionAnalysisManager &analyses) {
  // A sub-group wider than the work-group may be along x never runs whole.
  if (vectorBits == 0 || subGroupSize < 2 || keepsScalarForm(workItem) || maxLanesAlongX(workItem) < subGroupSize ||
      !needsSubGroupRegionForms(workItem))
    return false;
  llvm::ValueToValueMapTy map;
  llvm::Function *copy = llvm::CloneFunction(&workItem, map);
  removeSubGroupBarriers(*copy);
  llvm::Expected<BarrierRegions> regions = splitAtBarriers(*copy, analyses);
  analyses.clear(*copy, copy->getName());
  copy->eraseFromParent();
  if (!regions) {
    llvm::consumeError(regions.takeError());
    return false;
  }
  llvm::SmallVector<VectorForm, 4> forms =
      regions->functions.empty()
          ? llvm::SmallVector<VectorForm, 4>{}
          : vectorizeRegions(regions->functions, regions->stateStride != 0, vectorBits, subGroupSize, analyses,
                             /*subGroupWidth=*/subGroupSize);
  // The scalar regions of the copy still call the markers; the scalar
  // form's own regions come from KernelWrapperPass.
  for (llvm::Function *region : regions->functions) {
    analyses.clear(*region, region->getName());
    region->eraseFromParent();
  }
  if (forms.empty())
    return false;
  llvm::StringRef kernelName = workItem.getFnAttribute(kWorkItemAttribute).getValueAsString();
  llvm::SmallVector<std::string, 4> names;
  for (auto [index, form] : llvm::enumerate(forms)) {
    form.function->setName("__polymux_sub_group_region" + llvm::Twine(index) + "_" + kernelName + ".v" +
                           llvm::Twine(subGroupSize));
    names.push_back(form.function->getName().str());
  }
  workItem.addFnAttr(kRegionFormsAttribute, llvm::join(names, ","));
  workItem.addFnAttr(kRegionWidthAttribute, std::to_string(subGroupSize));
  workItem.addFnAttr(kRegionStateAttribute, std::to_string(regions->stateStride));
  return true;
}

std::optional<SubGroupRegionForms> findSubGroupRegionForms(llvm::Function &workItem) {
  if (!workItem.hasFnAttribute(kRegionFormsAttribute))
    return std::nullopt;
  SubGroupRegionForms forms;
  llvm::SmallVector<llvm::StringRef, 4> names;
  workItem.getFnAttribute(kRegionFormsAttribute).getValueAsString().split(names, ',');
  for (llvm::StringRef name : names) {
    llvm::Function *region = workItem.getParent()->getFunction(name);
    if (!region)
      return std::nullopt;
    forms.regions.push_back(region);
  }
  forms.width = integerAttribute(workItem, kRegionWidthAttribute);
  forms.stateStride = integerAttribute(workItem, kRegionStateAttribute);
  return forms;
}

} // namespace compiler
