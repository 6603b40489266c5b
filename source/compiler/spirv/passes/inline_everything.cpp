// SPIR-V for Vulkan has no function pointers and Polymux emits each kernel
// as one function: every other function is inlined. What cannot be inlined
// is a recursive call, which fails the build naming the function.
#include "passes/vulkan_passes.h"

#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler::spirv {

llvm::PreservedAnalyses InlineEverythingPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.removeFnAttr(llvm::Attribute::NoInline);
    if (isKernel(function))
      continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  // Call sites may say noinline too (SPIR-V's DontInline function control,
  // as llvm-spirv translates it, marks the calls as well as the function).
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        call->removeFnAttr(llvm::Attribute::NoInline);
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses CheckFullyInlinedPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration() || !isKernel(function))
      continue;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
          reportBuildError(module, "error: " + function.getName() + ": the call to '" + callee->getName() +
                                       "' cannot be inlined: recursion is not supported on Vulkan devices");
  }
  return llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
