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
//
// Lanes also share the quotient of a value that runs through them one by
// one from a multiple of the vector's width, divided by a multiple of that
// width (`tid / 8` with `tid = get_local_id(1) * 8 + get_local_id(0)` and
// vectors of 8 or fewer lanes): such quotients are found after a first
// analysis and the analysis runs again with them uniform, until no new one
// appears.
#include "work_item_uniformity.h"

#include "compiler/group_collectives.h"

#include "llvm/Analysis/ValueTracking.h"
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

WorkItemUniformity::WorkItemUniformity(llvm::Function &function, llvm::Value *laneId, unsigned laneBlock)
    : function_(function), laneId_(laneId),
      laneBlock_(laneBlock >= 2 && llvm::isPowerOf2_32(laneBlock) ? laneBlock : 0) {
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
  laneBlockUniform_.clear();
  analyse();
  if (!laneBlock_)
    return;
  for (;;) {
    bool found = false;
    for (llvm::Instruction &instruction : llvm::instructions(function_))
      if (isVarying(&instruction) && !llvm::isa<llvm::PHINode>(instruction) && isLaneBlockQuotient(instruction) &&
          laneBlockUniform_.insert(&instruction).second)
        found = true;
    if (!found)
      return;
    analyse();
  }
}

void WorkItemUniformity::analyse() {
  bits_.clear();
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
  bits_.clear();
  llvm::SmallVector<llvm::Value *, 16> worklist{value};
  propagate(worklist);
  // A quotient whose dividend stopped running through the lanes one by one
  // (a uniform part of it now varies) varies again.
  while (dropInvalidLaneBlockUniforms())
    ;
}

bool WorkItemUniformity::dropInvalidLaneBlockUniforms() {
  for (const llvm::Instruction *instruction : laneBlockUniform_)
    if (!isLaneBlockQuotient(*instruction)) {
      auto *invalid = const_cast<llvm::Instruction *>(instruction);
      laneBlockUniform_.erase(instruction);
      varying_.insert(invalid);
      strides_.clear();
      bits_.clear();
      llvm::SmallVector<llvm::Value *, 16> worklist{invalid};
      propagate(worklist);
      return true;
    }
  return false;
}

bool WorkItemUniformity::isLaneBlockQuotient(const llvm::Instruction &instruction) const {
  if (!laneBlock_ || !instruction.getType()->isIntegerTy())
    return false;
  // Computed as if uniform: its operands' bits that differ between lanes.
  std::optional<llvm::APInt> bits = resultVaryingBits(instruction);
  return bits && bits->isZero();
}

std::optional<llvm::APInt> WorkItemUniformity::varyingBits(const llvm::Value *value) const {
  llvm::Type *type = value->getType();
  if (!type->isIntegerTy() || type->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned width = type->getIntegerBitWidth();
  if (!isVarying(value))
    return llvm::APInt::getZero(width);
  if (value == laneId_ || isLaneIndexCall(value))
    return llvm::APInt(width, laneBlock_ - 1);
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || llvm::isa<llvm::PHINode>(instruction))
    return std::nullopt;
  if (auto found = bits_.find(value); found != bits_.end())
    return found->second;
  std::optional<llvm::APInt> result = resultVaryingBits(*instruction);
  bits_[value] = result;
  return result;
}

/// Whether `value`'s bits up to the highest of `bits` are known zero:
/// adding it to a value that varies only in `bits` carries nothing out of
/// them.
static bool clearsBitsOf(const llvm::Value *value, const llvm::APInt &bits, const llvm::DataLayout &layout) {
  return llvm::computeKnownBits(value, layout).countMinTrailingZeros() >= bits.getActiveBits();
}

std::optional<llvm::APInt> WorkItemUniformity::resultVaryingBits(const llvm::Instruction &instruction) const {
  const llvm::DataLayout &layout = function_.getDataLayout();
  unsigned width = instruction.getType()->getIntegerBitWidth();
  auto constant = [&](unsigned index) -> const llvm::APInt * {
    auto *integer = llvm::dyn_cast<llvm::ConstantInt>(instruction.getOperand(index));
    return integer ? &integer->getValue() : nullptr;
  };
  auto nonNegative = [&](unsigned index) {
    return llvm::isKnownNonNegative(instruction.getOperand(index), llvm::SimplifyQuery(layout));
  };
  switch (instruction.getOpcode()) {
  case llvm::Instruction::ZExt:
  case llvm::Instruction::SExt:
  case llvm::Instruction::Trunc: {
    std::optional<llvm::APInt> bits = varyingBits(instruction.getOperand(0));
    if (!bits)
      return std::nullopt;
    // A sign extension copies the sign bit, which must not vary.
    if (instruction.getOpcode() == llvm::Instruction::SExt && bits->isSignBitSet())
      return std::nullopt;
    return bits->zextOrTrunc(width);
  }
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Or:
  case llvm::Instruction::Xor:
  case llvm::Instruction::And: {
    const bool commutes = instruction.getOpcode() != llvm::Instruction::Sub;
    for (unsigned i = 0; i < (commutes ? 2u : 1u); ++i) {
      const llvm::Value *other = instruction.getOperand(1 - i);
      if (isVarying(other))
        continue;
      std::optional<llvm::APInt> bits = varyingBits(instruction.getOperand(i));
      if (!bits)
        return std::nullopt;
      switch (instruction.getOpcode()) {
      case llvm::Instruction::And: // bits the uniform operand clears are 0
        return *bits & ~llvm::computeKnownBits(other, layout).Zero;
      case llvm::Instruction::Or: // and those it sets are 1, in every lane
        return *bits & ~llvm::computeKnownBits(other, layout).One;
      case llvm::Instruction::Xor:
        return bits;
      default:
        // No carry or borrow leaves the varying bits when the uniform
        // operand is zero there.
        if (clearsBitsOf(other, *bits, layout))
          return bits;
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  case llvm::Instruction::Shl:
  case llvm::Instruction::LShr:
  case llvm::Instruction::AShr: {
    const llvm::APInt *amount = constant(1);
    std::optional<llvm::APInt> bits = varyingBits(instruction.getOperand(0));
    if (!amount || !bits || amount->uge(width))
      return std::nullopt;
    unsigned shift = static_cast<unsigned>(amount->getZExtValue());
    if (instruction.getOpcode() == llvm::Instruction::Shl)
      return bits->shl(shift);
    if (instruction.getOpcode() == llvm::Instruction::AShr && bits->isSignBitSet())
      return std::nullopt;
    return bits->lshr(shift);
  }
  case llvm::Instruction::Mul: {
    for (unsigned i = 0; i < 2; ++i)
      if (const llvm::APInt *factor = constant(1 - i); factor && factor->isPowerOf2())
        if (std::optional<llvm::APInt> bits = varyingBits(instruction.getOperand(i)))
          return bits->shl(factor->logBase2());
    return std::nullopt;
  }
  case llvm::Instruction::SDiv:
  case llvm::Instruction::SRem:
    if (!nonNegative(0) || !constant(1) || constant(1)->isNegative())
      return std::nullopt;
    [[fallthrough]];
  case llvm::Instruction::UDiv:
  case llvm::Instruction::URem: {
    // The lanes' dividends lie in one aligned block of 2^k values (they
    // differ in the low k bits only): a divisor that is a multiple of 2^k
    // puts them in one block of its own, with one quotient, and keeps the
    // remainder's varying bits.
    const llvm::APInt *divisor = constant(1);
    std::optional<llvm::APInt> bits = varyingBits(instruction.getOperand(0));
    if (!divisor || divisor->isZero() || !bits || divisor->countr_zero() < bits->getActiveBits())
      return std::nullopt;
    bool quotient =
        instruction.getOpcode() == llvm::Instruction::UDiv || instruction.getOpcode() == llvm::Instruction::SDiv;
    return quotient ? llvm::APInt::getZero(width) : *bits;
  }
  case llvm::Instruction::ICmp: {
    // x < u, with lanes' x differing only in low bits where u is zero,
    // compares the same high bits in every lane (x <= u would not: it also
    // depends on whether the low bits are zero).
    auto *compare = llvm::cast<llvm::ICmpInst>(&instruction);
    llvm::CmpPredicate predicate = compare->getCmpPredicate();
    unsigned varying = isVarying(compare->getOperand(0)) ? 0 : 1;
    if (varying == 1)
      predicate = llvm::CmpPredicate::getSwapped(predicate);
    switch (predicate) {
    case llvm::CmpInst::ICMP_ULT:
    case llvm::CmpInst::ICMP_SLT:
    case llvm::CmpInst::ICMP_UGE:
    case llvm::CmpInst::ICMP_SGE:
      break;
    default:
      return std::nullopt;
    }
    const llvm::Value *bound = compare->getOperand(1 - varying);
    std::optional<llvm::APInt> bits = varyingBits(compare->getOperand(varying));
    // (A signed comparison also needs the sign bit the same in every lane.)
    if (isVarying(bound) || !bits || !clearsBitsOf(bound, *bits, layout) ||
        (compare->isSigned() && bits->isSignBitSet()))
      return std::nullopt;
    return llvm::APInt::getZero(1);
  }
  default:
    return std::nullopt;
  }
}

bool WorkItemUniformity::keepsVaryingBits(const llvm::Instruction &instruction) const {
  if (!laneBlock_)
    return false;
  switch (instruction.getOpcode()) {
  case llvm::Instruction::And:
  case llvm::Instruction::URem:
  case llvm::Instruction::SRem:
    break;
  default:
    return false;
  }
  std::optional<llvm::APInt> before = varyingBits(instruction.getOperand(0));
  std::optional<llvm::APInt> after = varyingBits(&instruction);
  return before && after && !before->isZero() && *before == *after && !isVarying(instruction.getOperand(1));
}

void WorkItemUniformity::propagate(llvm::SmallVectorImpl<llvm::Value *> &worklist) {
  while (!worklist.empty()) {
    llvm::Value *value = worklist.pop_back_val();
    for (llvm::User *user : value->users()) {
      auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
      // Stores and other void instructions have no result to spread to;
      // their varying operands are the widener's concern.
      if (!instruction || instruction->getType()->isVoidTy() || isAnyLaneCall(instruction) ||
          isSubGroupUniformResult(instruction) || laneBlockUniform_.contains(instruction))
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
  case llvm::Instruction::URem:
  case llvm::Instruction::SRem:
  case llvm::Instruction::And:
    // A remainder or mask that keeps every bit in which the lanes differ
    // takes the same uniform amount off each lane.
    if (keepsVaryingBits(*instruction))
      return stride(instruction->getOperand(0));
    return std::nullopt;
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
