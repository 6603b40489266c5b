// Bitcasts between an integer and a vector SPIR-V cannot hold whole (more
// than four elements, or an integer wider than 64 bits), and between vectors
// of different element counts one of which SPIR-V cannot hold, become
// element extracts and inserts with shifts, which the scalarizer and
// LowerWideIntegersPass then take apart. InstCombine makes them from
// shuffles: the CTS's vector_creation kernels turned a
// `(char8)(v.s23456789)` of a char16 into `bitcast <16 x i8> to i128`,
// `lshr`, `trunc to i64`, `bitcast to <8 x i8>`, which nothing below could
// lower.
#include "passes/vulkan_passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

namespace compiler::spirv {
namespace {

constexpr unsigned kMaxExpandedBits = 128; // the widest LowerWideIntegersPass lowers

/// Whether `cast` is a bitcast between vectors of different element counts,
/// one of them wider than SPIR-V vectors (`<16 x i8>` to `<2 x i64>`: the
/// scalarizer would assemble each i64 as `bitcast <8 x i8> to i64`).
bool isRegroupingBitcast(const llvm::BitCastInst &cast) {
  auto *source = llvm::dyn_cast<llvm::FixedVectorType>(cast.getSrcTy());
  auto *destination = llvm::dyn_cast<llvm::FixedVectorType>(cast.getDestTy());
  if (!source || !destination || source->getNumElements() == destination->getNumElements())
    return false;
  if (source->getElementType()->isIntegerTy(1) || destination->getElementType()->isIntegerTy(1))
    return false;
  unsigned a = source->getScalarSizeInBits(), b = destination->getScalarSizeInBits();
  return (source->getNumElements() > 4 || destination->getNumElements() > 4) && (a % b == 0 || b % a == 0) &&
         std::max(a, b) <= 64;
}

/// The vector side of `cast` when it is a bitcast this pass expands.
llvm::FixedVectorType *expandedVector(const llvm::BitCastInst &cast) {
  llvm::Type *source = cast.getSrcTy(), *destination = cast.getDestTy();
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(source->isVectorTy() ? source : destination);
  llvm::Type *integer = source->isVectorTy() ? destination : source;
  if (!vector || !integer->isIntegerTy() || vector->getElementType()->isIntegerTy(1))
    return nullptr;
  unsigned bits = integer->getIntegerBitWidth();
  bool heldWhole = vector->getNumElements() <= 4 && bits <= 64;
  return heldWhole || bits > kMaxExpandedBits ? nullptr : vector;
}

/// A regrouping bitcast element by element: each wider element from the
/// narrower ones it holds (little-endian), each narrower one from a shift of
/// the wider element holding it.
void regroup(llvm::BitCastInst &cast) {
  llvm::IRBuilder<> builder(&cast);
  auto *source = llvm::cast<llvm::FixedVectorType>(cast.getSrcTy());
  auto *destination = llvm::cast<llvm::FixedVectorType>(cast.getDestTy());
  unsigned sourceBits = source->getScalarSizeInBits(), destinationBits = destination->getScalarSizeInBits();
  llvm::Type *sourceInteger = builder.getIntNTy(sourceBits);
  llvm::Type *destinationInteger = builder.getIntNTy(destinationBits);
  auto sourceLane = [&](unsigned k) {
    return builder.CreateBitCast(builder.CreateExtractElement(cast.getOperand(0), uint64_t(k)), sourceInteger);
  };
  llvm::Value *result = llvm::PoisonValue::get(destination);
  for (unsigned d = 0; d < destination->getNumElements(); ++d) {
    llvm::Value *bits;
    if (destinationBits > sourceBits) {
      unsigned ratio = destinationBits / sourceBits;
      bits = llvm::ConstantInt::get(destinationInteger, 0);
      for (unsigned k = 0; k < ratio; ++k) {
        llvm::Value *lane = builder.CreateZExt(sourceLane(d * ratio + k), destinationInteger);
        bits = builder.CreateOr(bits, builder.CreateShl(lane, uint64_t(k) * sourceBits));
      }
    } else {
      unsigned ratio = sourceBits / destinationBits;
      llvm::Value *wide = sourceLane(d / ratio);
      bits = builder.CreateTrunc(builder.CreateLShr(wide, uint64_t(d % ratio) * destinationBits), destinationInteger);
    }
    result =
        builder.CreateInsertElement(result, builder.CreateBitCast(bits, destination->getElementType()), uint64_t(d));
  }
  cast.replaceAllUsesWith(result);
  cast.eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses ExpandVectorIntegerBitcastsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    llvm::SmallVector<llvm::BitCastInst *, 8> casts;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&instruction);
          cast && (expandedVector(*cast) || isRegroupingBitcast(*cast)))
        casts.push_back(cast);
    for (llvm::BitCastInst *cast : casts) {
      if (isRegroupingBitcast(*cast)) {
        regroup(*cast);
        changed = true;
        continue;
      }
      llvm::FixedVectorType *vector = expandedVector(*cast);
      llvm::IRBuilder<> builder(cast);
      llvm::Type *element = vector->getElementType();
      unsigned elementBits = element->getPrimitiveSizeInBits();
      llvm::Type *elementInteger = builder.getIntNTy(elementBits);
      llvm::Value *result = nullptr;
      if (cast->getSrcTy()->isVectorTy()) {
        // Little-endian: element k holds bits k * elementBits and up.
        llvm::Type *integer = cast->getDestTy();
        result = llvm::ConstantInt::get(integer, 0);
        for (unsigned k = 0; k < vector->getNumElements(); ++k) {
          llvm::Value *lane = builder.CreateExtractElement(cast->getOperand(0), uint64_t(k));
          lane = builder.CreateZExt(builder.CreateBitCast(lane, elementInteger), integer);
          result = builder.CreateOr(result, builder.CreateShl(lane, uint64_t(k) * elementBits));
        }
      } else {
        result = llvm::PoisonValue::get(vector);
        for (unsigned k = 0; k < vector->getNumElements(); ++k) {
          llvm::Value *bits = builder.CreateLShr(cast->getOperand(0), uint64_t(k) * elementBits);
          llvm::Value *lane = builder.CreateBitCast(builder.CreateTrunc(bits, elementInteger), element);
          result = builder.CreateInsertElement(result, lane, uint64_t(k));
        }
      }
      cast->replaceAllUsesWith(result);
      cast->eraseFromParent();
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
