#include "compiler/arg_entity_metadata.h"

#include "compiler/byte_io.h"

#include "llvm/IR/Metadata.h"

namespace compiler {
namespace {

/// Function metadata holding one MDString: writeEntities() of the table,
/// then the argument count and each argument's entity index.
constexpr const char *kMetadataName = "polymux.arg_entities";

} // namespace

void attachArgEntities(llvm::Module &module, const ArgEntityMap &entities) {
  for (const auto &[name, kernel] : entities) {
    llvm::Function *function = module.getFunction(name);
    if (!function || function->isDeclaration())
      continue;
    ByteWriter writer;
    writeEntities(writer, kernel.entities);
    writer.u32(static_cast<uint32_t>(kernel.args.size()));
    for (EntityIndex arg : kernel.args)
      writer.u32(arg);
    const std::vector<std::byte> &bytes = writer.data();
    llvm::LLVMContext &context = module.getContext();
    auto *text =
        llvm::MDString::get(context, llvm::StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
    function->setMetadata(kMetadataName, llvm::MDNode::get(context, {text}));
  }
}

std::optional<KernelArgEntities> argEntities(const llvm::Function &kernel) {
  const llvm::MDNode *node = kernel.getMetadata(kMetadataName);
  if (!node || node->getNumOperands() != 1)
    return std::nullopt;
  auto *text = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(0));
  if (!text)
    return std::nullopt;
  llvm::StringRef bytes = text->getString();
  ByteReader reader(std::as_bytes(std::span(bytes.data(), bytes.size())));
  KernelArgEntities result;
  if (!readEntities(reader, result.entities))
    return std::nullopt;
  uint32_t count = reader.u32();
  for (uint32_t i = 0; i < count && !reader.failed(); ++i) {
    EntityIndex arg = reader.u32();
    if (arg >= result.entities.size())
      return std::nullopt;
    result.args.push_back(arg);
  }
  if (reader.failed() || !reader.atEnd() || result.args.size() != kernel.arg_size())
    return std::nullopt;
  return result;
}

} // namespace compiler
