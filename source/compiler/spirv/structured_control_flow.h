// The merge and continue blocks of SPIR-V's structured control flow, derived
// from a function whose CFG LLVM's structurizer has already made structured
// (lower-switch, mergereturn, fix-irreducible, unify-loop-exits,
// structurizecfg; see vulkan_pipeline.cpp).
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

namespace compiler::spirv {

struct StructuredBlock {
  /// OpSelectionMerge or OpLoopMerge operand; null when the block's
  /// terminator needs no merge instruction.
  llvm::BasicBlock *merge = nullptr;
  /// Set for a loop header (OpLoopMerge).
  llvm::BasicBlock *continueTarget = nullptr;
};

struct StructuredFunction {
  llvm::DenseMap<const llvm::BasicBlock *, StructuredBlock> headers;
  /// Blocks in an order where each block's dominators come first.
  std::vector<llvm::BasicBlock *> order;
};

/// Splits blocks of `function` where SPIR-V needs a distinct block (a loop
/// header holds only its phis and the merge instruction; no block is the
/// merge of two headers or both a merge and a continue target) and returns
/// the headers' merge and continue blocks. Fails, naming the function, on a
/// loop with several latches or exits.
llvm::Expected<StructuredFunction> structureControlFlow(llvm::Function &function);

} // namespace compiler::spirv
