// Loads and stores of __global and __constant memory whose alignment is
// below their size (a packed struct's members, printf records) become
// accesses of alignment-sized pieces: a PhysicalStorageBuffer access must
// be aligned to its scalar type (Vulkan's rule for buffer device
// addresses), which a packed field does not promise. Private and __local
// memory are words the emitter reads byte-wise itself (word_memory.cpp).
#include "passes/vulkan_passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {
namespace {

/// The bytes of each piece `type` is split into at `alignment`, or 0 when it
/// is accessed whole.
uint64_t pieceSize(llvm::Type *type, llvm::Align alignment, const llvm::DataLayout &layout) {
  if (!type->isIntegerTy() && !type->isFloatingPointTy() && !type->isPointerTy())
    return 0;
  uint64_t size = layout.getTypeStoreSize(type).getFixedValue();
  if ((size != 2 && size != 4 && size != 8) || layout.getTypeSizeInBits(type) != size * 8)
    return 0;
  return alignment.value() < size ? alignment.value() : 0;
}

llvm::Value *toInteger(llvm::IRBuilder<> &builder, llvm::Value *value, llvm::IntegerType *integer) {
  if (value->getType()->isPointerTy())
    return builder.CreatePtrToInt(value, integer);
  return builder.CreateBitCast(value, integer);
}

llvm::Value *fromInteger(llvm::IRBuilder<> &builder, llvm::Value *value, llvm::Type *type) {
  if (type->isPointerTy())
    return builder.CreateIntToPtr(value, type);
  return builder.CreateBitCast(value, type);
}

void splitLoad(llvm::LoadInst &load, uint64_t piece) {
  llvm::IRBuilder<> builder(&load);
  const llvm::DataLayout &layout = load.getDataLayout();
  llvm::Type *type = load.getType();
  uint64_t size = layout.getTypeStoreSize(type).getFixedValue();
  auto *whole = builder.getIntNTy(unsigned(size * 8));
  auto *part = builder.getIntNTy(unsigned(piece * 8));
  llvm::Value *bits = llvm::ConstantInt::get(whole, 0);
  for (uint64_t at = 0; at < size; at += piece) {
    llvm::Value *address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), load.getPointerOperand(), at);
    llvm::LoadInst *loaded = builder.CreateAlignedLoad(part, address, llvm::Align(piece), load.isVolatile());
    // Little-endian: the piece at byte `at` holds bits from at * 8 on.
    bits = builder.CreateOr(bits, builder.CreateShl(builder.CreateZExt(loaded, whole), at * 8));
  }
  load.replaceAllUsesWith(fromInteger(builder, bits, type));
  load.eraseFromParent();
}

void splitStore(llvm::StoreInst &store, uint64_t piece) {
  llvm::IRBuilder<> builder(&store);
  const llvm::DataLayout &layout = store.getDataLayout();
  llvm::Value *value = store.getValueOperand();
  uint64_t size = layout.getTypeStoreSize(value->getType()).getFixedValue();
  auto *whole = builder.getIntNTy(unsigned(size * 8));
  auto *part = builder.getIntNTy(unsigned(piece * 8));
  llvm::Value *bits = toInteger(builder, value, whole);
  for (uint64_t at = 0; at < size; at += piece) {
    llvm::Value *address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), store.getPointerOperand(), at);
    llvm::Value *stored = builder.CreateTrunc(builder.CreateLShr(bits, at * 8), part);
    builder.CreateAlignedStore(stored, address, llvm::Align(piece), store.isVolatile());
  }
  store.eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses SplitUnderalignedGlobalAccessesPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  const llvm::DataLayout &layout = module.getDataLayout();
  bool changed = false;
  for (llvm::Function &function : module) {
    llvm::SmallVector<std::pair<llvm::Instruction *, uint64_t>, 8> split;
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load && !load->isAtomic() && isBufferAddressSpace(load->getPointerAddressSpace())) {
        if (uint64_t piece = pieceSize(load->getType(), load->getAlign(), layout))
          split.push_back({load, piece});
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
                 store && !store->isAtomic() && isBufferAddressSpace(store->getPointerAddressSpace())) {
        if (uint64_t piece = pieceSize(store->getValueOperand()->getType(), store->getAlign(), layout))
          split.push_back({store, piece});
      }
    }
    for (auto [instruction, piece] : split) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(instruction))
        splitLoad(*load, piece);
      else
        splitStore(llvm::cast<llvm::StoreInst>(*instruction), piece);
    }
    changed |= !split.empty();
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
