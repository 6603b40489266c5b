// Lists the functions a finalized module still calls without a definition:
// builtins the compiler does not provide yet.
#include "compiler/passes.h"

#include "mux/status.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

namespace compiler {
namespace {

/// Functions the executor provides (the C library's memory functions, which
/// LLVM itself may introduce for large copies).
bool providedByExecutor(llvm::StringRef name) { return name == "memcpy" || name == "memset" || name == "memmove"; }

} // namespace

llvm::Error checkUnresolvedSymbols(const llvm::Module &module) {
  llvm::SmallVector<std::string, 8> missing;
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty() ||
        providedByExecutor(function.getName()))
      continue;
    std::string name = function.getName().str();
    std::string demangled = llvm::demangle(name);
    missing.push_back(demangled == name ? name : demangled + " [" + name + "]");
  }
  // extern program-scope variables that no linked object defines.
  llvm::SmallVector<std::string, 4> undefinedVariables;
  for (const llvm::GlobalVariable &variable : module.globals())
    if (variable.isDeclaration() && !variable.use_empty())
      undefinedVariables.push_back(variable.getName().str());
  if (!undefinedVariables.empty())
    return mux::makeError(mux::Status::Failure,
                          "error: undefined program-scope variables: " + llvm::join(undefinedVariables, ", "));
  if (missing.empty())
    return llvm::Error::success();
  return mux::makeError(mux::Status::Failure,
                        "error: the program uses builtins or functions this device does not provide yet: " +
                            llvm::join(missing, ", "));
}

} // namespace compiler
