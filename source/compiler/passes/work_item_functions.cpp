// Finds the work-item functions of a module (kWorkItemAttribute) and reads
// the integer attributes the passes leave on them.
#include "compiler/passes.h"

namespace compiler {

llvm::SmallVector<llvm::Function *, 8> workItemFunctions(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *, 8> functions;
  for (llvm::Function &function : module)
    if (function.hasFnAttribute(kWorkItemAttribute) && !function.isDeclaration())
      functions.push_back(&function);
  return functions;
}

uint64_t integerAttribute(const llvm::Function &function, llvm::StringRef name) {
  uint64_t value = 0;
  if (function.hasFnAttribute(name))
    function.getFnAttribute(name).getValueAsString().getAsInteger(10, value);
  return value;
}

} // namespace compiler
