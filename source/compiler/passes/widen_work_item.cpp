// The widening step of the work-item vectoriser (see the header).
//
// Each value of the scalar function has one of three forms in the vector
// function: a scalar (uniform values), a vector of `width` elements
// (varying values of integer, floating-point or pointer type) or `width`
// separate scalars, one per lane (other varying values, and the results of
// instructions run lane by lane). Blocks are visited in reverse post-order,
// so definitions come before their uses; phis get their incoming values
// once every block exists.
#include "widen_work_item.h"

#include "compiler/passes.h"
#include "mux/status.h"
#include "widen_sub_group_collective.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <cmath>

namespace compiler {
namespace {

using Lanes = llvm::SmallVector<llvm::Value *, 16>;

/// Masked blocks with fewer instructions run even when no lane is active:
/// the branch would cost more than it saves (unless they may underflow).
constexpr unsigned kMinSkippedInstructions = 12;

/// Scalars, and fixed vectors of integers or floating-point values (OpenCL
/// C's vector types): lane i's K elements are elements iK .. iK + K - 1 of
/// the widened vector ("lane-major"), so that a work-item's vector stays
/// contiguous, as in memory.
bool isPackable(llvm::Type *type) {
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
    return vector->getElementType()->isIntegerTy() || vector->getElementType()->isFloatingPointTy();
  return type->isIntegerTy() || type->isFloatingPointTy() || type->isPointerTy();
}

/// Elements per work-item of a packable type: 1 for scalars.
unsigned elementsOf(llvm::Type *type) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector ? vector->getNumElements() : 1;
}

class Widener {
public:
  Widener(llvm::Function &scalar, llvm::Argument &laneId, WorkItemUniformity &uniformity, const BlockMasks &masks,
          unsigned width)
      : source_(scalar), laneId_(laneId), uniformity_(uniformity), masks_(masks), width_(width),
        context_(scalar.getContext()), builder_(context_), dominators_(scalar), loops_(dominators_),
        libraryInfoImpl_(scalar.getParent()->getTargetTriple()), assumptions_(scalar),
        evolution_(scalar, libraryInfo_, assumptions_, dominators_, loops_) {}

  llvm::Expected<WidenedWorkItem> run(const llvm::Twine &name) {
    target_ = llvm::Function::Create(source_.getFunctionType(), llvm::GlobalValue::InternalLinkage, name,
                                     source_.getParent());
    target_->copyAttributesFrom(&source_);
    for (auto [from, to] : llvm::zip(source_.args(), target_->args())) {
      to.setName(from.getName());
      scalars_[&from] = &to;
    }
    for (llvm::BasicBlock &block : source_) {
      auto *copy = llvm::BasicBlock::Create(context_, block.getName(), target_);
      first_[&block] = last_[&block] = copy;
    }
    // Lane i runs the work-item whose local id is the argument plus i.
    builder_.SetInsertPoint(first_[&source_.getEntryBlock()]);
    vectors_[&laneId_] = builder_.CreateAdd(builder_.CreateVectorSplat(width_, scalars_[&laneId_]), laneOffsets(),
                                            laneId_.getName() + ".lanes");
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&source_);
    for (llvm::BasicBlock *block : order) {
      current_ = block;
      builder_.SetInsertPoint(last_[block]);
      llvm::Instruction *skipFrom = skipPoint(*block);
      for (llvm::Instruction &instruction : *block) {
        if (&instruction == skipFrom)
          openSkip();
        if (skip_ && instruction.isTerminator())
          closeSkip(*block);
        if (llvm::Error error = visit(instruction)) {
          target_->eraseFromParent();
          return error;
        }
      }
    }
    completePhis();
    // Blocks unreachable in the source stay empty: give them a terminator.
    for (llvm::BasicBlock &block : *target_)
      if (!block.getTerminator())
        new llvm::UnreachableInst(context_, &block);
    result_.function = target_;
    result_.width = width_;
    return result_;
  }

private:
  llvm::Constant *laneOffsets() {
    llvm::SmallVector<llvm::Constant *, 16> offsets;
    auto *type = llvm::cast<llvm::IntegerType>(laneId_.getType());
    for (unsigned i = 0; i < width_; ++i)
      offsets.push_back(llvm::ConstantInt::get(type, i));
    return llvm::ConstantVector::get(offsets);
  }

  // --- Skipping masked blocks that no lane runs ---

  /// Linearised code runs every block; a masked block with enough work is
  /// jumped over when its mask is all false (e.g. the rare slow path of a
  /// math function). Returns the instruction to branch before: the first
  /// one after the block's mask is known, or nullptr.
  llvm::Instruction *skipPoint(llvm::BasicBlock &block) const {
    llvm::Value *mask = masks_.lookup(&block);
    if (!mask || block.sizeWithoutDebug() < (mayUnderflow(block) ? 2 : kMinSkippedInstructions))
      return nullptr;
    auto *definition = llvm::dyn_cast<llvm::Instruction>(mask);
    if (llvm::isa_and_nonnull<llvm::PHINode>(definition))
      return nullptr; // a divergent loop's header: some lane runs it
    llvm::Instruction *first =
        definition && definition->getParent() == &block ? definition->getNextNode() : &*block.getFirstNonPHIIt();
    return first->isTerminator() ? nullptr : first;
  }

  /// Whether `block` multiplies or divides floating-point values: in lanes
  /// that do not run it, the operands are whatever they happen to be, and a
  /// result that underflows costs the CPU a microcode assist (about a
  /// hundred cycles), more than the branch that skips the block.
  static bool mayUnderflow(const llvm::BasicBlock &block) {
    return llvm::any_of(block, [](const llvm::Instruction &instruction) {
      if (instruction.getOpcode() == llvm::Instruction::FMul || instruction.getOpcode() == llvm::Instruction::FDiv)
        return true;
      auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
      return intrinsic && (intrinsic->getIntrinsicID() == llvm::Intrinsic::fma ||
                           intrinsic->getIntrinsicID() == llvm::Intrinsic::fmuladd);
    });
  }

  struct Skip {
    llvm::BasicBlock *from; ///< ends with the branch over the body
    llvm::SmallVector<llvm::Instruction *, 32> visited;
  };

  void openSkip() {
    auto *body = llvm::BasicBlock::Create(context_, current_->getName() + ".active", target_);
    llvm::Value *any = builder_.CreateOrReduce(blockMask());
    skip_.emplace(Skip{builder_.GetInsertBlock(), {}});
    builder_.CreateCondBr(any, body, body); // the false edge is set in closeSkip
    builder_.SetInsertPoint(body);
  }

  /// Joins the body with the path that skipped it: values of the body used
  /// elsewhere are null there (only lanes that ran the block use them).
  void closeSkip(llvm::BasicBlock &block) {
    Skip skip = std::move(*skip_);
    skip_.reset();
    auto *join = llvm::BasicBlock::Create(context_, block.getName() + ".join", target_);
    llvm::BasicBlock *bodyEnd = builder_.GetInsertBlock();
    builder_.CreateBr(join);
    llvm::cast<llvm::BranchInst>(skip.from->getTerminator())->setSuccessor(1, join);
    builder_.SetInsertPoint(join);
    auto merge = [&](llvm::Value *value) -> llvm::Value * {
      llvm::PHINode *phi = builder_.CreatePHI(value->getType(), 2, value->getName());
      phi->addIncoming(value, bodyEnd);
      phi->addIncoming(llvm::Constant::getNullValue(value->getType()), skip.from);
      return phi;
    };
    for (llvm::Instruction *instruction : skip.visited) {
      if (instruction->getType()->isVoidTy() || llvm::all_of(instruction->users(), [&](llvm::User *user) {
            return llvm::cast<llvm::Instruction>(user)->getParent() == &block;
          }))
        continue;
      if (auto found = scalars_.find(instruction); found != scalars_.end())
        found->second = merge(found->second);
      else if (auto found = vectors_.find(instruction); found != vectors_.end())
        found->second = merge(found->second);
      else if (auto found = lanes_.find(instruction); found != lanes_.end())
        for (llvm::Value *&lane : found->second)
          lane = merge(lane);
    }
    last_[current_] = join;
  }

  llvm::Type *vectorOf(llvm::Type *type) const {
    return llvm::FixedVectorType::get(type->getScalarType(), elementsOf(type) * width_);
  }

  /// Each lane's element of <width x T> `perLane` repeated `elements` times,
  /// lane-major: the mask (or scalar value) for a vector type's elements.
  llvm::Value *repeatLanes(llvm::Value *perLane, unsigned elements) {
    if (elements == 1)
      return perLane;
    llvm::SmallVector<int, 64> mask;
    for (unsigned i = 0; i < width_; ++i)
      mask.append(elements, static_cast<int>(i));
    return builder_.CreateShuffleVector(perLane, mask);
  }

  /// A uniform value of vector type `value` in every lane (a constant for
  /// a constant: the builder folds the shuffle).
  llvm::Value *repeatVector(llvm::Value *value) {
    unsigned elements = elementsOf(value->getType());
    llvm::SmallVector<int, 64> mask;
    for (unsigned i = 0; i < width_; ++i)
      for (unsigned e = 0; e < elements; ++e)
        mask.push_back(static_cast<int>(e));
    return builder_.CreateShuffleVector(value, mask);
  }

  bool isVarying(const llvm::Value *value) const { return uniformity_.isVarying(value); }

  // --- What each form costs (WidenedWorkItem::scalarCost, vectorCost) ---

  enum class Form { Vector, Uniform, Gathered, StreamGathered, Scalarized };

  /// Whether each lane's address of an access of `type` through `pointer`
  /// moves by at most a few elements per iteration of the loop around it:
  /// the scalar form reads such a stream several elements at a time
  /// (unrolled, SLP-vectorised), which a gather across lanes cannot.
  bool streamsAlongLoop(llvm::Value *pointer, llvm::Type *type) {
    constexpr int64_t kMaxStreamStep = 4; // elements per iteration
    const llvm::Loop *loop = loops_.getLoopFor(current_);
    if (!loop)
      return false;
    std::optional<int64_t> step = stepAlong(evolution_.getSCEV(pointer), loop);
    int64_t size = static_cast<int64_t>(source_.getDataLayout().getTypeAllocSize(type).getFixedValue());
    return step && *step != 0 && std::abs(*step) <= kMaxStreamStep * size;
  }

  /// How much `expression` grows per iteration of `loop`, through sums,
  /// constant multiples and integer casts (an OpenCL C index is taken not
  /// to wrap, as WorkItemUniformity::stride does); nullopt when it does not
  /// grow by a constant.
  std::optional<int64_t> stepAlong(const llvm::SCEV *expression, const llvm::Loop *loop) {
    if (evolution_.isLoopInvariant(expression, loop))
      return 0;
    if (auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(expression)) {
      auto *step = llvm::dyn_cast<llvm::SCEVConstant>(recurrence->getStepRecurrence(evolution_));
      if (recurrence->getLoop() != loop || !recurrence->isAffine() || !step ||
          !evolution_.isLoopInvariant(recurrence->getStart(), loop))
        return std::nullopt;
      return step->getAPInt().getSExtValue();
    }
    if (auto *cast = llvm::dyn_cast<llvm::SCEVIntegralCastExpr>(expression))
      return stepAlong(cast->getOperand(), loop);
    if (auto *sum = llvm::dyn_cast<llvm::SCEVAddExpr>(expression)) {
      int64_t total = 0;
      for (const llvm::SCEV *operand : sum->operands()) {
        std::optional<int64_t> step = stepAlong(operand, loop);
        if (!step)
          return std::nullopt;
        total += *step;
      }
      return total;
    }
    if (auto *product = llvm::dyn_cast<llvm::SCEVMulExpr>(expression); product && product->getNumOperands() == 2)
      if (auto *factor = llvm::dyn_cast<llvm::SCEVConstant>(product->getOperand(0)))
        if (std::optional<int64_t> step = stepAlong(product->getOperand(1), loop))
          return *step * factor->getAPInt().getSExtValue();
    return std::nullopt;
  }

  /// Counts one instruction of the block being widened, in `form`: as
  /// `operations` vector operations for Form::Vector.
  void count(Form form, unsigned operations = 1) {
    double weight = std::pow(kLoopWeight, std::min(loops_.getLoopDepth(current_), 3u));
    result_.scalarCost += weight;
    switch (form) {
    case Form::Vector:
      result_.vectorCost += weight * operations / width_;
      break;
    case Form::Uniform:
      result_.vectorCost += weight / width_;
      break;
    case Form::Gathered:
    case Form::StreamGathered:
      result_.vectorCost += weight * kGatheredElementCost * (form == Form::StreamGathered ? kStreamedGatherFactor : 1);
      break;
    case Form::Scalarized:
      result_.vectorCost += weight;
      break;
    }
  }

  // --- Operands in each form, at the builder's position ---

  llvm::Value *scalar(llvm::Value *value) {
    if (llvm::isa<llvm::Constant, llvm::MetadataAsValue, llvm::InlineAsm>(value))
      return value;
    if (auto *block = llvm::dyn_cast<llvm::BasicBlock>(value))
      return first_.lookup(block);
    llvm::Value *mapped = scalars_.lookup(value);
    assert(mapped && "uniform operand used before its definition");
    return mapped;
  }

  llvm::Value *packed(llvm::Value *value) {
    if (value->getType()->isVectorTy() && !isVarying(value))
      return repeatVector(scalar(value));
    if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
      return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(width_), constant);
    if (!isVarying(value))
      return builder_.CreateVectorSplat(width_, scalar(value));
    if (llvm::Value *vector = vectors_.lookup(value))
      return vector;
    auto found = lanes_.find(value);
    assert(found != lanes_.end() && "varying operand used before its definition");
    unsigned elements = elementsOf(value->getType());
    llvm::Value *vector = llvm::PoisonValue::get(vectorOf(value->getType()));
    for (unsigned i = 0; i < width_; ++i)
      for (unsigned e = 0; e < elements; ++e)
        vector = builder_.CreateInsertElement(
            vector,
            value->getType()->isVectorTy() ? builder_.CreateExtractElement(found->second[i], e) : found->second[i],
            i * elements + e);
    return vector;
  }

  llvm::Value *lane(llvm::Value *value, unsigned i) {
    if (!isVarying(value))
      return scalar(value);
    if (auto found = lanes_.find(value); found != lanes_.end())
      return found->second[i];
    llvm::Value *vector = vectors_.lookup(value);
    assert(vector && "varying operand used before its definition");
    unsigned elements = elementsOf(value->getType());
    if (!value->getType()->isVectorTy())
      return builder_.CreateExtractElement(vector, i);
    llvm::SmallVector<int, 16> mask;
    for (unsigned e = 0; e < elements; ++e)
      mask.push_back(static_cast<int>(i * elements + e));
    return builder_.CreateShuffleVector(vector, mask);
  }

  /// Lane 0's value of `value`, computed from lane 0's operands through
  /// additions, multiplications, casts and address arithmetic (and the
  /// shadow phis of induction variables, below) rather than extracted from
  /// the vector: the address of a consecutive access then needs no vector of
  /// addresses, and a vector induction variable used only for addresses dies.
  llvm::Value *firstLane(llvm::Value *value) {
    llvm::DenseMap<llvm::Value *, llvm::Value *> computed;
    return firstLane(value, computed);
  }

  llvm::Value *firstLane(llvm::Value *value, llvm::DenseMap<llvm::Value *, llvm::Value *> &computed) {
    if (!isVarying(value))
      return scalar(value);
    if (value == &laneId_)
      return scalars_.lookup(&laneId_);
    if (llvm::Value *shadow = firstLanePhis_.lookup(value))
      return shadow;
    if (llvm::Value *known = computed.lookup(value))
      return known;
    llvm::Value *result = nullptr;
    auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
    if (instruction && vectors_.contains(value) && followsFirstLane(*instruction))
      result = insertClone(*instruction, [&](llvm::Value *operand) { return firstLane(operand, computed); });
    else
      result = lane(value, 0);
    computed[value] = result;
    return result;
  }

  /// Whether lane 0's value of `instruction` is the instruction on lane 0's
  /// operands, cheap and unable to fault.
  static bool followsFirstLane(const llvm::Instruction &instruction) {
    if (!isPackable(instruction.getType()) ||
        !llvm::all_of(instruction.operands(), [](llvm::Value *operand) { return isPackable(operand->getType()); }))
      return false;
    switch (instruction.getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl:
    case llvm::Instruction::Or:
    case llvm::Instruction::And:
    case llvm::Instruction::Xor:
    case llvm::Instruction::SExt:
    case llvm::Instruction::ZExt:
    case llvm::Instruction::Trunc:
    case llvm::Instruction::GetElementPtr:
      return true;
    case llvm::Instruction::LShr:
    case llvm::Instruction::AShr:
      return llvm::isa<llvm::ConstantInt>(instruction.getOperand(1));
    case llvm::Instruction::UDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::SRem: {
      // Division by a constant other than 0 (and -1, which overflows).
      auto *divisor = llvm::dyn_cast<llvm::ConstantInt>(instruction.getOperand(1));
      return divisor && !divisor->isZero() && !divisor->isMinusOne();
    }
    default:
      return false;
    }
  }

  /// The mask of the block being widened, or nullptr when every lane runs it.
  llvm::Value *blockMask() {
    llvm::Value *mask = masks_.lookup(current_);
    return mask ? packed(mask) : nullptr;
  }

  /// Runs `body` only when `condition` (an i1) holds; returns its result
  /// (poison where it did not run) or nullptr for void.
  llvm::Value *guarded(llvm::Value *condition, llvm::Type *type, llvm::function_ref<llvm::Value *()> body) {
    llvm::BasicBlock *before = builder_.GetInsertBlock();
    auto *then = llvm::BasicBlock::Create(context_, "lane.run", target_);
    auto *after = llvm::BasicBlock::Create(context_, "lane.next", target_);
    builder_.CreateCondBr(condition, then, after);
    builder_.SetInsertPoint(then);
    llvm::Value *result = body();
    llvm::BasicBlock *thenEnd = builder_.GetInsertBlock();
    builder_.CreateBr(after);
    builder_.SetInsertPoint(after);
    last_[current_] = after;
    if (type->isVoidTy())
      return nullptr;
    llvm::PHINode *phi = builder_.CreatePHI(type, 2);
    phi->addIncoming(result, thenEnd);
    phi->addIncoming(llvm::PoisonValue::get(type), before);
    return phi;
  }

  llvm::Instruction *insertClone(llvm::Instruction &instruction, llvm::function_ref<llvm::Value *(llvm::Value *)> map) {
    llvm::Instruction *copy = instruction.clone();
    for (llvm::Use &operand : copy->operands())
      operand.set(map(operand.get()));
    copy->setDebugLoc({});
    builder_.Insert(copy, instruction.getType()->isVoidTy() ? "" : instruction.getName());
    return copy;
  }

  // --- Instructions ---

  llvm::Error visit(llvm::Instruction &instruction) {
    if (skip_)
      skip_->visited.push_back(&instruction);
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
      visitPhi(*phi);
      return llvm::Error::success();
    }
    if (isLaneIndexCall(&instruction)) {
      llvm::SmallVector<llvm::Constant *, 16> indices;
      for (unsigned i = 0; i < width_; ++i)
        indices.push_back(builder_.getInt64(i));
      vectors_[&instruction] = llvm::ConstantVector::get(indices);
      return llvm::Error::success();
    }
    if (isAnyLaneCall(&instruction)) {
      llvm::Value *any = builder_.CreateOrReduce(packed(llvm::cast<llvm::CallInst>(instruction).getArgOperand(0)));
      scalars_[&instruction] = any;
      return llvm::Error::success();
    }
    if (std::optional<CollectiveCall> collective = classifySubGroupCollectiveMarkerCall(&instruction)) {
      visitSubGroupCollective(llvm::cast<llvm::CallInst>(instruction), *collective);
      return llvm::Error::success();
    }
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (call->getCalledFunction() && isSubGroupBarrierFunction(call->getCalledFunction()->getName()))
        return llvm::Error::success(); // the sub-group's lanes run in step
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
      if (intrinsic->isLifetimeStartOrEnd() || intrinsic->isAssumeLikeIntrinsic() ||
          intrinsic->getIntrinsicID() == llvm::Intrinsic::experimental_noalias_scope_decl)
        if (llvm::any_of(intrinsic->args(), [&](llvm::Value *argument) { return isVarying(argument); }))
          return llvm::Error::success(); // hints about per-lane values: dropped
    if (uniformity_.isLaneBlockUniform(&instruction)) {
      // The same in every lane: lane 0's.
      scalars_[&instruction] = insertClone(instruction, [&](llvm::Value *operand) { return firstLane(operand); });
      return llvm::Error::success();
    }
    bool varyingOperand =
        llvm::any_of(instruction.operands(), [&](llvm::Value *operand) { return isVarying(operand); });
    if (!isVarying(&instruction) && !varyingOperand) {
      visitUniform(instruction);
      return llvm::Error::success();
    }
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&instruction)) {
      // A barrier region returns the barrier its work-items reached, which
      // OpenCL requires to be the same for the whole work-group (the
      // analysis sees a varying value where paths that differ per lane
      // join): lane 0's.
      builder_.CreateRet(lane(ret->getReturnValue(), 0));
      return llvm::Error::success();
    }
    if (instruction.isTerminator())
      return mux::makeError(mux::Status::Unsupported, "not vectorised: a divergent branch was left");
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      return visitAlloca(*alloca);
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      if (load->isSimple() && isPackable(load->getType()) && isVarying(load->getPointerOperand())) {
        visitLoad(*load);
        return llvm::Error::success();
      }
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      if (store->isSimple() && isPackable(store->getValueOperand()->getType()) &&
          (isVarying(store->getPointerOperand()) || isVarying(store->getValueOperand()))) {
        visitStore(*store);
        return llvm::Error::success();
      }
    } else if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction)) {
      if (widenIntrinsic(*call))
        return llvm::Error::success();
    } else if (isElementwise(instruction)) {
      widenElementwise(instruction);
      return llvm::Error::success();
    } else if (llvm::isa<llvm::ExtractElementInst, llvm::InsertElementInst, llvm::ShuffleVectorInst>(instruction) &&
               isPackable(instruction.getType()) && widenVectorShuffle(instruction)) {
      return llvm::Error::success();
    }
    scalarize(instruction);
    return llvm::Error::success();
  }

  void visitUniform(llvm::Instruction &instruction) {
    count(Form::Uniform);
    bool mayFault = instruction.mayHaveSideEffects() || instruction.mayReadFromMemory();
    llvm::Value *mask = mayFault && !instruction.isTerminator() ? blockMask() : nullptr;
    if (mask) {
      // Runs once, and only if some lane would have run it.
      llvm::Value *any = builder_.CreateOrReduce(mask);
      llvm::Value *result = guarded(any, instruction.getType(), [&] {
        return insertClone(instruction, [&](llvm::Value *operand) { return scalar(operand); });
      });
      if (result)
        scalars_[&instruction] = result;
      return;
    }
    scalars_[&instruction] = insertClone(instruction, [&](llvm::Value *operand) { return scalar(operand); });
  }

  /// The vector holds one whole sub-group (the caller's promise).
  void visitSubGroupCollective(llvm::CallInst &call, const CollectiveCall &collective) {
    SubGroupCollectiveOperands operands = subGroupCollectiveOperands(call);
    // A broadcast's id is the same for the whole sub-group: lane 0's.
    llvm::Value *id = operands.id ? lane(operands.id, 0) : nullptr;
    llvm::Value *result = widenSubGroupCollective(builder_, collective, packed(operands.value), id);
    result->setName(call.getName());
    if (collective.isGroupUniform())
      scalars_[&call] = result;
    else
      vectors_[&call] = result;
    count(Form::Vector);
  }

  void visitPhi(llvm::PHINode &phi) {
    llvm::Type *type = phi.getType();
    unsigned incoming = phi.getNumIncomingValues();
    if (!isVarying(&phi)) {
      scalars_[&phi] = builder_.CreatePHI(type, incoming, phi.getName());
    } else if (isPackable(type)) {
      vectors_[&phi] = builder_.CreatePHI(vectorOf(type), incoming, phi.getName());
      count(Form::Vector);
      // An induction variable that steps evenly across lanes (an index):
      // lane 0's copy too, for the addresses of consecutive accesses.
      if (!type->isFloatingPointTy() && !type->isVectorTy() && uniformity_.stride(&phi).value_or(0) != 0)
        firstLanePhis_[&phi] = builder_.CreatePHI(type, incoming, phi.getName() + ".lane0");
    } else {
      Lanes lanes;
      for (unsigned i = 0; i < width_; ++i)
        lanes.push_back(builder_.CreatePHI(type, incoming, phi.getName()));
      lanes_[&phi] = std::move(lanes);
    }
    phis_.push_back(&phi);
  }

  void completePhis() {
    for (llvm::PHINode *phi : phis_) {
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
        llvm::BasicBlock *from = last_[phi->getIncomingBlock(k)];
        llvm::Value *value = phi->getIncomingValue(k);
        builder_.SetInsertPoint(from->getTerminator());
        if (!isVarying(phi)) {
          llvm::cast<llvm::PHINode>(scalars_[phi])->addIncoming(scalar(value), from);
        } else if (llvm::Value *vector = vectors_.lookup(phi)) {
          llvm::cast<llvm::PHINode>(vector)->addIncoming(packed(value), from);
          if (llvm::Value *shadow = firstLanePhis_.lookup(phi))
            llvm::cast<llvm::PHINode>(shadow)->addIncoming(firstLane(value), from);
        } else {
          for (unsigned i = 0; i < width_; ++i)
            llvm::cast<llvm::PHINode>(lanes_[phi][i])->addIncoming(lane(value, i), from);
        }
      }
    }
  }

  llvm::Error visitAlloca(llvm::AllocaInst &alloca) {
    if (!alloca.isStaticAlloca() && !llvm::isa<llvm::ConstantInt>(alloca.getArraySize()))
      return mux::makeError(mux::Status::Unsupported, "not vectorised: a private array of run-time size");
    // One allocation per lane, side by side, in the entry block.
    llvm::IRBuilder<> entry(&*first_[&source_.getEntryBlock()]->getFirstInsertionPt());
    uint64_t count = llvm::cast<llvm::ConstantInt>(alloca.getArraySize())->getZExtValue();
    llvm::Type *element = alloca.getAllocatedType();
    if (count != 1)
      element = llvm::ArrayType::get(element, count);
    llvm::AllocaInst *copy =
        entry.CreateAlloca(element, alloca.getAddressSpace(), entry.getInt32(width_), alloca.getName() + ".lanes");
    copy->setAlignment(alloca.getAlign());
    vectors_[&alloca] = builder_.CreateGEP(element, copy, laneOffsets(), alloca.getName());
    return llvm::Error::success();
  }

  /// Whether lanes access consecutive elements of `type` through `pointer`.
  bool isConsecutive(llvm::Value *pointer, llvm::Type *type) {
    std::optional<int64_t> stride = uniformity_.stride(pointer);
    const llvm::DataLayout &layout = source_.getDataLayout();
    return stride && layout.getTypeStoreSize(type) == layout.getTypeAllocSize(type) &&
           *stride == static_cast<int64_t>(layout.getTypeAllocSize(type).getFixedValue());
  }

  /// The block's mask for the elements of values of `type` (nullptr when
  /// every lane runs the block).
  llvm::Value *elementMask(llvm::Type *type) {
    llvm::Value *mask = blockMask();
    return mask ? repeatLanes(mask, elementsOf(type)) : nullptr;
  }

  /// The address of each element that a gather or scatter of `type` (a
  /// scalar or vector type) through `pointer` touches, lane-major.
  llvm::Value *elementPointers(llvm::Value *pointer, llvm::Type *type) {
    unsigned elements = elementsOf(type);
    llvm::Value *pointers = packed(pointer);
    if (elements == 1)
      return pointers;
    llvm::SmallVector<llvm::Constant *, 64> offsets;
    for (unsigned i = 0; i < width_; ++i)
      for (unsigned e = 0; e < elements; ++e)
        offsets.push_back(builder_.getInt64(e));
    return builder_.CreateGEP(type->getScalarType(), repeatLanes(pointers, elements),
                              llvm::ConstantVector::get(offsets));
  }

  /// The memory a strided access of the lanes covers: from `base`, the
  /// lowest address, `elements` elements of which lane i's is at
  /// `positions[i]`; `accesses` vector accesses' worth.
  struct StridedSpan {
    llvm::Value *base;
    unsigned elements;
    llvm::SmallVector<int, 64> positions;
    unsigned accesses;
  };

  /// The span of an access of scalar `type` through `pointer` whose lanes
  /// lie a few elements apart (2 to kMaxSpanStride, or in reverse order),
  /// which one wide access and a shuffle serve better than a gather.
  std::optional<StridedSpan> stridedSpan(llvm::Value *pointer, llvm::Type *type) {
    constexpr int64_t kMaxSpanStride = 4;
    constexpr unsigned kMaxSpanElements = 64;
    const llvm::DataLayout &layout = source_.getDataLayout();
    std::optional<int64_t> stride = uniformity_.stride(pointer);
    int64_t size = static_cast<int64_t>(layout.getTypeAllocSize(type).getFixedValue());
    if (type->isVectorTy() || !isPackable(type) || !isVarying(pointer) || !stride || *stride == 0 ||
        layout.getTypeStoreSize(type) != layout.getTypeAllocSize(type) || *stride % size != 0)
      return std::nullopt;
    int64_t step = *stride / size;
    uint64_t distance = static_cast<uint64_t>(std::abs(step));
    unsigned elements = static_cast<unsigned>((width_ - 1) * distance + 1);
    if (step == 1 || distance > kMaxSpanStride || elements > kMaxSpanElements)
      return std::nullopt;
    StridedSpan span{firstLane(pointer), elements, {}, static_cast<unsigned>(distance)};
    if (step < 0) // lane width - 1 has the lowest address
      span.base = builder_.CreateGEP(type, span.base, builder_.getInt64(step * (width_ - 1)));
    for (unsigned i = 0; i < width_; ++i)
      span.positions.push_back(static_cast<int>(step > 0 ? i * distance : (width_ - 1 - i) * distance));
    return span;
  }

  /// The mask of a span's elements: each lane's element as the lane's
  /// `mask` (every lane when null), its holes off.
  llvm::Value *spanMask(const StridedSpan &span, llvm::Value *mask) {
    llvm::SmallVector<int, 64> select(span.elements, static_cast<int>(width_)); // a false element
    for (unsigned i = 0; i < width_; ++i)
      select[span.positions[i]] = static_cast<int>(i);
    llvm::Value *lanes = mask ? mask : llvm::Constant::getAllOnesValue(vectorOf(builder_.getInt1Ty()));
    return builder_.CreateShuffleVector(lanes, llvm::Constant::getNullValue(lanes->getType()), select);
  }

  /// A gather's or scatter's alignment: each element's own.
  llvm::Align elementAlign(llvm::Align access, llvm::Type *type) {
    return llvm::commonAlignment(access, source_.getDataLayout().getTypeStoreSize(type->getScalarType()));
  }

  void visitLoad(llvm::LoadInst &load) {
    llvm::Type *type = vectorOf(load.getType());
    llvm::Value *mask = elementMask(load.getType());
    llvm::Value *pointer = load.getPointerOperand();
    llvm::Value *result;
    if (isConsecutive(pointer, load.getType())) {
      llvm::Value *first = firstLane(pointer);
      if (mask)
        result = builder_.CreateMaskedLoad(type, first, load.getAlign(), mask);
      else
        result = builder_.CreateAlignedLoad(type, first, load.getAlign());
      count(Form::Vector);
    } else if (std::optional<StridedSpan> span = stridedSpan(pointer, load.getType())) {
      // One load of the span (its holes too when every lane loads: they lie
      // between addresses of one object) and a shuffle.
      auto *spanType = llvm::FixedVectorType::get(load.getType(), span->elements);
      llvm::Align align = elementAlign(load.getAlign(), load.getType());
      llvm::Value *whole = mask ? static_cast<llvm::Value *>(
                                      builder_.CreateMaskedLoad(spanType, span->base, align, spanMask(*span, mask)))
                                : builder_.CreateAlignedLoad(spanType, span->base, align);
      result = builder_.CreateShuffleVector(whole, span->positions);
      count(Form::Vector, span->accesses);
    } else {
      result = builder_.CreateMaskedGather(type, elementPointers(pointer, load.getType()),
                                           elementAlign(load.getAlign(), load.getType()), mask);
      count(streamsAlongLoop(pointer, load.getType()) ? Form::StreamGathered : Form::Gathered);
    }
    result->setName(load.getName());
    vectors_[&load] = result;
  }

  void visitStore(llvm::StoreInst &store) {
    llvm::Type *type = store.getValueOperand()->getType();
    llvm::Value *mask = elementMask(type);
    llvm::Value *pointer = store.getPointerOperand();
    llvm::Value *value = packed(store.getValueOperand());
    if (isVarying(pointer) && isConsecutive(pointer, type)) {
      llvm::Value *first = firstLane(pointer);
      if (mask)
        builder_.CreateMaskedStore(value, first, store.getAlign(), mask);
      else
        builder_.CreateAlignedStore(value, first, store.getAlign());
      count(Form::Vector);
    } else if (std::optional<StridedSpan> span = stridedSpan(pointer, type)) {
      // The lanes' elements spread over the span, stored under a mask that
      // leaves its holes alone.
      llvm::SmallVector<int, 64> spread(span->elements, llvm::PoisonMaskElem);
      for (unsigned i = 0; i < width_; ++i)
        spread[span->positions[i]] = static_cast<int>(i);
      builder_.CreateMaskedStore(builder_.CreateShuffleVector(value, spread), span->base,
                                 elementAlign(store.getAlign(), type), spanMask(*span, mask));
      count(Form::Vector, span->accesses);
    } else {
      // Lanes that store to one address store in lane order: the last
      // active lane's value stays, as if its work-item ran last.
      builder_.CreateMaskedScatter(value, elementPointers(pointer, type), elementAlign(store.getAlign(), type), mask);
      count(Form::Gathered);
    }
  }

  /// extractelement, insertelement and shufflevector with constant
  /// positions on values of vector type: one shuffle of the lane-major
  /// vectors. False for positions that differ between lanes.
  bool widenVectorShuffle(llvm::Instruction &instruction) {
    llvm::SmallVector<int, 64> mask;
    llvm::Value *result = nullptr;
    if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction)) {
      auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
      unsigned elements = elementsOf(extract->getVectorOperandType());
      if (!index || index->getZExtValue() >= elements)
        return false;
      for (unsigned i = 0; i < width_; ++i)
        mask.push_back(static_cast<int>(i * elements + index->getZExtValue()));
      result = builder_.CreateShuffleVector(packed(extract->getVectorOperand()), mask);
    } else if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction)) {
      auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
      unsigned elements = elementsOf(insert->getType());
      if (!index || index->getZExtValue() >= elements)
        return false;
      // The new element of each lane at its position, then the rest.
      unsigned position = index->getZExtValue();
      llvm::SmallVector<int, 64> spread;
      for (unsigned i = 0; i < width_; ++i)
        for (unsigned e = 0; e < elements; ++e) {
          spread.push_back(e == position ? static_cast<int>(i) : -1);
          mask.push_back(static_cast<int>(e == position ? width_ * elements + i * elements + e : i * elements + e));
        }
      llvm::Value *element = builder_.CreateShuffleVector(packed(insert->getOperand(1)), spread);
      result = builder_.CreateShuffleVector(packed(insert->getOperand(0)), element, mask);
    } else if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
      unsigned in = elementsOf(shuffle->getOperand(0)->getType());
      unsigned out = elementsOf(shuffle->getType());
      for (unsigned i = 0; i < width_; ++i)
        for (unsigned m = 0; m < out; ++m) {
          int from = shuffle->getMaskValue(m);
          if (from < 0)
            mask.push_back(-1);
          else if (static_cast<unsigned>(from) < in)
            mask.push_back(static_cast<int>(i * in + from));
          else
            mask.push_back(static_cast<int>(width_ * in + i * in + (from - in)));
        }
      result = builder_.CreateShuffleVector(packed(shuffle->getOperand(0)), packed(shuffle->getOperand(1)), mask);
    } else {
      return false;
    }
    result->setName(instruction.getName());
    vectors_[&instruction] = result;
    count(Form::Vector);
    return true;
  }

  static bool isElementwise(const llvm::Instruction &instruction) {
    return llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst,
                     llvm::FreezeInst, llvm::GetElementPtrInst>(instruction);
  }

  void widenElementwise(llvm::Instruction &instruction) {
    bool scalarTypes =
        isPackable(instruction.getType()) &&
        llvm::all_of(instruction.operands(), [](llvm::Value *operand) { return isPackable(operand->getType()); }) &&
        // Vector GEPs are not OpenCL C; casts between vectors and scalars
        // other than bitcasts would need each element's lane.
        !(llvm::isa<llvm::GetElementPtrInst>(instruction) && instruction.getType()->isVectorTy()) &&
        (llvm::isa<llvm::BitCastInst>(instruction) || llvm::all_of(instruction.operands(), [&](llvm::Value *operand) {
           return llvm::isa<llvm::SelectInst>(instruction) ||
                  elementsOf(operand->getType()) == elementsOf(instruction.getType());
         }));
    if (!scalarTypes) {
      scalarize(instruction);
      return;
    }
    // A select's uniform condition and a GEP's uniform operands may stay
    // scalar; LLVM splats them.
    bool mixedAllowed = llvm::isa<llvm::SelectInst, llvm::GetElementPtrInst>(instruction);
    llvm::Instruction *copy = instruction.clone();
    for (unsigned i = 0; i < copy->getNumOperands(); ++i) {
      llvm::Value *operand = instruction.getOperand(i);
      bool keepScalar = mixedAllowed && !isVarying(operand) &&
                        (llvm::isa<llvm::GetElementPtrInst>(instruction) ||
                         (i == 0 && !operand->getType()->isVectorTy())); // a vector condition needs every lane
      llvm::Value *widened = keepScalar ? scalar(operand) : packed(operand);
      // A select of vectors on a scalar condition: the lane's condition for
      // each of its elements.
      if (!keepScalar && llvm::isa<llvm::SelectInst>(instruction) && i == 0 && !operand->getType()->isVectorTy())
        widened = repeatLanes(widened, elementsOf(instruction.getType()));
      copy->setOperand(i, widened);
    }
    copy->mutateType(vectorOf(instruction.getType()));
    copy->setDebugLoc({});
    builder_.Insert(copy, instruction.getName());
    vectors_[&instruction] = copy;
    count(Form::Vector);
  }

  /// An intrinsic with a vector form of the same meaning (fma, sqrt, fabs,
  /// min/max, bit counts, ...), called once for all lanes.
  bool widenIntrinsic(llvm::CallInst &call) {
    llvm::Intrinsic::ID id = call.getIntrinsicID();
    if (id == llvm::Intrinsic::not_intrinsic || !llvm::isTriviallyVectorizable(id) || !isPackable(call.getType()))
      return false;
    llvm::SmallVector<llvm::Value *, 4> arguments;
    llvm::SmallVector<llvm::Type *, 4> overloads;
    if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, -1, nullptr))
      overloads.push_back(vectorOf(call.getType()));
    for (unsigned i = 0; i < call.arg_size(); ++i) {
      llvm::Value *argument = call.getArgOperand(i);
      if (llvm::isVectorIntrinsicWithScalarOpAtArg(id, i, nullptr)) {
        if (isVarying(argument))
          return false;
        arguments.push_back(scalar(argument));
      } else {
        if (!isPackable(argument->getType()))
          return false;
        arguments.push_back(packed(argument));
      }
      if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, i, nullptr))
        overloads.push_back(arguments.back()->getType());
    }
    llvm::Function *declaration = llvm::Intrinsic::getOrInsertDeclaration(source_.getParent(), id, overloads);
    llvm::CallInst *vector = builder_.CreateCall(declaration, arguments, call.getName());
    if (llvm::isa<llvm::FPMathOperator>(vector))
      vector->copyFastMathFlags(&call);
    vectors_[&call] = vector;
    count(Form::Vector);
    return true;
  }

  /// Runs `instruction` once per lane, under the lane's mask when it may
  /// have side effects or fault and not every lane runs the block.
  void scalarize(llvm::Instruction &instruction) {
    bool mayFault = instruction.mayHaveSideEffects() || instruction.mayReadFromMemory();
    llvm::Value *mask = mayFault ? blockMask() : nullptr;
    Lanes lanes;
    for (unsigned i = 0; i < width_; ++i) {
      auto clone = [&]() -> llvm::Value * {
        return insertClone(instruction, [&](llvm::Value *operand) {
          return llvm::isa<llvm::BasicBlock>(operand) ? scalar(operand) : lane(operand, i);
        });
      };
      if (mask && mayFault)
        lanes.push_back(guarded(builder_.CreateExtractElement(mask, i), instruction.getType(), clone));
      else
        lanes.push_back(clone());
    }
    if (!instruction.getType()->isVoidTy())
      lanes_[&instruction] = std::move(lanes);
    count(Form::Scalarized);
    if (instruction.getType()->isVectorTy() ||
        llvm::any_of(instruction.operands(), [](llvm::Value *operand) { return operand->getType()->isVectorTy(); }))
      ++result_.scalarizedVectorInstructions;
  }

  llvm::Function &source_;
  llvm::Argument &laneId_;
  WorkItemUniformity &uniformity_;
  const BlockMasks &masks_;
  unsigned width_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  llvm::Function *target_ = nullptr;
  llvm::BasicBlock *current_ = nullptr; ///< the source block being widened
  llvm::DenseMap<const llvm::Value *, llvm::Value *> scalars_;
  llvm::DenseMap<const llvm::Value *, llvm::Value *> vectors_;
  llvm::DenseMap<const llvm::Value *, Lanes> lanes_;
  /// Lane 0's copies of evenly stepping varying phis (firstLane).
  llvm::DenseMap<const llvm::Value *, llvm::Value *> firstLanePhis_;
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> first_; ///< where a source block starts
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> last_;  ///< where it ends
  llvm::SmallVector<llvm::PHINode *, 16> phis_;
  /// While the body of a masked block is being widened: where it may be
  /// skipped from and what it holds.
  std::optional<Skip> skip_;
  WidenedWorkItem result_;
  llvm::DominatorTree dominators_;
  llvm::LoopInfo loops_;
  llvm::TargetLibraryInfoImpl libraryInfoImpl_;
  llvm::TargetLibraryInfo libraryInfo_{libraryInfoImpl_};
  llvm::AssumptionCache assumptions_;
  llvm::ScalarEvolution evolution_;
};

} // namespace

llvm::Expected<WidenedWorkItem> widenWorkItem(llvm::Function &scalar, llvm::Argument &laneId,
                                              WorkItemUniformity &uniformity, const BlockMasks &masks, unsigned width,
                                              const llvm::Twine &name) {
  return Widener(scalar, laneId, uniformity, masks, width).run(name);
}

} // namespace compiler
