// Integer division and remainder that never trap (see passes.h).
#include "compiler/passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler {
namespace {

bool isSignedDivision(unsigned opcode) {
  return opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::SRem;
}

/// Whether `divisor` is a constant with no element equal to 0 (or to -1 for
/// a signed division): such a division cannot trap.
bool isSafeConstant(llvm::Value *divisor, bool isSigned) {
  auto safe = [&](llvm::Constant *element) {
    auto *value = llvm::dyn_cast_or_null<llvm::ConstantInt>(element);
    return value && !value->isZero() && !(isSigned && value->isMinusOne());
  };
  auto *constant = llvm::dyn_cast<llvm::Constant>(divisor);
  if (!constant)
    return false;
  if (auto *vectorType = llvm::dyn_cast<llvm::FixedVectorType>(constant->getType())) {
    for (unsigned i = 0; i < vectorType->getNumElements(); ++i)
      if (!safe(constant->getAggregateElement(i)))
        return false;
    return true;
  }
  return safe(constant);
}

} // namespace

llvm::PreservedAnalyses GuardIntegerDivisionPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<llvm::BinaryOperator *, 16> divisions;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
        unsigned opcode = binary->getOpcode();
        if ((opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::UDiv ||
             opcode == llvm::Instruction::SRem || opcode == llvm::Instruction::URem) &&
            !isSafeConstant(binary->getOperand(1), isSignedDivision(opcode)))
          divisions.push_back(binary);
      }
  for (llvm::BinaryOperator *division : divisions) {
    llvm::IRBuilder<> builder(division);
    llvm::Value *dividend = division->getOperand(0);
    llvm::Value *divisor = division->getOperand(1);
    llvm::Type *type = divisor->getType();
    llvm::Value *one = llvm::ConstantInt::get(type, 1);
    llvm::Value *replace = builder.CreateICmpEQ(divisor, llvm::Constant::getNullValue(type));
    if (isSignedDivision(division->getOpcode())) {
      unsigned bits = type->getScalarSizeInBits();
      llvm::Value *overflow = builder.CreateAnd(
          builder.CreateICmpEQ(dividend, llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(bits))),
          builder.CreateICmpEQ(divisor, llvm::Constant::getAllOnesValue(type)));
      replace = builder.CreateOr(replace, overflow);
    }
    division->setOperand(1, builder.CreateSelect(replace, one, divisor));
  }
  return divisions.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace compiler
