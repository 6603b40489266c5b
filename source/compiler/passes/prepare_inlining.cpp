// Makes helper functions internal and always-inline so that each kernel
// becomes one self-contained function (OpenCL C forbids recursion).
// Functions from the builtins library are left to the optimiser's inlining
// heuristics (a large math function called in several places stays one
// function), except those the library itself marks always-inline: they
// synchronise the work-group or read work-item state.
#include "compiler/builtin_library.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

namespace compiler {

llvm::PreservedAnalyses PrepareInliningPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.removeFnAttr(llvm::Attribute::NoInline);
    changed = true;
    if (isKernel(function))
      continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    if (function.hasFnAttribute(kBuiltinLibraryAttribute))
      continue;
    function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
