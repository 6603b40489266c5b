// Uniform and varying values of a work-item function (see the header).
//
// Varying values start at the lane id and at every alloca, and spread to
// every instruction that uses a varying operand. Memory does not spread
// them: a load through a uniform pointer reads the same location in every
// lane, and work-items that race on such a location may see each other's
// stores in any order, as the OpenCL memory model allows. Atomics and calls
// that may write memory are varying by themselves (each work-item gets its
// own result). A sub-group collective that gives its whole sub-group one
// result is uniform (the vectoriser packs one sub-group per vector when a
// function calls one). Control flow is left to the caller, which marks the phis at
// joins of divergent branches (markVarying).
#include "work_item_uniformity.h"

#include "group_collectives.h"

#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

namespace compiler {

namespace {
constexpr const char *kAnyLaneName = "__polymux_any_lane";
constexpr const char *kLaneIndexName = "__polymux_lane_index";

/// Declares the marker `name` of `type`: no memory access, no unwinding.
llvm::Function *markerFunction(llvm::Module &module, llvm::StringRef name, llvm::FunctionType *type) {
  auto *function = llvm::cast<llvm::Function>(module.getOrInsertFunction(name, type).getCallee());
  function->setDoesNotAccessMemory();
  function->setDoesNotThrow();
  return function;
}

bool isCallTo(const llvm::Value *value, llvm::StringRef name) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName() == name;
}

/// A sub-group reduction, broadcast, any or all: the same result in every
/// lane when the vector holds one sub-group, as the vectoriser ensures for
/// functions that call them.
bool isSubGroupUniformResult(const llvm::Instruction *instruction) {
  std::optional<CollectiveCall> collective = classifySubGroupCollectiveMarkerCall(instruction);
  return collective && collective->isGroupUniform();
}

} // namespace

llvm::Function *anyLaneFunction(llvm::Module &module) {
  llvm::Type *i1 = llvm::Type::getInt1Ty(module.getContext());
  return markerFunction(module, kAnyLaneName, llvm::FunctionType::get(i1, {i1}, false));
}

bool isAnyLaneCall(const llvm::Value *value) { return isCallTo(value, kAnyLaneName); }

llvm::Function *laneIndexFunction(llvm::Module &module) {
  return markerFunction(module, kLaneIndexName,
                        llvm::FunctionType::get(llvm::Type::getInt64Ty(module.getContext()), false));
}

bool isLaneIndexCall(const llvm::Value *value) { return isCallTo(value, kLaneIndexName); }

WorkItemUniformity::WorkItemUniformity(llvm::Function &function, llvm::Value *laneId)
    : function_(function), laneId_(laneId) {
  recompute();
}

bool WorkItemUniformity::producesVaryingResult(const llvm::Instruction &instruction) const {
  if (llvm::isa<llvm::AllocaInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(instruction) ||
      isLaneIndexCall(&instruction))
    return true;
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
    return !call->getType()->isVoidTy() && call->mayWriteToMemory();
  return false;
}

void WorkItemUniformity::recompute() {
  varying_.clear();
  strides_.clear();
  llvm::SmallVector<llvm::Value *, 64> worklist{laneId_};
  varying_.insert(laneId_);
  for (llvm::Instruction &instruction : llvm::instructions(function_))
    if (producesVaryingResult(instruction) && varying_.insert(&instruction).second)
      worklist.push_back(&instruction);
  propagate(worklist);
}

void WorkItemUniformity::markVarying(llvm::Value *value) {
  if (!varying_.insert(value).second)
    return;
  strides_.clear();
  llvm::SmallVector<llvm::Value *, 16> worklist{value};
  propagate(worklist);
}

void WorkItemUniformity::propagate(llvm::SmallVectorImpl<llvm::Value *> &worklist) {
  while (!worklist.empty()) {
    llvm::Value *value = worklist.pop_back_val();
    for (llvm::User *user : value->users()) {
      auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
      // Stores and other void instructions have no result to spread to;
      // their varying operands are the widener's concern.
      if (!instruction || instruction->getType()->isVoidTy() || isAnyLaneCall(instruction) ||
          isSubGroupUniformResult(instruction))
        continue;
      if (varying_.insert(instruction).second)
        worklist.push_back(instruction);
    }
  }
}

bool WorkItemUniformity::isDivergent(const llvm::Instruction *terminator) const {
  if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator))
    return branch->isConditional() && isVarying(branch->getCondition());
  if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(terminator))
    return isVarying(switchInst->getCondition());
  // indirectbr and the like are not produced for OpenCL C.
  return false;
}

std::optional<int64_t> WorkItemUniformity::stride(llvm::Value *value) {
  if (!isVarying(value))
    return 0;
  if (auto found = strides_.find(value); found != strides_.end())
    return found->second;
  std::optional<int64_t> result = computeStride(value);
  strides_[value] = result;
  return result;
}

/// Whether `value` is `phi` plus a uniform amount (the increment of an
/// induction variable), which keeps the phi's step.
bool WorkItemUniformity::isUniformStepOf(llvm::Value *value, llvm::PHINode &phi) const {
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(value)) {
    llvm::Value *left = binary->getOperand(0), *right = binary->getOperand(1);
    if (binary->getOpcode() == llvm::Instruction::Add)
      return (left == &phi && !isVarying(right)) || (right == &phi && !isVarying(left));
    if (binary->getOpcode() == llvm::Instruction::Sub)
      return left == &phi && !isVarying(right);
    return false;
  }
  if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(value))
    return gep->getPointerOperand() == &phi &&
           llvm::none_of(gep->indices(), [&](llvm::Value *index) { return isVarying(index); });
  return false;
}

/// A phi's lanes are evenly spaced when its incoming values other than its
/// own uniform increments all are, with the same step: `i = start;
/// i += uniform` keeps the step of `start`.
std::optional<int64_t> WorkItemUniformity::phiStride(llvm::PHINode &phi) {
  strides_[&phi] = std::nullopt; // a cycle through other values: unknown
  std::optional<int64_t> common;
  for (llvm::Value *incoming : phi.incoming_values()) {
    if (isUniformStepOf(incoming, phi))
      continue;
    std::optional<int64_t> step = stride(incoming);
    if (!step || (common && *common != *step))
      return std::nullopt;
    common = step;
  }
  return common;
}

std::optional<int64_t> WorkItemUniformity::computeStride(llvm::Value *value) {
  if (value == laneId_)
    return 1;
  if (isLaneIndexCall(value))
    return 1;
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction)
    return std::nullopt;
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(instruction))
    return phiStride(*phi);
  const llvm::DataLayout &layout = function_.getDataLayout();
  if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(instruction)) {
    // The widener gives lane i the i-th element of an array of allocations.
    std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout);
    if (!size || size->isScalable())
      return std::nullopt;
    return static_cast<int64_t>(size->getFixedValue());
  }
  auto constant = [](llvm::Value *operand) -> std::optional<int64_t> {
    if (auto *integer = llvm::dyn_cast<llvm::ConstantInt>(operand); integer && integer->getBitWidth() <= 64)
      return integer->getSExtValue();
    return std::nullopt;
  };
  switch (instruction->getOpcode()) {
  case llvm::Instruction::Or:
    // An `or` of operands without common bits is an addition.
    if (!llvm::cast<llvm::PossiblyDisjointInst>(instruction)->isDisjoint())
      return std::nullopt;
    [[fallthrough]];
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub: {
    std::optional<int64_t> left = stride(instruction->getOperand(0));
    std::optional<int64_t> right = stride(instruction->getOperand(1));
    if (!left || !right)
      return std::nullopt;
    return instruction->getOpcode() == llvm::Instruction::Sub ? *left - *right : *left + *right;
  }
  case llvm::Instruction::Mul: {
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<int64_t> factor = constant(instruction->getOperand(1 - i)))
        if (std::optional<int64_t> step = stride(instruction->getOperand(i)))
          return *step * *factor;
    return std::nullopt;
  }
  case llvm::Instruction::Shl: {
    std::optional<int64_t> amount = constant(instruction->getOperand(1));
    std::optional<int64_t> step = stride(instruction->getOperand(0));
    if (!amount || !step || *amount < 0 || *amount > 32)
      return std::nullopt;
    return *step * (int64_t{1} << *amount);
  }
  case llvm::Instruction::AShr:
  case llvm::Instruction::LShr: {
    // `ashr exact (shl x, 32), 32` is InstCombine's sign extension of the
    // low half; exact shifts divide steps that keep their low bits zero.
    std::optional<int64_t> amount = constant(instruction->getOperand(1));
    std::optional<int64_t> step = stride(instruction->getOperand(0));
    if (!amount || !step || !llvm::cast<llvm::PossiblyExactOperator>(instruction)->isExact() || *amount < 0 ||
        *amount > 32 || *step % (int64_t{1} << *amount) != 0)
      return std::nullopt;
    return *step / (int64_t{1} << *amount);
  }
  case llvm::Instruction::SExt:
  case llvm::Instruction::ZExt:
  case llvm::Instruction::Trunc:
    return stride(instruction->getOperand(0));
  case llvm::Instruction::GetElementPtr: {
    auto *gep = llvm::cast<llvm::GEPOperator>(instruction);
    std::optional<int64_t> total = stride(gep->getPointerOperand());
    if (!total)
      return std::nullopt;
    for (llvm::gep_type_iterator index = llvm::gep_type_begin(gep), end = llvm::gep_type_end(gep); index != end;
         ++index) {
      if (!isVarying(index.getOperand()))
        continue;
      if (index.isStruct())
        return std::nullopt;
      std::optional<int64_t> step = stride(index.getOperand());
      if (!step)
        return std::nullopt;
      llvm::TypeSize elementSize = index.getSequentialElementStride(layout);
      if (elementSize.isScalable())
        return std::nullopt;
      *total += *step * static_cast<int64_t>(elementSize.getFixedValue());
    }
    return total;
  }
  default:
    return std::nullopt;
  }
}

} // namespace compiler
