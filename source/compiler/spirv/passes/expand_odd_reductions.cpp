// Vector reductions that ExpandReductionsPass leaves (it expands integer and
// min/max reductions of power-of-two widths only: any() and all() of a
// char3 reach the emitter as llvm.vector.reduce.or.v3i8) become a chain of
// the reduction's binary operation over the extracted elements.
#include "passes/vulkan_passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/ErrorHandling.h"

namespace compiler::spirv {
namespace {

/// Whether this pass expands reduction `id` (ordered fadd/fmul have a start
/// value and ExpandReductionsPass expands them at every width).
bool isExpanded(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::vector_reduce_add:
  case llvm::Intrinsic::vector_reduce_mul:
  case llvm::Intrinsic::vector_reduce_and:
  case llvm::Intrinsic::vector_reduce_or:
  case llvm::Intrinsic::vector_reduce_xor:
  case llvm::Intrinsic::vector_reduce_smax:
  case llvm::Intrinsic::vector_reduce_smin:
  case llvm::Intrinsic::vector_reduce_umax:
  case llvm::Intrinsic::vector_reduce_umin:
  case llvm::Intrinsic::vector_reduce_fmax:
  case llvm::Intrinsic::vector_reduce_fmin:
    return true;
  default:
    return false;
  }
}

/// Combines two elements as reduction `id` does.
llvm::Value *combine(llvm::IRBuilder<> &builder, llvm::Intrinsic::ID id, llvm::Value *left, llvm::Value *right) {
  switch (id) {
  case llvm::Intrinsic::vector_reduce_add:
    return builder.CreateAdd(left, right);
  case llvm::Intrinsic::vector_reduce_mul:
    return builder.CreateMul(left, right);
  case llvm::Intrinsic::vector_reduce_and:
    return builder.CreateAnd(left, right);
  case llvm::Intrinsic::vector_reduce_or:
    return builder.CreateOr(left, right);
  case llvm::Intrinsic::vector_reduce_xor:
    return builder.CreateXor(left, right);
  case llvm::Intrinsic::vector_reduce_smax:
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::smax, left, right);
  case llvm::Intrinsic::vector_reduce_smin:
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::smin, left, right);
  case llvm::Intrinsic::vector_reduce_umax:
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::umax, left, right);
  case llvm::Intrinsic::vector_reduce_umin:
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::umin, left, right);
  case llvm::Intrinsic::vector_reduce_fmax:
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, left, right);
  case llvm::Intrinsic::vector_reduce_fmin:
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, left, right);
  default:
    llvm_unreachable("not an expanded reduction");
  }
}

} // namespace

llvm::PreservedAnalyses ExpandOddReductionsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    llvm::SmallVector<llvm::IntrinsicInst *, 4> reductions;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
          intrinsic && isExpanded(intrinsic->getIntrinsicID()))
        reductions.push_back(intrinsic);
    for (llvm::IntrinsicInst *reduction : reductions) {
      llvm::IRBuilder<> builder(reduction);
      llvm::Value *vector = reduction->getArgOperand(0);
      unsigned count = llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements();
      llvm::Value *result = builder.CreateExtractElement(vector, uint64_t(0));
      for (unsigned i = 1; i < count; ++i)
        result =
            combine(builder, reduction->getIntrinsicID(), result, builder.CreateExtractElement(vector, uint64_t(i)));
      reduction->replaceAllUsesWith(result);
      reduction->eraseFromParent();
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
