// Makes helper functions internal and always-inline so that each kernel
// becomes one self-contained function (OpenCL C forbids recursion).
// Functions from the builtins library are left to the optimiser's inlining
// heuristics (a large math function called in several places stays one
// function), except those the library itself marks always-inline: they
// synchronise the work-group or read work-item state.
#include "compiler/builtin_library.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

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
  // Call sites may say noinline too, which the always-inliner obeys: SPIR-V's
  // DontInline, as llvm-spirv translates it, marks the calls as well as the
  // function (Clang's SPIR-V at -O0 calls each kernel's body that way, and
  // the work-item builtins in it resolve only once it is inlined).
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (callee && callee->hasFnAttribute(llvm::Attribute::AlwaysInline) &&
          call->hasFnAttr(llvm::Attribute::NoInline)) {
        call->removeFnAttr(llvm::Attribute::NoInline);
        changed = true;
      }
    }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
