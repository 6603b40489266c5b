// __local and private memory as arrays of 32-bit words. SPIR-V for Vulkan
// has no byte-addressed Workgroup or Function memory (without
// workgroup_memory_explicit_layout, which lavapipe lacks), so each alloca,
// __local variable and __local argument is a `uint[n]` variable, and a
// pointer into one is a 32-bit byte offset whose variable is known
// statically (after inlining, every such pointer derives from one of them).
// Accesses of 32- and 64-bit values are whole words; 8- and 16-bit stores to
// __local memory change their bits of the word with atomic and/or, so that
// work-items writing neighbouring bytes do not race.
// A kernel with 64-bit __local atomics keeps its __local memory as 64-bit
// words instead (a Vulkan atomic needs a variable of its width); there a
// 32-bit word is half of one, written with atomic and/or too, and its
// 32-bit atomics are compare-exchange loops (widen_local_atomics.cpp).
#include "build_failure.h"
#include "kernel_emitter.h"
#include "passes/vulkan_passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include "spirv/unified1/GLSL.std.450.h"

#include <algorithm>

namespace compiler::spirv {
namespace {

constexpr uint32_t kScopeWorkgroup = 2;
constexpr uint32_t kWorkgroupMemory = 0x100;

bool isWordMemory(const llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer && (pointer->getAddressSpace() == 0 || pointer->getAddressSpace() == 3);
}

} // namespace

uint32_t wordAlignment(llvm::Align alignment) {
  return uint32_t(std::clamp<uint64_t>(alignment.value(), 4, kMaxWordAlignment));
}

llvm::Error KernelEmitter::declareWordMemory() {
  const llvm::DataLayout &layout = kernel_.getDataLayout();
  auto wordsOf = [&](llvm::Type *type) { return uint32_t((layout.getTypeAllocSize(type).getFixedValue() + 3) / 4); };
  uint32_t localBytes = 0;
  for (llvm::Instruction &instruction : llvm::instructions(kernel_)) {
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) {
      auto *count = llvm::dyn_cast<llvm::ConstantInt>(alloca->getArraySize());
      if (!count)
        return unsupported(instruction, "variable-sized private arrays");
      WordVariable variable;
      uint64_t words = uint64_t(wordsOf(alloca->getAllocatedType())) * count->getZExtValue();
      if (words * 4 > kVulkanMaxPrivateBytes)
        return buildFailure("error: " + kernel_.getName() + ": a private array of " + llvm::Twine(words * 4) +
                            " bytes, more than the " + llvm::Twine(kVulkanMaxPrivateBytes) +
                            " bytes of private memory a work-item may use on this target");
      variable.words = uint32_t(words);
      variable.alignment = wordAlignment(alloca->getAlign());
      wordVariables_[alloca] = variable;
    }
    for (llvm::Value *operand : instruction.operands()) {
      auto *global = llvm::dyn_cast<llvm::GlobalVariable>(operand->stripPointerCasts());
      if (!global || global->getAddressSpace() != 3 || wordVariables_.count(global))
        continue;
      WordVariable variable;
      variable.storage = spv::StorageClass::Workgroup;
      variable.words = wordsOf(global->getValueType());
      variable.alignment = wordAlignment(global->getAlign().valueOrOne());
      localBytes = uint32_t(llvm::alignTo(localBytes, variable.alignment));
      variable.staticOffset = localBytes;
      variable.offset = uint32(localBytes);
      localBytes += variable.words * 4;
      wordVariables_[global] = variable;
    }
  }
  info_.localMemSize = localBytes;
  // Private memory: every alloca and byval argument at a fixed offset.
  uint64_t privateBytes = 0;
  for (auto &[base, variable] : wordVariables_)
    if (variable.storage == spv::StorageClass::Function)
      privateBytes += uint64_t(variable.words) * 4;
  if (privateBytes > kVulkanMaxPrivateBytes)
    return buildFailure("error: " + kernel_.getName() + ": uses " + llvm::Twine(privateBytes) +
                        " bytes of private memory per work-item, more than the " + llvm::Twine(kVulkanMaxPrivateBytes) +
                        " this target allows");
  for (auto &[base, variable] : wordVariables_)
    if (variable.storage == spv::StorageClass::Function) {
      privateWords_ = uint32_t(llvm::alignTo(privateWords_ * 4, variable.alignment) / 4);
      variable.staticOffset = privateWords_ * 4;
      variable.offset = uint32(variable.staticOffset);
      privateWords_ += variable.words;
    }
  if (privateWords_)
    privateSpace_ = builder_.newId();
  // __local memory: the static variables, then each __local argument at the
  // sum of the sizes before it (specialization-constant arithmetic).
  // Each __local argument starts at a multiple of its alignment; the
  // runtime adds the same padding when it counts __local memory.
  Id end = uint32(localBytes);
  bool sizedAtRunTime = false;
  for (auto &[base, variable] : wordVariables_)
    if (variable.sizeBytes) {
      if (variable.alignment > 4) {
        Id padded = builder_.specConstantOp(uint32Type(), spv::Op::OpIAdd, {end, uint32(variable.alignment - 1)});
        end = builder_.specConstantOp(uint32Type(), spv::Op::OpBitwiseAnd, {padded, uint32(~(variable.alignment - 1))});
      }
      variable.offset = end;
      end = builder_.specConstantOp(uint32Type(), spv::Op::OpIAdd, {end, variable.sizeBytes});
      sizedAtRunTime = true;
    }
  if (!sizedAtRunTime && !localBytes)
    return llvm::Error::success();
  // Without the device's 64-bit atomics the build fails at the first one.
  wideLocalWords_ = state_.config.atomicInt64 && usesLocalInt64Atomics(kernel_);
  const uint32_t wordBytes = wideLocalWords_ ? 8 : 4;
  if (wideLocalWords_)
    builder_.capability(spv::Capability::Int64Atomics);
  Id words;
  if (sizedAtRunTime) {
    Id rounded = builder_.specConstantOp(uint32Type(), spv::Op::OpIAdd, {end, uint32(wordBytes - 1)});
    words = builder_.specConstantOp(uint32Type(), spv::Op::OpUDiv, {rounded, uint32(wordBytes)});
    localLastWord_ = builder_.specConstantOp(uint32Type(), spv::Op::OpISub, {words, uint32(1)});
  } else {
    words = uint32((localBytes + wordBytes - 1) / wordBytes);
    localLastWord_ = uint32((localBytes + wordBytes - 1) / wordBytes - 1);
  }
  Id wordType = wideLocalWords_ ? uint64Type() : uint32Type();
  Id localSpace =
      builder_.variable(builder_.typePointer(spv::StorageClass::Workgroup, builder_.typeArray(wordType, words)),
                        spv::StorageClass::Workgroup);
  builder_.name(localSpace, kernel_.getName().str() + ".local");
  interface_.push_back(localSpace);
  for (auto &[base, variable] : wordVariables_)
    if (variable.storage == spv::StorageClass::Workgroup)
      variable.variable = localSpace;
  return llvm::Error::success();
}

void KernelEmitter::emitFunctionVariables() {
  // OpVariable of the Function storage class must open the first block.
  if (!privateSpace_)
    return;
  privateLastWord_ = uint32(privateWords_ - 1);
  Id arrayType = builder_.typeArray(uint32Type(), uint32(privateWords_));
  op(spv::Op::OpVariable, builder_.typePointer(spv::StorageClass::Function, arrayType),
     {uint32_t(spv::StorageClass::Function)}, privateSpace_);
  for (auto &[base, variable] : wordVariables_)
    if (variable.storage == spv::StorageClass::Function) {
      variable.variable = privateSpace_;
      values_[base] = variable.offset;
    }
}

llvm::Value *KernelEmitter::wordMemoryBase(llvm::Value *pointer) {
  if (auto found = bases_.find(pointer); found != bases_.end())
    return found->second;
  bases_[pointer] = nullptr; // breaks cycles through phis
  // Bases in the same space are interchangeable: offsets say where.
  auto sameSpace = [&](llvm::Value *a, llvm::Value *b) {
    return wordVariables_[a].storage == wordVariables_[b].storage;
  };
  llvm::Value *base = nullptr;
  if (wordVariables_.count(pointer)) {
    base = pointer;
  } else if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(pointer)) {
    base = wordMemoryBase(gep->getPointerOperand());
  } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(pointer)) {
    for (llvm::Value *incoming : phi->incoming_values()) {
      llvm::Value *incomingBase = wordMemoryBase(incoming);
      if (!incomingBase) {
        // Still being resolved (a loop): the other operands decide.
        if (bases_.count(incoming) && !llvm::isa<llvm::Constant>(incoming))
          continue;
        base = nullptr;
        break;
      }
      if (base && !sameSpace(base, incomingBase)) {
        base = nullptr;
        break;
      }
      base = incomingBase;
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::Operator>(pointer);
             cast && cast->getOpcode() == llvm::Instruction::IntToPtr && isWordMemory(pointer->getType())) {
    // A space's memory is one array, so an integer is an offset into it:
    // any variable of the space serves as the base.
    auto storage =
        pointer->getType()->getPointerAddressSpace() == 3 ? spv::StorageClass::Workgroup : spv::StorageClass::Function;
    for (auto &[candidate, variable] : wordVariables_)
      if (variable.storage == storage) {
        base = candidate;
        break;
      }
  } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(pointer)) {
    llvm::Value *first = wordMemoryBase(select->getTrueValue());
    llvm::Value *second = wordMemoryBase(select->getFalseValue());
    base = first && second && sameSpace(first, second) ? first : nullptr;
  }
  bases_[pointer] = base;
  return base;
}

bool KernelEmitter::hasWideWords(llvm::Value *base) {
  return wideLocalWords_ && wordVariables_[base].storage == spv::StorageClass::Workgroup;
}

Id KernelEmitter::wordPointer(llvm::Value *base, Id wordIndex, WordAccess access) {
  const WordVariable &variable = wordVariables_[base];
  // A write's index is clamped to the space's last word
  // (vulkan_kernel_abi.h): a wild store must not reach the driver's memory;
  // on a GPU not a private store proven in bounds
  // (mark_in_bounds_private_stores.cpp, which trusts the kernel to be free
  // of undefined behaviour, as LLVM's analyses do). Reads only where a wild
  // one would fault the application's process (lavapipe), which keeps every
  // clamp: with every word read clamped, the bench's SGEMM on an H100 ran
  // at half its speed (0.5x of NVIDIA's OpenCL instead of 0.9x).
  const bool provenInBounds = storeProvenInBounds_ && !state_.config.clampWordMemoryReads;
  if ((access == WordAccess::Write && !provenInBounds) || state_.config.clampWordMemoryReads) {
    Id last = variable.storage == spv::StorageClass::Workgroup ? localLastWord_ : privateLastWord_;
    wordIndex = op(spv::Op::OpExtInst, uint32Type(), {builder_.importGlsl450(), GLSLstd450UMin, wordIndex, last});
  }
  Id wordType = hasWideWords(base) ? uint64Type() : uint32Type();
  return op(spv::Op::OpAccessChain, builder_.typePointer(variable.storage, wordType), {variable.variable, wordIndex});
}

Id KernelEmitter::halfShift(Id wordIndex) {
  Id odd = op(spv::Op::OpBitwiseAnd, uint32Type(), {wordIndex, uint32(1)});
  return op(spv::Op::OpUConvert, uint64Type(), {op(spv::Op::OpShiftLeftLogical, uint32Type(), {odd, uint32(5)})});
}

Id KernelEmitter::loadWord(llvm::Value *base, Id wordIndex) {
  if (!hasWideWords(base))
    return op(spv::Op::OpLoad, uint32Type(), {wordPointer(base, wordIndex, WordAccess::Read)});
  Id wide = op(spv::Op::OpShiftRightLogical, uint32Type(), {wordIndex, uint32(1)});
  Id pair = op(spv::Op::OpLoad, uint64Type(), {wordPointer(base, wide, WordAccess::Read)});
  return op(spv::Op::OpUConvert, uint32Type(),
            {op(spv::Op::OpShiftRightLogical, uint64Type(), {pair, halfShift(wordIndex)})});
}

void KernelEmitter::storeWord(llvm::Value *base, Id wordIndex, Id word) {
  if (hasWideWords(base))
    mergeIntoWord(base, wordIndex, uint32(0), word);
  else
    opNoResult(spv::Op::OpStore, {wordPointer(base, wordIndex, WordAccess::Write), word});
}

void KernelEmitter::mergeIntoWord(llvm::Value *base, Id wordIndex, Id keep, Id bits) {
  // Other work-items may write the other bytes of a __local word.
  Id scope = uint32(kScopeWorkgroup), relaxed = uint32(0);
  if (hasWideWords(base)) {
    Id wide = op(spv::Op::OpShiftRightLogical, uint32Type(), {wordIndex, uint32(1)});
    Id pointer = wordPointer(base, wide, WordAccess::Write);
    Id shift = halfShift(wordIndex);
    auto widen = [&](Id word) {
      return op(spv::Op::OpShiftLeftLogical, uint64Type(), {op(spv::Op::OpUConvert, uint64Type(), {word}), shift});
    };
    Id keepPair = op(spv::Op::OpNot, uint64Type(), {widen(op(spv::Op::OpNot, uint32Type(), {keep}))});
    op(spv::Op::OpAtomicAnd, uint64Type(), {pointer, scope, relaxed, keepPair});
    op(spv::Op::OpAtomicOr, uint64Type(), {pointer, scope, relaxed, widen(bits)});
    return;
  }
  Id pointer = wordPointer(base, wordIndex, WordAccess::Write);
  if (wordVariables_[base].storage == spv::StorageClass::Workgroup) {
    op(spv::Op::OpAtomicAnd, uint32Type(), {pointer, scope, relaxed, keep});
    op(spv::Op::OpAtomicOr, uint32Type(), {pointer, scope, relaxed, bits});
    return;
  }
  Id word = op(spv::Op::OpLoad, uint32Type(), {pointer});
  Id merged = op(spv::Op::OpBitwiseOr, uint32Type(), {op(spv::Op::OpBitwiseAnd, uint32Type(), {word, keep}), bits});
  opNoResult(spv::Op::OpStore, {pointer, merged});
}

Id KernelEmitter::loadWordsAt(llvm::Value *base, Id byteOffset, llvm::Type *valueType, const llvm::Instruction &user,
                              llvm::Error &error) {
  Id valueTypeId = type(valueType);
  if (!valueTypeId) {
    error = unsupported(user, "loads of this type from __local or private memory");
    return 0;
  }
  Id wordIndex = op(spv::Op::OpShiftRightLogical, uint32Type(), {byteOffset, uint32(2)});
  unsigned bits = unsigned(kernel_.getDataLayout().getTypeSizeInBits(valueType).getFixedValue());
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(valueType); vector && bits % 32 == 0) {
    // Element by element.
    llvm::Type *element = vector->getElementType();
    uint32_t elementBytes = uint32_t(kernel_.getDataLayout().getTypeAllocSize(element));
    std::vector<uint32_t> words{valueTypeId, 0};
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      Id offset = op(spv::Op::OpIAdd, uint32Type(), {byteOffset, uint32(i * elementBytes)});
      Id part = loadWordsAt(base, offset, element, user, error);
      if (error)
        return 0;
      words.push_back(part);
    }
    words[1] = builder_.newId();
    ModuleBuilder::instruction(body_, spv::Op::OpCompositeConstruct, words);
    return words[1];
  }
  if (bits == 32 || (valueType->isPointerTy() && !isGlobalPointer(valueType))) {
    Id word = loadWord(base, wordIndex);
    return valueTypeId == uint32Type() ? word : op(spv::Op::OpBitcast, valueTypeId, {word});
  }
  if (bits == 64) {
    Id low = loadWord(base, wordIndex);
    Id nextIndex = op(spv::Op::OpIAdd, uint32Type(), {wordIndex, uint32(1)});
    Id high = loadWord(base, nextIndex);
    Id pair = op(spv::Op::OpCompositeConstruct, builder_.typeVector(uint32Type(), 2), {low, high});
    return op(spv::Op::OpBitcast, valueTypeId, {pair});
  }
  if ((bits == 8 || bits == 16) && !valueType->isVectorTy()) {
    Id word = loadWord(base, wordIndex);
    Id shift = op(spv::Op::OpShiftLeftLogical, uint32Type(),
                  {op(spv::Op::OpBitwiseAnd, uint32Type(), {byteOffset, uint32(3)}), uint32(3)});
    Id shifted = op(spv::Op::OpShiftRightLogical, uint32Type(), {word, shift});
    Id narrow = op(spv::Op::OpUConvert, builder_.typeInt(bits), {shifted});
    return valueType->isIntegerTy() ? narrow : op(spv::Op::OpBitcast, valueTypeId, {narrow});
  }
  error = unsupported(user, "loads of this type from __local or private memory");
  return 0;
}

llvm::Error KernelEmitter::storeWordsAt(llvm::Value *base, Id byteOffset, llvm::Type *valueType, Id stored,
                                        const llvm::Instruction &user) {
  Id wordIndex = op(spv::Op::OpShiftRightLogical, uint32Type(), {byteOffset, uint32(2)});
  unsigned bits = unsigned(kernel_.getDataLayout().getTypeSizeInBits(valueType).getFixedValue());
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(valueType); vector && bits % 32 == 0) {
    llvm::Type *element = vector->getElementType();
    uint32_t elementBytes = uint32_t(kernel_.getDataLayout().getTypeAllocSize(element));
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      Id offset = op(spv::Op::OpIAdd, uint32Type(), {byteOffset, uint32(i * elementBytes)});
      Id part = op(spv::Op::OpCompositeExtract, type(element), {stored, i});
      if (llvm::Error error = storeWordsAt(base, offset, element, part, user))
        return error;
    }
    return llvm::Error::success();
  }
  if (bits == 32 || (valueType->isPointerTy() && !isGlobalPointer(valueType))) {
    Id word = type(valueType) == uint32Type() ? stored : op(spv::Op::OpBitcast, uint32Type(), {stored});
    storeWord(base, wordIndex, word);
    return llvm::Error::success();
  }
  if (bits == 64) {
    Id pair = op(spv::Op::OpBitcast, builder_.typeVector(uint32Type(), 2), {stored});
    storeWord(base, wordIndex, op(spv::Op::OpCompositeExtract, uint32Type(), {pair, 0}));
    Id nextIndex = op(spv::Op::OpIAdd, uint32Type(), {wordIndex, uint32(1)});
    storeWord(base, nextIndex, op(spv::Op::OpCompositeExtract, uint32Type(), {pair, 1}));
    return llvm::Error::success();
  }
  if ((bits == 8 || bits == 16) && !valueType->isVectorTy()) {
    Id narrow = valueType->isIntegerTy() ? stored : op(spv::Op::OpBitcast, builder_.typeInt(bits), {stored});
    Id shift = op(spv::Op::OpShiftLeftLogical, uint32Type(),
                  {op(spv::Op::OpBitwiseAnd, uint32Type(), {byteOffset, uint32(3)}), uint32(3)});
    Id bitsInWord =
        op(spv::Op::OpShiftLeftLogical, uint32Type(), {op(spv::Op::OpUConvert, uint32Type(), {narrow}), shift});
    Id mask = op(spv::Op::OpShiftLeftLogical, uint32Type(), {uint32(bits == 8 ? 0xffu : 0xffffu), shift});
    Id keep = op(spv::Op::OpNot, uint32Type(), {mask});
    mergeIntoWord(base, wordIndex, keep, bitsInWord);
    return llvm::Error::success();
  }
  return unsupported(user, "stores of this type to __local or private memory");
}

bool KernelEmitter::isSplitIntoBytes(llvm::Type *valueType, llvm::Align alignment) {
  // A 16-bit value may straddle two words unless 2-aligned; wider ones are
  // read and written as whole words only when word-aligned.
  if (valueType->isVectorTy() || valueType->isPointerTy())
    return false;
  unsigned bits = valueType->getPrimitiveSizeInBits();
  return (bits == 16 && alignment.value() < 2) || ((bits == 32 || bits == 64) && alignment.value() < 4);
}

Id KernelEmitter::loadBytesAt(llvm::Value *base, Id byteOffset, llvm::Type *valueType, const llvm::Instruction &user,
                              llvm::Error &error) {
  llvm::LLVMContext &context = kernel_.getContext();
  unsigned bits = valueType->getPrimitiveSizeInBits();
  Id integer = type(llvm::IntegerType::get(context, bits));
  Id assembled = 0;
  for (unsigned i = 0; i < bits / 8; ++i) {
    Id offset = op(spv::Op::OpIAdd, uint32Type(), {byteOffset, uint32(i)});
    Id byte = loadWordsAt(base, offset, llvm::Type::getInt8Ty(context), user, error);
    if (error)
      return 0;
    Id part = op(spv::Op::OpUConvert, integer, {byte});
    if (i)
      part = op(spv::Op::OpShiftLeftLogical, integer, {part, uint32(8 * i)});
    assembled = i ? op(spv::Op::OpBitwiseOr, integer, {assembled, part}) : part;
  }
  return valueType->isIntegerTy() ? assembled : op(spv::Op::OpBitcast, type(valueType), {assembled});
}

llvm::Error KernelEmitter::storeBytesAt(llvm::Value *base, Id byteOffset, llvm::Type *valueType, Id stored,
                                        const llvm::Instruction &user) {
  llvm::LLVMContext &context = kernel_.getContext();
  unsigned bits = valueType->getPrimitiveSizeInBits();
  Id integer = type(llvm::IntegerType::get(context, bits));
  Id asInteger = valueType->isIntegerTy() ? stored : op(spv::Op::OpBitcast, integer, {stored});
  llvm::Type *byteType = llvm::Type::getInt8Ty(context);
  for (unsigned i = 0; i < bits / 8; ++i) {
    Id shifted = i ? op(spv::Op::OpShiftRightLogical, integer, {asInteger, uint32(8 * i)}) : asInteger;
    Id byte = op(spv::Op::OpUConvert, type(byteType), {shifted});
    Id offset = op(spv::Op::OpIAdd, uint32Type(), {byteOffset, uint32(i)});
    if (llvm::Error error = storeWordsAt(base, offset, byteType, byte, user))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error KernelEmitter::loadWordMemory(llvm::LoadInst &load) {
  llvm::Value *base = wordMemoryBase(load.getPointerOperand());
  if (!isWordMemory(load.getPointerOperandType()) || !base)
    return unsupported(load, "this pointer (its __local or private variable is not known)");
  if (load.isAtomic()) {
    if (llvm::Error error = requireAtomicWidth(load, load.getType()))
      return error;
    llvm::Error error = llvm::Error::success();
    Id pointer = wordMemoryAtomicPointer(load.getPointerOperand(), load.getType(), load, error);
    if (error)
      return error;
    storageSemantics_ = kWorkgroupMemory;
    op(spv::Op::OpAtomicLoad, type(load.getType()),
       {pointer, atomicScope(load.getSyncScopeID()), atomicSemantics(load.getOrdering())}, values_.lookup(&load));
    return llvm::Error::success();
  }
  llvm::Error error = llvm::Error::success();
  Id loaded = isSplitIntoBytes(load.getType(), load.getAlign())
                  ? loadBytesAt(base, value(load.getPointerOperand()), load.getType(), load, error)
                  : loadWordsAt(base, value(load.getPointerOperand()), load.getType(), load, error);
  if (error)
    return error;
  op(spv::Op::OpCopyObject, type(load.getType()), {loaded}, values_.lookup(&load));
  return llvm::Error::success();
}

llvm::Error KernelEmitter::storeWordMemory(llvm::StoreInst &store) {
  llvm::Value *base = wordMemoryBase(store.getPointerOperand());
  if (!isWordMemory(store.getPointerOperandType()) || !base)
    return unsupported(store, "this pointer (its __local or private variable is not known)");
  llvm::Type *valueType = store.getValueOperand()->getType();
  Id stored = value(store.getValueOperand());
  if (!stored || !type(valueType))
    return unsupported(store, "stores of this value to __local or private memory");
  if (store.isAtomic()) {
    if (llvm::Error error = requireAtomicWidth(store, valueType))
      return error;
    llvm::Error error = llvm::Error::success();
    Id pointer = wordMemoryAtomicPointer(store.getPointerOperand(), valueType, store, error);
    if (error)
      return error;
    storageSemantics_ = kWorkgroupMemory;
    opNoResult(spv::Op::OpAtomicStore,
               {pointer, atomicScope(store.getSyncScopeID()), atomicSemantics(store.getOrdering()), stored});
    return llvm::Error::success();
  }
  llvm::SaveAndRestore inBounds(storeProvenInBounds_, store.getMetadata(kPrivateStoreInBounds) != nullptr);
  if (isSplitIntoBytes(valueType, store.getAlign()))
    return storeBytesAt(base, value(store.getPointerOperand()), valueType, stored, store);
  return storeWordsAt(base, value(store.getPointerOperand()), valueType, stored, store);
}

Id KernelEmitter::wordMemoryAtomicPointer(llvm::Value *pointer, llvm::Type *valueType, const llvm::Instruction &user,
                                          llvm::Error &error) {
  llvm::Value *base = wordMemoryBase(pointer);
  if (!isWordMemory(pointer->getType()) || !base || wordVariables_[base].storage != spv::StorageClass::Workgroup) {
    error = unsupported(user, "atomics through this pointer");
    return 0;
  }
  // An atomic is one word of the kernel's __local words (32 or 64 bits):
  // WidenLocalAtomicsPass made the others compare-exchange loops, and an
  // integer type is all a word holds.
  unsigned bits = valueType->getPrimitiveSizeInBits();
  if (!valueType->isIntegerTy() || bits != (wideLocalWords_ ? 64u : 32u)) {
    error = unsupported(user, llvm::Twine(bits) + "-bit atomics on __local memory");
    return 0;
  }
  Id wordIndex = op(spv::Op::OpShiftRightLogical, uint32Type(), {value(pointer), uint32(wideLocalWords_ ? 3 : 2)});
  return wordPointer(base, wordIndex, WordAccess::Write);
}

} // namespace compiler::spirv
