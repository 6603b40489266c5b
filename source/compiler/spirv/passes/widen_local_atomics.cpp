// In a kernel with 64-bit atomics on __local memory, the emitter keeps that
// kernel's __local memory as 64-bit words (word_memory.cpp): SPIR-V for
// Vulkan cannot view Workgroup memory at two widths without
// workgroup_memory_explicit_layout, which lavapipe lacks. A 32-bit atomic
// there has no word of its own any more, so each becomes a compare-exchange
// loop on the 64-bit word that holds it and changes only its half; and, or
// and xor become one 64-bit operation whose other half leaves the word's
// other half as it is; an atomic load reads the whole word and takes its
// half. Kernels without 64-bit __local atomics are left alone.
#include "passes/vulkan_passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#include <optional>

namespace compiler::spirv {
namespace {

/// The value type of an atomic access to __local memory.
llvm::Type *localAtomicType(const llvm::Instruction &instruction) {
  const llvm::Value *pointer = nullptr;
  llvm::Type *valueType = nullptr;
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
    pointer = rmw->getPointerOperand();
    valueType = rmw->getType();
  } else if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
    pointer = exchange->getPointerOperand();
    valueType = exchange->getNewValOperand()->getType();
  } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction); load && load->isAtomic()) {
    pointer = load->getPointerOperand();
    valueType = load->getType();
  } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction); store && store->isAtomic()) {
    pointer = store->getPointerOperand();
    valueType = store->getValueOperand()->getType();
  }
  if (!pointer || pointer->getType()->getPointerAddressSpace() != kLocalAddressSpace)
    return nullptr;
  return valueType;
}

/// Where a 32-bit value lies in its 64-bit word.
struct Half {
  llvm::Value *word;  ///< the 8-byte-aligned word holding it
  llvm::Value *shift; ///< 0 or 32 (i64)
};

Half halfOf(llvm::IRBuilder<> &builder, llvm::Value *pointer) {
  llvm::Type *offsetType = builder.getInt32Ty(); // __local pointers are 32-bit offsets
  llvm::Value *inWord = builder.CreateAnd(builder.CreatePtrToInt(pointer, offsetType), 4);
  llvm::Value *word = builder.CreateGEP(builder.getInt8Ty(), pointer, builder.CreateNeg(inWord), "word");
  llvm::Value *shift = builder.CreateZExt(builder.CreateShl(inWord, 3), builder.getInt64Ty());
  return {word, shift};
}

llvm::Value *extractHalf(llvm::IRBuilder<> &builder, llvm::Value *word, const Half &half) {
  return builder.CreateTrunc(builder.CreateLShr(word, half.shift), builder.getInt32Ty());
}

llvm::Value *insertHalf(llvm::IRBuilder<> &builder, llvm::Value *word, llvm::Value *value, const Half &half) {
  llvm::Value *mask = builder.CreateShl(builder.getInt64(0xffffffffu), half.shift);
  llvm::Value *others = builder.CreateAnd(word, builder.CreateNot(mask));
  return builder.CreateOr(others, builder.CreateShl(builder.CreateZExt(value, builder.getInt64Ty()), half.shift));
}

/// A compare-exchange loop on `half`'s word, at `instruction`. `desired`
/// gives the new word from the word seen, and may add instructions (in the
/// loop). Returns the loop's final seen word; the builder is left at the
/// start of the code after the loop.
llvm::Value *compareExchangeLoop(llvm::IRBuilder<> &builder, llvm::Instruction &instruction, const Half &half,
                                 llvm::AtomicOrdering ordering, llvm::SyncScope::ID scope,
                                 llvm::function_ref<llvm::Value *(llvm::Value *seen)> desired) {
  // A compare-exchange is at least monotonic (an unordered store is not).
  if (ordering == llvm::AtomicOrdering::Unordered)
    ordering = llvm::AtomicOrdering::Monotonic;
  llvm::LoadInst *initial = builder.CreateAlignedLoad(builder.getInt64Ty(), half.word, llvm::Align(8));
  initial->setAtomic(llvm::AtomicOrdering::Monotonic, scope);
  llvm::BasicBlock *before = instruction.getParent();
  llvm::BasicBlock *after = before->splitBasicBlock(&instruction, "atomic.done");
  llvm::BasicBlock *loop =
      llvm::BasicBlock::Create(instruction.getContext(), "atomic.retry", before->getParent(), after);
  before->getTerminator()->setSuccessor(0, loop);
  builder.SetInsertPoint(loop);
  llvm::PHINode *seen = builder.CreatePHI(builder.getInt64Ty(), 2);
  seen->addIncoming(initial, before);
  llvm::Value *next = desired(seen);
  llvm::AtomicCmpXchgInst *exchange =
      builder.CreateAtomicCmpXchg(half.word, seen, next, llvm::Align(8), ordering,
                                  llvm::AtomicCmpXchgInst::getStrongestFailureOrdering(ordering), scope);
  llvm::Value *current = builder.CreateExtractValue(exchange, 0);
  seen->addIncoming(current, loop);
  builder.CreateCondBr(builder.CreateExtractValue(exchange, 1), after, loop);
  builder.SetInsertPoint(&instruction);
  return seen;
}

void widen(llvm::Instruction &instruction) {
  llvm::IRBuilder<> builder(&instruction);
  llvm::Type *int32 = builder.getInt32Ty();
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    Half half = halfOf(builder, load->getPointerOperand());
    llvm::LoadInst *word = builder.CreateAlignedLoad(builder.getInt64Ty(), half.word, llvm::Align(8));
    word->setAtomic(load->getOrdering(), load->getSyncScopeID());
    load->replaceAllUsesWith(builder.CreateBitCast(extractHalf(builder, word, half), load->getType()));
  } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
    Half half = halfOf(builder, store->getPointerOperand());
    llvm::Value *value = builder.CreateBitCast(store->getValueOperand(), int32);
    compareExchangeLoop(builder, *store, half, store->getOrdering(), store->getSyncScopeID(),
                        [&](llvm::Value *seen) { return insertHalf(builder, seen, value, half); });
  } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction);
             rmw &&
             (rmw->getOperation() == llvm::AtomicRMWInst::And || rmw->getOperation() == llvm::AtomicRMWInst::Or ||
              rmw->getOperation() == llvm::AtomicRMWInst::Xor)) {
    Half half = halfOf(builder, rmw->getPointerOperand());
    // Ones (and) or zeros (or, xor) in the other half keep it.
    llvm::Value *operand =
        builder.CreateShl(builder.CreateZExt(rmw->getValOperand(), builder.getInt64Ty()), half.shift);
    if (rmw->getOperation() == llvm::AtomicRMWInst::And)
      operand =
          builder.CreateOr(operand, builder.CreateNot(builder.CreateShl(builder.getInt64(0xffffffffu), half.shift)));
    llvm::Value *word = builder.CreateAtomicRMW(rmw->getOperation(), half.word, operand, llvm::Align(8),
                                                rmw->getOrdering(), rmw->getSyncScopeID());
    rmw->replaceAllUsesWith(extractHalf(builder, word, half));
  } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
    Half half = halfOf(builder, rmw->getPointerOperand());
    // Only exchange has floating-point operands here (OpenCL 1.0's
    // atomic_xchg of a float): it exchanges bits.
    llvm::Value *operand = rmw->getValOperand();
    if (rmw->getOperation() == llvm::AtomicRMWInst::Xchg)
      operand = builder.CreateBitCast(operand, int32);
    llvm::Value *old = nullptr;
    compareExchangeLoop(builder, *rmw, half, rmw->getOrdering(), rmw->getSyncScopeID(), [&](llvm::Value *seen) {
      old = extractHalf(builder, seen, half);
      llvm::Value *previous = builder.CreateBitCast(old, operand->getType());
      llvm::Value *updated = llvm::buildAtomicRMWValue(rmw->getOperation(), builder, previous, operand);
      return insertHalf(builder, seen, builder.CreateBitCast(updated, int32), half);
    });
    rmw->replaceAllUsesWith(builder.CreateBitCast(old, rmw->getType()));
  } else {
    auto *exchange = llvm::cast<llvm::AtomicCmpXchgInst>(&instruction);
    Half half = halfOf(builder, exchange->getPointerOperand());
    llvm::Value *old = nullptr, *matched = nullptr;
    // A mismatch writes back the word seen: the exchange then succeeds only
    // if the word was current, so `old` is an atomic read of the half.
    compareExchangeLoop(builder, *exchange, half, exchange->getSuccessOrdering(), exchange->getSyncScopeID(),
                        [&](llvm::Value *seen) {
                          old = extractHalf(builder, seen, half);
                          matched = builder.CreateICmpEQ(old, exchange->getCompareOperand());
                          llvm::Value *replaced = insertHalf(builder, seen, exchange->getNewValOperand(), half);
                          return builder.CreateSelect(matched, replaced, seen);
                        });
    for (llvm::User *user : llvm::make_early_inc_range(exchange->users()))
      if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(user); extract && extract->getNumIndices() == 1) {
        extract->replaceAllUsesWith(extract->getIndices()[0] == 0 ? old : matched);
        extract->eraseFromParent();
      }
    if (!exchange->use_empty()) {
      llvm::Value *result = llvm::PoisonValue::get(exchange->getType());
      result = builder.CreateInsertValue(result, old, 0);
      result = builder.CreateInsertValue(result, matched, 1);
      exchange->replaceAllUsesWith(result);
    }
  }
  instruction.eraseFromParent();
}

} // namespace

bool usesLocalInt64Atomics(const llvm::Function &function) {
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    if (llvm::Type *type = localAtomicType(instruction); type && type->getPrimitiveSizeInBits() == 64)
      return true;
  return false;
}

llvm::PreservedAnalyses WidenLocalAtomicsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    if (function.isDeclaration() || !usesLocalInt64Atomics(function))
      continue;
    llvm::SmallVector<llvm::Instruction *, 8> narrow;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (llvm::Type *type = localAtomicType(instruction); type && type->getPrimitiveSizeInBits() == 32)
        narrow.push_back(&instruction);
    for (llvm::Instruction *instruction : narrow)
      widen(*instruction);
    changed |= !narrow.empty();
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
