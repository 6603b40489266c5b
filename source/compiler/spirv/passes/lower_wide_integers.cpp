// 128-bit integers (mul_hi of 64-bit values is a multiplication of two
// extended operands, shifted and truncated) as pairs of 64-bit halves:
// Vulkan SPIR-V has no wider integer than 64 bits. A value whose uses go
// beyond extensions, multiplications, additions, constant shifts,
// comparisons and truncations stays and fails the build in the emitter, naming the type.
#include "passes/vulkan_passes.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

namespace compiler::spirv {

namespace {

struct Halves {
  llvm::Value *hi = nullptr, *lo = nullptr;
  /// Only for a multiplication's operand: the 128-bit value is the 64-bit
  /// `lo` sign-extended (hi is then its sign), else zero-extended.
  bool signExtended = false;
};

class WideLowering {
public:
  explicit WideLowering(llvm::Function &function)
      : function_(function), int64_(llvm::Type::getInt64Ty(function.getContext())) {}

  bool run() {
    bool changed = lowerOverflowMultiplications();
    llvm::SmallVector<llvm::Instruction *, 16> wide;
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function_);
    for (llvm::BasicBlock *block : order)
      for (llvm::Instruction &instruction : *block)
        if (isWide(instruction.getType()) ||
            llvm::any_of(instruction.operands(), [](const llvm::Use &operand) { return isWide(operand->getType()); }))
          wide.push_back(&instruction);
    for (llvm::Instruction *instruction : wide) {
      llvm::IRBuilder<> builder(instruction);
      if (auto *trunc = llvm::dyn_cast<llvm::TruncInst>(instruction)) {
        std::optional<Halves> source = halvesOf(trunc->getOperand(0), builder);
        if (!source)
          continue;
        trunc->replaceAllUsesWith(builder.CreateZExtOrTrunc(source->lo, trunc->getType()));
        changed = true;
        continue;
      }
      if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(instruction)) {
        if (llvm::Value *result = lowerCompare(*compare, builder)) {
          compare->replaceAllUsesWith(result);
          changed = true;
        }
        continue;
      }
      if (isWide(instruction->getType()))
        if (std::optional<Halves> halves = lower(*instruction, builder))
          lowered_[instruction] = *halves;
    }
    // The wide instructions are dead once every truncation is replaced.
    for (llvm::Instruction *instruction : llvm::reverse(wide))
      if (instruction->use_empty() && !instruction->mayHaveSideEffects())
        instruction->eraseFromParent();
    for (llvm::BasicBlock &block : function_)
      llvm::SimplifyInstructionsInBlock(&block);
    return changed;
  }

private:
  /// llvm.[us]mul.with.overflow (InstCombine's form of `mul_hi(a, b) != 0`):
  /// the product and whether it fits, from the full product.
  bool lowerOverflowMultiplications() {
    llvm::SmallVector<llvm::IntrinsicInst *, 4> calls;
    for (llvm::BasicBlock &block : function_)
      for (llvm::Instruction &instruction : block)
        if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
            call &&
            (call->getIntrinsicID() == llvm::Intrinsic::umul_with_overflow ||
             call->getIntrinsicID() == llvm::Intrinsic::smul_with_overflow) &&
            !call->getArgOperand(0)->getType()->isVectorTy() &&
            call->getArgOperand(0)->getType()->getIntegerBitWidth() <= 64 &&
            llvm::all_of(call->users(), [](llvm::User *user) { return llvm::isa<llvm::ExtractValueInst>(user); }))
          calls.push_back(call);
    for (llvm::IntrinsicInst *call : calls) {
      llvm::IRBuilder<> builder(call);
      bool isSigned = call->getIntrinsicID() == llvm::Intrinsic::smul_with_overflow;
      llvm::Type *narrow = call->getArgOperand(0)->getType();
      auto extend = [&](llvm::Value *v) {
        return isSigned ? builder.CreateSExt(v, int64_) : builder.CreateZExt(v, int64_);
      };
      Halves a{nullptr, extend(call->getArgOperand(0)), isSigned}, b{nullptr, extend(call->getArgOperand(1)), isSigned};
      a.hi = isSigned ? builder.CreateAShr(a.lo, 63) : llvm::ConstantInt::get(int64_, 0);
      b.hi = isSigned ? builder.CreateAShr(b.lo, 63) : llvm::ConstantInt::get(int64_, 0);
      Halves product = *multiply(a, b, builder);
      llvm::Value *result = builder.CreateTrunc(product.lo, narrow);
      // It fits when the full product is the narrow result extended again.
      llvm::Value *back = extend(result);
      llvm::Value *fits = builder.CreateICmpEQ(back, product.lo);
      fits = builder.CreateAnd(fits, builder.CreateICmpEQ(product.hi, isSigned ? builder.CreateAShr(product.lo, 63)
                                                                               : llvm::ConstantInt::get(int64_, 0)));
      llvm::Value *overflow = builder.CreateNot(fits);
      for (llvm::User *user : llvm::make_early_inc_range(call->users())) {
        auto *extract = llvm::cast<llvm::ExtractValueInst>(user);
        extract->replaceAllUsesWith(extract->getIndices()[0] == 0 ? result : overflow);
        extract->eraseFromParent();
      }
      call->eraseFromParent();
    }
    return !calls.empty();
  }

  static bool isWide(llvm::Type *type) { return type->isIntegerTy() && type->getIntegerBitWidth() > 64; }

  std::optional<Halves> halvesOf(llvm::Value *value, llvm::IRBuilder<> &builder) {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
      const llvm::APInt &bits = constant->getValue();
      if (bits.getBitWidth() != 128)
        return std::nullopt;
      Halves halves{llvm::ConstantInt::get(int64_, bits.extractBits(64, 64)),
                    llvm::ConstantInt::get(int64_, bits.extractBits(64, 0))};
      halves.signExtended = bits.isSignedIntN(64);
      return halves;
    }
    auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
    if (!instruction)
      return std::nullopt;
    if (auto found = lowered_.find(instruction); found != lowered_.end())
      return found->second;
    if (auto *cast = llvm::dyn_cast<llvm::CastInst>(instruction);
        cast && (llvm::isa<llvm::ZExtInst>(cast) || llvm::isa<llvm::SExtInst>(cast)) &&
        cast->getType()->getIntegerBitWidth() == 128 && cast->getSrcTy()->getIntegerBitWidth() <= 64) {
      bool isSigned = llvm::isa<llvm::SExtInst>(cast);
      llvm::Value *lo =
          isSigned ? builder.CreateSExt(cast->getOperand(0), int64_) : builder.CreateZExt(cast->getOperand(0), int64_);
      Halves halves{isSigned ? builder.CreateAShr(lo, 63) : llvm::ConstantInt::get(int64_, 0), lo, isSigned};
      return halves;
    }
    return std::nullopt;
  }

  std::optional<Halves> lower(llvm::Instruction &instruction, llvm::IRBuilder<> &builder) {
    if (instruction.getType()->getIntegerBitWidth() != 128)
      return std::nullopt;
    if (llvm::isa<llvm::ZExtInst>(instruction) || llvm::isa<llvm::SExtInst>(instruction))
      return halvesOf(&instruction, builder);
    auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
    if (!binary)
      return std::nullopt;
    std::optional<Halves> left = halvesOf(binary->getOperand(0), builder);
    if (!left)
      return std::nullopt;
    if (binary->isShift()) {
      auto *amount = llvm::dyn_cast<llvm::ConstantInt>(binary->getOperand(1));
      if (!amount || amount->getZExtValue() >= 128)
        return std::nullopt;
      return shift(binary->getOpcode(), *left, unsigned(amount->getZExtValue()), builder);
    }
    std::optional<Halves> right = halvesOf(binary->getOperand(1), builder);
    if (!right)
      return std::nullopt;
    switch (binary->getOpcode()) {
    case llvm::Instruction::Mul:
      return multiply(*left, *right, builder);
    case llvm::Instruction::Add: {
      llvm::Value *lo = builder.CreateAdd(left->lo, right->lo);
      llvm::Value *carry = builder.CreateZExt(builder.CreateICmpULT(lo, left->lo), int64_);
      return Halves{builder.CreateAdd(builder.CreateAdd(left->hi, right->hi), carry), lo};
    }
    case llvm::Instruction::And:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor: {
      auto opcode = llvm::Instruction::BinaryOps(binary->getOpcode());
      return Halves{builder.CreateBinOp(opcode, left->hi, right->hi), builder.CreateBinOp(opcode, left->lo, right->lo)};
    }
    default:
      return std::nullopt;
    }
  }

  /// A comparison of two 128-bit values from their halves: the high
  /// halves decide unless they are equal (signed comparisons compare the
  /// high halves signed and the low halves unsigned).
  llvm::Value *lowerCompare(llvm::ICmpInst &compare, llvm::IRBuilder<> &builder) {
    if (compare.getOperand(0)->getType()->getIntegerBitWidth() != 128)
      return nullptr;
    std::optional<Halves> left = halvesOf(compare.getOperand(0), builder);
    std::optional<Halves> right = halvesOf(compare.getOperand(1), builder);
    if (!left || !right)
      return nullptr;
    llvm::CmpInst::Predicate predicate = compare.getPredicate();
    llvm::Value *highEqual = builder.CreateICmpEQ(left->hi, right->hi);
    if (compare.isEquality()) {
      llvm::Value *equal = builder.CreateAnd(highEqual, builder.CreateICmpEQ(left->lo, right->lo));
      return predicate == llvm::CmpInst::ICMP_EQ ? equal : builder.CreateNot(equal);
    }
    llvm::Value *high = builder.CreateICmp(predicate, left->hi, right->hi);
    llvm::Value *low = builder.CreateICmp(llvm::ICmpInst::getUnsignedPredicate(predicate), left->lo, right->lo);
    return builder.CreateSelect(highEqual, low, high);
  }

  /// The full 128-bit product: the unsigned product of the low halves from
  /// 32-bit pieces, less 2^64 * (the other operand) for each sign-extended
  /// negative operand. Only operands that are 64-bit values extended.
  std::optional<Halves> multiply(const Halves &a, const Halves &b, llvm::IRBuilder<> &builder) {
    if (!isExtension(a) || !isExtension(b))
      return std::nullopt;
    llvm::Value *mask = llvm::ConstantInt::get(int64_, 0xffffffffu);
    auto low32 = [&](llvm::Value *v) { return builder.CreateAnd(v, mask); };
    auto high32 = [&](llvm::Value *v) { return builder.CreateLShr(v, 32); };
    llvm::Value *a0 = low32(a.lo), *a1 = high32(a.lo), *b0 = low32(b.lo), *b1 = high32(b.lo);
    llvm::Value *p00 = builder.CreateMul(a0, b0), *p01 = builder.CreateMul(a0, b1);
    llvm::Value *p10 = builder.CreateMul(a1, b0), *p11 = builder.CreateMul(a1, b1);
    llvm::Value *middle = builder.CreateAdd(builder.CreateAdd(high32(p00), low32(p01)), low32(p10));
    llvm::Value *lo = builder.CreateOr(builder.CreateShl(middle, 32), low32(p00));
    llvm::Value *hi =
        builder.CreateAdd(builder.CreateAdd(p11, high32(p01)), builder.CreateAdd(high32(p10), high32(middle)));
    llvm::Value *zero = llvm::ConstantInt::get(int64_, 0);
    if (a.signExtended)
      hi = builder.CreateSub(hi, builder.CreateSelect(builder.CreateICmpSLT(a.lo, zero), b.lo, zero));
    if (b.signExtended)
      hi = builder.CreateSub(hi, builder.CreateSelect(builder.CreateICmpSLT(b.lo, zero), a.lo, zero));
    return Halves{hi, lo};
  }

  /// Whether the halves are a 64-bit value extended (hi zero, or its sign).
  bool isExtension(const Halves &halves) {
    if (halves.signExtended)
      return true;
    auto *hi = llvm::dyn_cast<llvm::ConstantInt>(halves.hi);
    return hi && hi->isZero();
  }

  Halves shift(unsigned opcode, const Halves &x, unsigned amount, llvm::IRBuilder<> &builder) {
    if (amount == 0)
      return Halves{x.hi, x.lo};
    llvm::Value *zero = llvm::ConstantInt::get(int64_, 0);
    if (opcode == llvm::Instruction::Shl) {
      if (amount >= 64)
        return Halves{builder.CreateShl(x.lo, amount - 64), zero};
      return Halves{builder.CreateOr(builder.CreateShl(x.hi, amount), builder.CreateLShr(x.lo, 64 - amount)),
                    builder.CreateShl(x.lo, amount)};
    }
    bool arithmetic = opcode == llvm::Instruction::AShr;
    auto shiftRight = [&](llvm::Value *v, unsigned n) {
      return arithmetic ? builder.CreateAShr(v, n) : builder.CreateLShr(v, n);
    };
    llvm::Value *fill = arithmetic ? builder.CreateAShr(x.hi, 63) : zero;
    if (amount >= 64)
      return Halves{fill, shiftRight(x.hi, amount - 64)};
    return Halves{shiftRight(x.hi, amount),
                  builder.CreateOr(builder.CreateLShr(x.lo, amount), builder.CreateShl(x.hi, 64 - amount))};
  }

  llvm::Function &function_;
  llvm::Type *int64_;
  llvm::DenseMap<llvm::Instruction *, Halves> lowered_;
};

} // namespace

llvm::PreservedAnalyses LowerWideIntegersPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      changed |= WideLowering(function).run();
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
