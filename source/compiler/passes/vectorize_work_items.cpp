// The work-item vectoriser's driver (VectorizeWorkItemsPass in
// compiler/passes.h, and vectorizeRegions for the barrier regions that
// KernelWrapperPass cuts): decides which functions to vectorise and at
// which width, prepares a copy of each (simplified, one return block; for
// a region, its barrier state promoted to registers), linearises its
// divergent branches, widens it and keeps the result when it pays.
#include "vectorize_work_item.h"

#include "compiler/group_collectives.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"
#include "linearize_divergence.h"
#include "promote_pointer_fields.h"
#include "sub_group_region_forms.h"
#include "widen_work_item.h"
#include "work_item_uniformity.h"

#include "llvm/ADT/bit.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"

#include <set>

namespace compiler {
namespace {

/// Private memory a vectorised call may take on the worker's stack: its
/// lanes' private variables side by side.
constexpr uint64_t kMaxVectorPrivateBytes = 64 * 1024;
/// Bounds on inlining calls into the vectoriser's input: nesting depth and
/// the size the input may grow to.
constexpr unsigned kMaxInliningRounds = 16;
constexpr unsigned kMaxInlinedInstructions = 20000;
/// Loops small enough to run several registers' worth of lanes in one call.
constexpr unsigned kMaxInterleavedLoopInstructions = 256;
constexpr unsigned kInterleavedRegisters = 4;
constexpr unsigned kMaxChainsToInterleave = 2;
/// The alignment a field of a block of lanes' barrier states may assume:
/// its element's own (each block starts at a multiple of the per-work-item
/// state size, itself a multiple of every field's alignment).
constexpr uint64_t kMaxStateFieldAlignment = 16;
/// Rounds of finding the barrier state's varying fields before giving up.
constexpr size_t kMaxStateRounds = 8;

void discard(llvm::Function *function, llvm::FunctionAnalysisManager &analyses) {
  analyses.clear(*function, function->getName());
  function->eraseFromParent();
}

/// Whether `function` synchronises work-items (barriers; work-group
/// collectives are lowered to them) or calls through a pointer: lanes of
/// one vector cannot wait for each other. Sub-group barriers are allowed
/// with `subGroupVectors`: the vector is the sub-group.
bool hasBarriersOrIndirectCalls(llvm::Function &function, bool subGroupVectors = false) {
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction();
          !callee ||
          (isBarrierFunction(callee->getName()) && !(subGroupVectors && isSubGroupBarrierFunction(callee->getName()))))
        return true;
  return false;
}

/// Whether `function` calls sub-group collectives (as markers) or
/// sub-group barriers: its lanes must then be exactly one sub-group.
bool synchronisesSubGroups(llvm::Function &function) {
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction();
          callee && (isSubGroupBarrierFunction(callee->getName()) || classifySubGroupCollectiveMarker(*callee)))
        return true;
  return false;
}

/// The width in bits of the widest floating-point type or vector type (a
/// float4 or an int4 is 128 bits) that varies between work-items, 32 when
/// none does: one vector register holds this many bits of each work-item.
/// Scalar integers do not count (64-bit indices would halve every float
/// kernel's lanes).
unsigned widestVaryingFloatBits(llvm::Function &function, const WorkItemUniformity &uniformity) {
  unsigned bits = 32;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    llvm::Type *type = instruction.getType();
    bool counts =
        type->isFloatingPointTy() || (llvm::isa<llvm::FixedVectorType>(type) &&
                                      !type->getScalarType()->isIntegerTy(1) && !type->getScalarType()->isPointerTy());
    if (counts && uniformity.isVarying(&instruction))
      bits = std::max(bits, static_cast<unsigned>(type->getPrimitiveSizeInBits().getFixedValue()));
  }
  return bits;
}

/// Whether `loop` loads through addresses that differ between lanes.
bool readsMemoryPerLane(const llvm::Loop &loop, const WorkItemUniformity &uniformity) {
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &instruction : *block)
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load && uniformity.isVarying(load->getPointerOperand()))
        return true;
  return false;
}

/// How many vector registers one call should fill per value: a small loop
/// that carries a varying value from one iteration to the next is one chain
/// of dependent operations per register, so several registers' worth of
/// work-items give the core independent chains to overlap (as a loop
/// vectoriser's interleaving would). `function` is linearised already.
unsigned registersPerValue(llvm::Function &function, const WorkItemUniformity &uniformity) {
  // Not for loops whose exit differs between lanes: more lanes, more of
  // them idle until the last one leaves.
  if (llvm::any_of(llvm::instructions(function),
                   [](llvm::Instruction &instruction) { return isAnyLaneCall(&instruction); }))
    return 1;
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    unsigned size = 0;
    for (llvm::BasicBlock *block : loop->blocks())
      size += block->size();
    if (size > kMaxInterleavedLoopInstructions)
      continue;
    // A loop that streams through memory per lane waits for memory, not
    // for its chain; more lanes per call only add concurrent streams.
    if (readsMemoryPerLane(*loop, uniformity))
      continue;
    unsigned chains = 0;
    for (llvm::PHINode &phi : loop->getHeader()->phis())
      if (uniformity.isVarying(&phi) && (phi.getType()->isFPOrFPVectorTy() || phi.getType()->isIntOrIntVectorTy()))
        ++chains;
    // A loop that carries many values has independent chains already.
    if (chains > 0 && chains <= kMaxChainsToInterleave)
      return kInterleavedRegisters;
  }
  return 1;
}

uint64_t privateBytes(llvm::Function &function) {
  const llvm::DataLayout &layout = function.getDataLayout();
  uint64_t bytes = 0;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout); size && !size->isScalable())
        bytes += size->getFixedValue();
  return bytes;
}

/// Inlines every call of a function with a body (the builtins library's
/// functions, which the pipeline inlines only later) so that the vectoriser
/// sees, and widens, the builtins' own code. False when the result would be
/// too large to be worth vectorising.
bool inlineCalls(llvm::Function &function) {
  for (unsigned round = 0; round < kMaxInliningRounds; ++round) {
    llvm::SmallVector<llvm::CallBase *, 16> calls;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration() && callee != &function)
          calls.push_back(call);
    if (calls.empty())
      return true;
    for (llvm::CallBase *call : calls) {
      llvm::InlineFunctionInfo info;
      if (!llvm::InlineFunction(*call, info).isSuccess())
        return false;
    }
    if (function.getInstructionCount() > kMaxInlinedInstructions)
      return false;
  }
  return false;
}

/// A copy of `workItem` in the shape the vectoriser needs: calls inlined,
/// private variables in registers where possible, simplified, one return
/// block. Null when it would be too large.
llvm::Function *prepareCopy(llvm::Function &workItem, llvm::FunctionAnalysisManager &analyses) {
  llvm::ValueToValueMapTy map;
  llvm::Function *copy = llvm::CloneFunction(&workItem, map);
  copy->setName(workItem.getName() + ".vectorizer.input");
  if (!inlineCalls(*copy)) {
    discard(copy, analyses);
    return nullptr;
  }
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  passes.addPass(llvm::EarlyCSEPass());
  passes.addPass(llvm::InstCombinePass());
  passes.addPass(llvm::SimplifyCFGPass());
  passes.addPass(llvm::UnifyFunctionExitNodesPass());
  passes.addPass(llvm::LoopSimplifyPass());
  passes.run(*copy, analyses);
  return copy;
}

/// Prepares the copy of a barrier region whose barrier state is `state`
/// for `width` lanes: small loops are unrolled so that private arrays in the
/// state are indexed by constants, then every field of the state becomes a
/// register, loaded on entry and stored on return in the lanes' block
/// (RegionLanes): at each lane's own copy for the fields at the byte offsets
/// in `varyingFields`, at lane 0's copy for the others, which hold the same
/// value in every lane. False when a field cannot be promoted.
bool promoteState(llvm::Function &input, llvm::Argument &state, unsigned width, const std::set<int64_t> &varyingFields,
                  llvm::FunctionAnalysisManager &analyses) {
  {
    llvm::FunctionPassManager passes;
    passes.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LoopFullUnrollPass(/*OptLevel=*/3)));
    passes.addPass(llvm::InstCombinePass());
    passes.run(input, analyses);
  }
  llvm::Function *laneIndex = laneIndexFunction(*input.getParent());
  auto fieldAddress = [&](llvm::IRBuilder<> &builder, int64_t offset, llvm::Type *type) -> llvm::Value * {
    llvm::Value *lanes = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), &state, offset * width);
    if (!varyingFields.contains(offset))
      return lanes;
    return builder.CreateInBoundsGEP(type, lanes, builder.CreateCall(laneIndex));
  };
  if (!promotePointerFields(input, state, fieldAddress, llvm::Align(kMaxStateFieldAlignment)))
    return false;
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  passes.addPass(llvm::EarlyCSEPass());
  passes.addPass(llvm::SimplifyCFGPass());
  passes.addPass(llvm::UnifyFunctionExitNodesPass());
  passes.addPass(llvm::LoopSimplifyPass());
  passes.run(input, analyses);
  return true;
}

/// Adds to `varyingFields` the fields of `state` that `input` (promoted
/// with the others at lane 0's copy) stores a value to that may differ
/// between lanes: a varying value, or any value in a function with
/// divergent branches (whose joins the analysis alone does not see).
void findVaryingFields(llvm::Function &input, llvm::Argument &state, llvm::Argument &laneId, unsigned width,
                       std::set<int64_t> &varyingFields) {
  WorkItemUniformity uniformity(input, &laneId, width);
  bool divergent =
      llvm::any_of(input, [&](llvm::BasicBlock &block) { return uniformity.isDivergent(block.getTerminator()); });
  const llvm::DataLayout &layout = input.getDataLayout();
  for (llvm::Instruction &instruction : llvm::instructions(input)) {
    auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
    if (!store)
      continue;
    llvm::APInt offset(64, 0);
    if (store->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, /*AllowNonInbounds=*/true) !=
        &state)
      continue;
    if (divergent || uniformity.isVarying(store->getValueOperand()))
      varyingFields.insert(offset.getSExtValue() / width);
  }
}

/// Whether `function` has an atomic operation inside a loop: a spin lock or
/// a compare-exchange retry loop, whose lanes would wait for each other
/// forever once packed into one vector (the lane holding the lock waits,
/// masked, for the lanes spinning on it).
bool hasAtomicsInLoops(llvm::Function &function) {
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (instruction.isAtomic() && loops.getLoopFor(instruction.getParent()))
      return true;
  return false;
}

/// The widest block of lanes a chosen width can make: the lanes of a vector
/// lie in one block of this many work-items, which the uniformity analysis
/// may rely on.
unsigned widestLaneBlock(unsigned vectorBits, unsigned maxWidth) {
  return std::min(vectorBits * kInterleavedRegisters / 32, maxWidth);
}

/// Linearises and widens `input` (a prepared copy, discarded afterwards)
/// at `width` lanes, or at the width its code suggests when 0.
VectorForm widenCopy(llvm::Function *input, unsigned laneIdArgument, unsigned width, unsigned maxWidth,
                     unsigned vectorBits, const llvm::Twine &name, llvm::FunctionAnalysisManager &analyses) {
  llvm::Argument *laneId = input->getArg(laneIdArgument);
  bool chosenWidth = width == 0;
  // The block of lanes the analysis may rely on: the widest the choice
  // below can make, unless the width is given.
  unsigned laneBlock = chosenWidth ? widestLaneBlock(vectorBits, maxWidth) : width;
  auto result = [&]() -> llvm::Expected<WidenedWorkItem> {
    WorkItemUniformity uniformity(*input, laneId, laneBlock);
    llvm::Expected<BlockMasks> masks = linearizeDivergentControlFlow(*input, uniformity);
    if (!masks)
      return masks.takeError();
    unsigned widestBits = widestVaryingFloatBits(*input, uniformity);
    if (chosenWidth) {
      // (A float16 on 256-bit registers: two work-items per four registers.)
      // A power of two: the entry rounds the local size down to a multiple
      // of the width with a mask (a float3's 96 bits made five lanes of a
      // 512-bit register, which ran past the end of the work-group).
      width = llvm::bit_floor(std::min(vectorBits * registersPerValue(*input, uniformity) / widestBits, maxWidth));
      if (width < 2 || laneId->use_empty())
        return WidenedWorkItem{};
    } else if (widestBits * width > vectorBits * kInterleavedRegisters) {
      return WidenedWorkItem{}; // a given width too wide for this code's vector types
    }
    if (privateBytes(*input) * width > kMaxVectorPrivateBytes)
      return WidenedWorkItem{};
    return widenWorkItem(*input, *laneId, uniformity, *masks, width, name + ".v" + llvm::Twine(width));
  }();
  discard(input, analyses);
  if (!result) {
    llvm::consumeError(result.takeError());
    return {};
  }
  llvm::Function *vector = result->function;
  if (!vector)
    return {};
  // Code written with vector types is SIMD code already: where some of it
  // would run lane by lane it is better run as it is. Invalid IR would be a
  // vectoriser bug: the scalar form is right. Most of the work per lane
  // would leave little to gain over the scalar loop, which LLVM's loop
  // vectoriser may still vectorise (regions are weighed together by
  // vectorizeRegions).
  if (result->scalarizedVectorInstructions > 0 || llvm::verifyFunction(*vector) || (chosenWidth && !result->pays())) {
    vector->eraseFromParent();
    return {};
  }
  vector->addFnAttr("min-legal-vector-width", std::to_string(vectorBits));
  return *result;
}

/// Instructions whose lanes a vector form must keep apart with no constant
/// step between them (gathered, scattered or computed lane by lane).
unsigned irregularValues(llvm::Function &function, WorkItemUniformity &uniformity) {
  unsigned count = 0;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (uniformity.isVarying(&instruction) && !uniformity.isLaneBlockUniform(&instruction) &&
        !(instruction.getType()->isIntOrPtrTy() && uniformity.stride(&instruction)))
      ++count;
  return count;
}

/// A width the code chose was chosen under an analysis that assumed lanes
/// in blocks of the widest width it could choose. At a narrower width more
/// quotients of the local id are one value per vector (tid / 16 with 16
/// lanes); where the analysis at that width finds fewer irregular values,
/// `scalar` is widened again at it and the cheaper of the two forms stays.
VectorForm reanalyseAtChosenWidth(llvm::Function &scalar, unsigned laneIdArgument, VectorForm wide, unsigned maxWidth,
                                  unsigned vectorBits, llvm::FunctionAnalysisManager &analyses) {
  const unsigned widestBlock = widestLaneBlock(vectorBits, maxWidth);
  if (wide.width >= widestBlock)
    return wide;
  llvm::Function *input = prepareCopy(scalar, analyses);
  if (!input)
    return wide;
  bool gains = [&] {
    llvm::Argument *laneId = input->getArg(laneIdArgument);
    WorkItemUniformity widest(*input, laneId, widestBlock), chosen(*input, laneId, wide.width);
    return irregularValues(*input, chosen) < irregularValues(*input, widest);
  }();
  if (!gains) {
    discard(input, analyses);
    return wide;
  }
  VectorForm narrow = widenCopy(input, laneIdArgument, wide.width, maxWidth, vectorBits, scalar.getName(), analyses);
  if (!narrow.function)
    return wide;
  if (narrow.vectorCost > wide.vectorCost) {
    narrow.function->eraseFromParent();
    return wide;
  }
  std::string name = wide.function->getName().str();
  wide.function->eraseFromParent();
  narrow.function->setName(name);
  return narrow;
}

/// Adds the vector form of `workItem` when it pays; returns whether it did.
bool vectorize(llvm::Function &workItem, unsigned vectorBits, unsigned subGroupSize,
               llvm::FunctionAnalysisManager &analyses) {
  if (keepsScalarForm(workItem))
    return false;
  // Work-group barriers and sub-group collectives: vector forms region by
  // region (the whole function has none).
  if (addSubGroupRegionForms(workItem, vectorBits, subGroupSize, analyses))
    return true;
  VectorForm form = vectorizeWorkItem(workItem, workItem.arg_size() - 3, vectorBits, subGroupSize, analyses);
  if (!form.function)
    return false;
  form.function->removeFnAttr(kWorkItemAttribute);
  workItem.addFnAttr(kVectorFormAttribute, form.function->getName());
  workItem.addFnAttr(kVectorWidthAttribute, std::to_string(form.width));
  return true;
}

} // namespace

unsigned maxLanesAlongX(const llvm::Function &workItem) {
  for (const std::array<size_t, 3> &sizes : {requiredWorkGroupSize(workItem), workGroupSizeHint(workItem)})
    if (sizes[0] != 0)
      return 1u << llvm::countr_zero(sizes[0]);
  return ~0u;
}

bool keepsScalarForm(const llvm::Function &workItem) {
  return workItem.getSubprogram() || workItem.hasFnAttribute(kUsesPrintfAttribute) ||
         workItem.hasFnAttribute(kCallsKernelExitAttribute);
}

VectorForm vectorizeWorkItem(llvm::Function &scalar, unsigned laneIdArgument, unsigned vectorBits,
                             unsigned subGroupSize, llvm::FunctionAnalysisManager &analyses) {
  const bool subGroupVectors = subGroupSize >= 2;
  if (vectorBits == 0 || hasBarriersOrIndirectCalls(scalar, subGroupVectors))
    return {};
  llvm::Function *input = prepareCopy(scalar, analyses);
  if (!input)
    return {};
  // Barriers may come from an inlined builtin.
  if (hasBarriersOrIndirectCalls(*input, subGroupVectors) || hasAtomicsInLoops(*input)) {
    discard(input, analyses);
    return {};
  }
  // One sub-group per vector, or the width the code suggests.
  unsigned width = synchronisesSubGroups(*input) ? subGroupSize : 0;
  const unsigned maxWidth = maxLanesAlongX(scalar);
  VectorForm form = widenCopy(input, laneIdArgument, width, maxWidth, vectorBits, scalar.getName(), analyses);
  if (width == 0 && form.function)
    return reanalyseAtChosenWidth(scalar, laneIdArgument, std::move(form), maxWidth, vectorBits, analyses);
  return form;
}

namespace {

/// The barriers `region` may return (barrier_regions.h: the region that
/// runs next), from constants returned directly or through phis and
/// selects.
llvm::SmallVector<uint64_t, 4> nextRegions(llvm::Function &region) {
  llvm::SmallVector<uint64_t, 4> next;
  llvm::SmallVector<llvm::Value *, 8> worklist;
  llvm::SmallPtrSet<llvm::Value *, 8> seen;
  for (llvm::BasicBlock &block : region)
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()); ret && ret->getReturnValue())
      worklist.push_back(ret->getReturnValue());
  while (!worklist.empty()) {
    llvm::Value *value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
      next.push_back(constant->getZExtValue());
    else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value))
      llvm::append_range(worklist, phi->incoming_values());
    else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value))
      worklist.append({select->getTrueValue(), select->getFalseValue()});
  }
  return next;
}

/// Whether each region may run again after itself (it lies in a loop that
/// contains barriers): such regions weigh kLoopWeight times more.
llvm::SmallVector<bool, 4> repeatingRegions(llvm::ArrayRef<llvm::Function *> regions) {
  const size_t count = regions.size();
  // reaches[a][b]: region b may run after region a.
  std::vector<std::vector<bool>> reaches(count, std::vector<bool>(count, false));
  for (size_t r = 0; r < count; ++r)
    for (uint64_t next : nextRegions(*regions[r]))
      if (next != 0 && next < count)
        reaches[r][next] = true;
  for (size_t k = 0; k < count; ++k)
    for (size_t a = 0; a < count; ++a)
      if (reaches[a][k])
        for (size_t b = 0; b < count; ++b)
          if (reaches[k][b])
            reaches[a][b] = true;
  llvm::SmallVector<bool, 4> repeating;
  for (size_t r = 0; r < count; ++r)
    repeating.push_back(reaches[r][r]);
  return repeating;
}

} // namespace

llvm::SmallVector<VectorForm, 4> vectorizeRegions(llvm::ArrayRef<llvm::Function *> regions, bool keepsState,
                                                  unsigned vectorBits, unsigned maxWidth,
                                                  llvm::FunctionAnalysisManager &analyses, unsigned subGroupWidth) {
  const unsigned width = subGroupWidth ? subGroupWidth : std::min(vectorBits / 32, maxWidth);
  if (width < 2)
    return {};
  // Which fields hold different values in different lanes: none at first,
  // then those a region stores a varying value to, until no region does.
  std::set<int64_t> varyingFields;
  llvm::SmallVector<llvm::Function *, 4> copies;
  auto discardCopies = [&] {
    for (llvm::Function *copy : copies)
      discard(copy, analyses);
    copies.clear();
  };
  for (size_t round = 0;; ++round) {
    for (llvm::Function *region : regions) {
      llvm::Function *copy = hasBarriersOrIndirectCalls(*region) ? nullptr : prepareCopy(*region, analyses);
      if (copy)
        copies.push_back(copy);
      if (!copy || hasBarriersOrIndirectCalls(*copy) || hasAtomicsInLoops(*copy) ||
          (keepsState && !promoteState(*copy, *copy->getArg(copy->arg_size() - 1), width, varyingFields, analyses))) {
        discardCopies();
        return {};
      }
    }
    if (!keepsState)
      break;
    size_t known = varyingFields.size();
    for (llvm::Function *copy : copies)
      findVaryingFields(*copy, *copy->getArg(copy->arg_size() - 1), *copy->getArg(copy->arg_size() - 4), width,
                        varyingFields);
    if (varyingFields.size() == known)
      break;
    discardCopies();
    if (round == kMaxStateRounds)
      return {};
  }
  llvm::SmallVector<VectorForm, 4> forms;
  VectorForm total;
  for (auto [region, copy, repeats] : llvm::zip(regions, copies, repeatingRegions(regions))) {
    forms.push_back(widenCopy(copy, copy->arg_size() - 4, width, width, vectorBits, region->getName(), analyses));
    double weight = repeats ? kLoopWeight : 1;
    total.vectorCost += forms.back().vectorCost * weight;
    total.scalarCost += forms.back().scalarCost * weight;
  }
  bool complete = llvm::all_of(forms, [](const VectorForm &form) { return form.function != nullptr; });
  if (complete && (subGroupWidth || total.pays()))
    return forms;
  for (VectorForm &form : forms)
    if (form.function)
      form.function->eraseFromParent();
  return {};
}

llvm::PreservedAnalyses VectorizeWorkItemsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &analyses) {
  if (vectorBits == 0)
    return llvm::PreservedAnalyses::all();
  llvm::FunctionAnalysisManager &functionAnalyses =
      analyses.getResult<llvm::FunctionAnalysisManagerModuleProxy>(module).getManager();
  bool changed = false;
  for (llvm::Function *workItem : workItemFunctions(module))
    changed |= vectorize(*workItem, vectorBits, subGroupSize, functionAnalyses);
  if (llvm::Function *marker = anyLaneFunction(module); marker->use_empty())
    marker->eraseFromParent();
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
