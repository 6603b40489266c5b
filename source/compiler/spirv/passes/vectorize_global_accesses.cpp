// The rules under which LLVM's LoadStoreVectorizer turns neighbouring 32-bit
// loads and stores of __global and __constant memory into loads and stores
// of up to four elements (vulkan_pipeline.cpp runs it with them).
//
// The pipeline scalarises every vector (Vulkan SPIR-V has no 8- or
// 16-element vectors), so a float16 load became sixteen 4-byte loads: on an
// H100 a kernel summing float16 loads ran at 0.66x of NVIDIA's own OpenCL,
// where float4 loads, which NVIDIA's compiler merges again, ran at 0.98x.
// Runs of scalar accesses that are adjacent and aligned to the run's size
// become one vec2/vec3/vec4 PhysicalStorageBuffer access, the largest a
// Vulkan implementation loads whole. Only 32-bit floats and integers, and
// only where the first access's alignment covers the whole run, so every
// access the emitter writes keeps Vulkan's alignment rule.
#include "passes/vulkan_passes.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace compiler::spirv {
namespace {

bool isWordScalar(llvm::Type *type) { return type->isFloatTy() || type->isIntegerTy(32); }

/// What the LoadStoreVectorizer may form: vectors of 32-bit scalars in
/// buffer memory, of at most 128 bits, aligned to their size.
class BufferVectorRules final : public llvm::TargetTransformInfoImplBase {
public:
  explicit BufferVectorRules(const llvm::DataLayout &layout) : llvm::TargetTransformInfoImplBase(layout) {}

  unsigned getLoadStoreVecRegBitWidth(unsigned) const override { return 128; }
  bool isLegalToVectorizeLoad(llvm::LoadInst *load) const override {
    return load->isSimple() && isBufferAddressSpace(load->getPointerAddressSpace()) && isWordScalar(load->getType());
  }
  bool isLegalToVectorizeStore(llvm::StoreInst *store) const override {
    return store->isSimple() && isBufferAddressSpace(store->getPointerAddressSpace()) &&
           isWordScalar(store->getValueOperand()->getType());
  }
  bool isLegalToVectorizeLoadChain(unsigned bytes, llvm::Align alignment, unsigned addressSpace) const override {
    return legalChain(bytes, alignment, addressSpace);
  }
  bool isLegalToVectorizeStoreChain(unsigned bytes, llvm::Align alignment, unsigned addressSpace) const override {
    return legalChain(bytes, alignment, addressSpace);
  }

private:
  static bool legalChain(unsigned bytes, llvm::Align alignment, unsigned addressSpace) {
    return isBufferAddressSpace(addressSpace) && bytes <= 16 &&
           alignment.value() >= std::min<uint64_t>(llvm::PowerOf2Ceil(bytes), 16);
  }
};

} // namespace

llvm::TargetIRAnalysis bufferVectorRules() {
  return llvm::TargetIRAnalysis([](const llvm::Function &function) {
    return llvm::TargetTransformInfo(std::make_unique<BufferVectorRules>(function.getParent()->getDataLayout()));
  });
}

} // namespace compiler::spirv
