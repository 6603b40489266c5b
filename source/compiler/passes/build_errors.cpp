// Build errors found by passes, kept in the module until the pipeline reads
// them: a pass cannot return an error through the new pass manager.
#include "compiler/passes.h"

#include "mux/status.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Metadata.h"

namespace compiler {
namespace {
constexpr const char *kBuildErrorsMetadata = "polymux.build.errors";
} // namespace

void reportBuildError(llvm::Module &module, const llvm::Twine &message) {
  llvm::LLVMContext &context = module.getContext();
  module.getOrInsertNamedMetadata(kBuildErrorsMetadata)
      ->addOperand(llvm::MDNode::get(context, llvm::MDString::get(context, message.str())));
}

llvm::Error takeBuildErrors(llvm::Module &module) {
  llvm::NamedMDNode *errors = module.getNamedMetadata(kBuildErrorsMetadata);
  if (!errors)
    return llvm::Error::success();
  llvm::SmallVector<std::string, 4> messages;
  for (const llvm::MDNode *node : errors->operands())
    if (node->getNumOperands() == 1)
      if (auto *text = llvm::dyn_cast<llvm::MDString>(node->getOperand(0)))
        if (!llvm::is_contained(messages, text->getString()))
          messages.push_back(text->getString().str());
  module.eraseNamedMetadata(errors);
  if (messages.empty())
    return llvm::Error::success();
  return mux::makeError(mux::Status::Failure, llvm::join(messages, "\n"));
}

} // namespace compiler
