#include "program_scope_variables.h"

#include "build_failure.h"
#include "kernel_emitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/Support/MathExtras.h"

namespace compiler::spirv {
namespace {

class ImageWriter {
public:
  explicit ImageWriter(ProgramScopeBlock &block, const llvm::DataLayout &layout) : block_(block), layout_(layout) {}

  /// Writes the bytes of `constant` at `offset` in the image (little-endian,
  /// the module's layout); false for what it cannot hold.
  bool write(const llvm::Constant *constant, uint64_t offset) {
    std::byte *out = block_.initialImage.data() + offset;
    if (constant->isNullValue() || llvm::isa<llvm::UndefValue>(constant) || isCastNull(constant))
      return true; // the image starts zeroed
    if (constant->getType()->isPointerTy())
      return relocate(constant, offset);
    if (auto *integer = llvm::dyn_cast<llvm::ConstantInt>(constant)) {
      llvm::APInt bits = integer->getValue();
      for (unsigned i = 0; i < (bits.getBitWidth() + 7) / 8; ++i)
        out[i] = std::byte(bits.extractBitsAsZExtValue(std::min(8u, bits.getBitWidth() - 8 * i), 8 * i));
      return true;
    }
    if (auto *floating = llvm::dyn_cast<llvm::ConstantFP>(constant)) {
      llvm::APInt bits = floating->getValueAPF().bitcastToAPInt();
      for (unsigned i = 0; i < bits.getBitWidth() / 8; ++i)
        out[i] = std::byte(bits.extractBitsAsZExtValue(8, 8 * i));
      return true;
    }
    if (auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(constant)) {
      llvm::StringRef raw = data->getRawDataValues();
      std::memcpy(out, raw.data(), raw.size());
      return true;
    }
    if (auto *structure = llvm::dyn_cast<llvm::ConstantStruct>(constant)) {
      const llvm::StructLayout *structLayout = layout_.getStructLayout(structure->getType());
      for (unsigned i = 0; i < structure->getNumOperands(); ++i)
        if (!write(structure->getOperand(i), offset + structLayout->getElementOffset(i)))
          return false;
      return true;
    }
    if (llvm::isa<llvm::ConstantArray>(constant) || llvm::isa<llvm::ConstantVector>(constant)) {
      uint64_t stride = layout_.getTypeAllocSize(constant->getOperand(0)->getType());
      for (unsigned i = 0; i < constant->getNumOperands(); ++i)
        if (!write(llvm::cast<llvm::Constant>(constant->getOperand(i)), offset + i * stride))
          return false;
      return true;
    }
    return false;
  }

private:
  /// A pointer to a variable in the block (plus a constant offset): its
  /// address is known once the runtime has placed the block.
  bool relocate(const llvm::Constant *pointer, uint64_t offset) {
    llvm::APInt displacement(layout_.getIndexTypeSizeInBits(pointer->getType()), 0);
    const llvm::Value *base =
        pointer->stripAndAccumulateConstantOffsets(layout_, displacement, /*AllowNonInbounds=*/true);
    auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(base);
    if (!variable || !block_.offsets.count(variable) || layout_.getTypeStoreSize(pointer->getType()) != 8)
      return false;
    block_.relocations.push_back({offset, block_.offsets.lookup(variable) + displacement.getSExtValue()});
    return true;
  }

  ProgramScopeBlock &block_;
  const llvm::DataLayout &layout_;
};

} // namespace

llvm::Expected<ProgramScopeBlock> layoutProgramScopeVariables(const llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  ProgramScopeBlock block;
  for (const llvm::GlobalVariable &variable : module.globals()) {
    unsigned addressSpace = variable.getAddressSpace();
    if (variable.use_empty() || (addressSpace != 1 && addressSpace != 2))
      continue;
    if (variable.isDeclaration())
      return buildFailure("error: undefined variable '" + variable.getName() + "' (declared extern, never defined)");
    uint64_t alignment = std::max<uint64_t>(variable.getAlign().valueOrOne().value(), 1);
    block.offsets[&variable] = llvm::alignTo(block.size, alignment);
    block.size = block.offsets[&variable] + layout.getTypeAllocSize(variable.getValueType());
  }
  block.initialImage.assign(block.size, std::byte(0));
  ImageWriter writer(block, layout);
  for (auto [variable, offset] : block.offsets)
    if (variable->hasInitializer() && !writer.write(variable->getInitializer(), offset))
      return buildFailure("error: SPIR-V emission does not support the initializer of '" + variable->getName() +
                          "' (an address outside the program-scope variables)");
  llvm::sort(block.relocations,
             [](const VulkanGlobalRelocation &a, const VulkanGlobalRelocation &b) { return a.offset < b.offset; });
  while (!block.initialImage.empty() && block.initialImage.back() == std::byte(0))
    block.initialImage.pop_back();
  return block;
}

} // namespace compiler::spirv
