// llvm.memset and llvm.memcpy/memmove of a constant number of aligned
// words, between any of __global, __local and private memory: one load and
// one store per word (the optimiser turns array initialisation and copy
// loops into these).
#include "kernel_emitter.h"
#include "passes/vulkan_passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/SaveAndRestore.h"

namespace compiler::spirv {

Id KernelEmitter::wordAt(llvm::Value *pointer, uint64_t byteOffset, const llvm::Instruction &user, llvm::Error &error,
                         Id stored) {
  if (isGlobalPointer(pointer->getType())) {
    Id address =
        op(spv::Op::OpIAdd, uint64Type(),
           {value(pointer), constant(llvm::ConstantInt::get(llvm::Type::getInt64Ty(user.getContext()), byteOffset))});
    Id wordPointer = op(spv::Op::OpConvertUToPtr,
                        builder_.typePointer(spv::StorageClass::PhysicalStorageBuffer, uint32Type()), {address});
    if (stored) {
      opNoResult(spv::Op::OpStore, {wordPointer, stored, uint32_t(spv::MemoryAccessMask::Aligned), 4});
      return stored;
    }
    return op(spv::Op::OpLoad, uint32Type(), {wordPointer, uint32_t(spv::MemoryAccessMask::Aligned), 4});
  }
  llvm::Value *base = wordMemoryBase(pointer);
  if (!base) {
    error = unsupported(user, "memset/memcpy through this pointer");
    return 0;
  }
  Id offset = op(spv::Op::OpIAdd, uint32Type(), {value(pointer), uint32(uint32_t(byteOffset))});
  llvm::Type *word = llvm::Type::getInt32Ty(user.getContext());
  if (stored) {
    error = storeWordsAt(base, offset, word, stored, user);
    return stored;
  }
  return loadWordsAt(base, offset, word, user, error);
}

llvm::Error KernelEmitter::emitMemoryTransfer(llvm::IntrinsicInst &call) {
  auto *intrinsic = llvm::cast<llvm::MemIntrinsic>(&call);
  // ExpandMemoryIntrinsicsPass made loops of all others but a memmove
  // between address spaces.
  if (!isWordTransfer(*intrinsic))
    return unsupported(call, "'" + call.getCalledFunction()->getName() + "' of a variable, unaligned or large length");
  uint64_t words = llvm::cast<llvm::ConstantInt>(intrinsic->getLength())->getZExtValue() / 4;
  auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(intrinsic);
  llvm::Error error = llvm::Error::success();
  const bool destinationInBounds = call.getMetadata(kPrivateStoreInBounds) != nullptr;
  if (auto *memset = llvm::dyn_cast<llvm::MemSetInst>(intrinsic)) {
    auto *byte = llvm::cast<llvm::ConstantInt>(memset->getValue()); // isWordTransfer
    Id pattern = uint32(uint32_t(byte->getZExtValue() & 0xff) * 0x01010101u);
    llvm::SaveAndRestore inBounds(storeProvenInBounds_, destinationInBounds);
    for (uint64_t i = 0; i < words && !error; ++i)
      wordAt(memset->getDest(), i * 4, call, error, pattern);
    return error;
  }
  // Load every word before storing any: memmove's ranges may overlap.
  std::vector<Id> loaded;
  for (uint64_t i = 0; i < words && !error; ++i)
    loaded.push_back(wordAt(transfer->getSource(), i * 4, call, error));
  llvm::SaveAndRestore inBounds(storeProvenInBounds_, destinationInBounds);
  for (uint64_t i = 0; i < words && !error; ++i)
    wordAt(transfer->getDest(), i * 4, call, error, loaded[i]);
  return error;
}

} // namespace compiler::spirv
