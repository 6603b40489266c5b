// InstCombine writes any()/all() of a vector of comparisons as an integer
// made of the lanes' bits (bitcast <N x i1> to iN) compared with 0 or -1;
// SPIR-V has no iN for such N. Each lane's bit is placed into a 32- or
// 64-bit integer instead, and the equality comparisons use it.
#include "passes/vulkan_passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {

namespace {

bool lower(llvm::BitCastInst &cast) {
  auto *mask = llvm::dyn_cast<llvm::FixedVectorType>(cast.getSrcTy());
  if (!mask || !mask->getElementType()->isIntegerTy(1) || !cast.getType()->isIntegerTy() ||
      mask->getNumElements() > 64)
    return false;
  for (llvm::User *user : cast.users()) {
    auto *compare = llvm::dyn_cast<llvm::ICmpInst>(user);
    if (!compare || !compare->isEquality() || !llvm::isa<llvm::ConstantInt>(compare->getOperand(1)))
      return false;
  }
  unsigned lanes = mask->getNumElements();
  llvm::IRBuilder<> builder(&cast);
  llvm::IntegerType *wide = builder.getIntNTy(lanes <= 32 ? 32 : 64);
  llvm::Value *bits = llvm::ConstantInt::get(wide, 0);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    llvm::Value *bit = builder.CreateZExt(builder.CreateExtractElement(cast.getOperand(0), lane), wide);
    bits = builder.CreateOr(bits, builder.CreateShl(bit, lane));
  }
  for (llvm::User *user : llvm::make_early_inc_range(cast.users())) {
    auto *compare = llvm::cast<llvm::ICmpInst>(user);
    auto *value = llvm::cast<llvm::ConstantInt>(compare->getOperand(1));
    builder.SetInsertPoint(compare);
    compare->replaceAllUsesWith(
        builder.CreateICmp(compare->getPredicate(), bits, llvm::ConstantInt::get(wide, value->getValue().zext(wide->getBitWidth()))));
    compare->eraseFromParent();
  }
  cast.eraseFromParent();
  return true;
}

} // namespace

llvm::PreservedAnalyses LowerMaskBitcastsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    llvm::SmallVector<llvm::BitCastInst *, 4> casts;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction))
        casts.push_back(cast);
    for (llvm::BitCastInst *cast : casts)
      changed |= lower(*cast);
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
