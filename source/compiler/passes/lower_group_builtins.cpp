// PLACEHOLDER: being written (issue 3); does nothing yet.
#include "compiler/passes.h"

namespace compiler {

llvm::PreservedAnalyses LowerGroupBuiltinsPass::run(llvm::Module &, llvm::ModuleAnalysisManager &) {
  return llvm::PreservedAnalyses::all();
}

} // namespace compiler
