#include "program_scope_variables.h"

#include "build_failure.h"
#include "kernel_emitter.h"

#include "llvm/IR/Constants.h"

namespace compiler::spirv {
namespace {

/// Writes the bytes of `constant` at `out` (little-endian, the module's
/// layout); false for what has no fixed bytes (addresses).
bool writeConstant(const llvm::Constant *constant, const llvm::DataLayout &layout, std::byte *out) {
  if (constant->isNullValue() || llvm::isa<llvm::UndefValue>(constant) || isCastNull(constant))
    return true; // the image starts zeroed
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
    const llvm::StructLayout *structLayout = layout.getStructLayout(structure->getType());
    for (unsigned i = 0; i < structure->getNumOperands(); ++i)
      if (!writeConstant(structure->getOperand(i), layout, out + structLayout->getElementOffset(i)))
        return false;
    return true;
  }
  if (llvm::isa<llvm::ConstantArray>(constant) || llvm::isa<llvm::ConstantVector>(constant)) {
    uint64_t stride = layout.getTypeAllocSize(constant->getOperand(0)->getType());
    for (unsigned i = 0; i < constant->getNumOperands(); ++i)
      if (!writeConstant(llvm::cast<llvm::Constant>(constant->getOperand(i)), layout, out + i * stride))
        return false;
    return true;
  }
  return false;
}

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
    block.offsets[&variable] = (block.size + alignment - 1) / alignment * alignment;
    block.size = block.offsets[&variable] + layout.getTypeAllocSize(variable.getValueType());
  }
  block.initialImage.assign(block.size, std::byte(0));
  for (auto [variable, offset] : block.offsets)
    if (variable->hasInitializer() &&
        !writeConstant(variable->getInitializer(), layout, block.initialImage.data() + offset))
      return buildFailure("error: SPIR-V emission does not support the initializer of '" + variable->getName() +
                          "' (addresses of other variables)");
  while (!block.initialImage.empty() && block.initialImage.back() == std::byte(0))
    block.initialImage.pop_back();
  return block;
}

} // namespace compiler::spirv
