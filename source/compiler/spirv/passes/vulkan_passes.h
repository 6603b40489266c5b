// IR passes specific to the vulkan target (LLVM new pass manager), one per
// file; vulkan_pipeline.cpp runs them.
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace compiler::spirv {

/// Makes every defined non-kernel function internal and always-inline.
struct InlineEverythingPass : llvm::PassInfoMixin<InlineEverythingPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

/// After the inliner: reports (reportBuildError) every call left in a
/// kernel to a defined function, i.e. recursion.
struct CheckFullyInlinedPass : llvm::PassInfoMixin<CheckFullyInlinedPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
};

} // namespace compiler::spirv
