// Rejects kernels that need work-group synchronisation, which the work-item
// loops cannot provide yet: barriers and __local variables.
#include "compiler/passes.h"

#include "mux/status.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

namespace compiler {
namespace {

bool isBarrier(llvm::StringRef name) {
  return name.starts_with("_Z7barrier") || name.contains("work_group_barrier") || name.contains("sub_group_barrier");
}

/// Clang gives __local variables no initializer (undef); every other
/// program-scope or static variable is initialised (zero by default).
bool isLocalVariable(const llvm::GlobalVariable &variable) {
  return variable.hasInitializer() && llvm::isa<llvm::UndefValue>(variable.getInitializer());
}

} // namespace

llvm::Error checkSupportedFeatures(const llvm::Module &module) {
  llvm::SmallVector<std::string, 4> problems;
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && isBarrier(function.getName()) && !function.use_empty())
      problems.push_back("barriers (" + function.getName().str() + ")");
  llvm::SmallVector<std::string, 4> locals;
  for (const llvm::GlobalVariable &variable : module.globals())
    if (isLocalVariable(variable))
      locals.push_back(variable.getName().str());
  if (!locals.empty())
    problems.push_back("__local variables (" + llvm::join(locals, ", ") + ")");
  if (problems.empty())
    return llvm::Error::success();
  return mux::makeError(mux::Status::Unsupported,
                        "error: " + llvm::join(problems, " and ") + " are not supported yet on this device");
}

} // namespace compiler
