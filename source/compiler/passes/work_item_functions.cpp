// Finds the work-item functions of a module (kWorkItemAttribute).
#include "compiler/passes.h"

namespace compiler {

llvm::SmallVector<llvm::Function *, 8> workItemFunctions(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *, 8> functions;
  for (llvm::Function &function : module)
    if (function.hasFnAttribute(kWorkItemAttribute) && !function.isDeclaration())
      functions.push_back(&function);
  return functions;
}

} // namespace compiler
