#include "structured_control_flow.h"

#include "build_failure.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace compiler::spirv {
namespace {

llvm::Error unstructured(const llvm::Function &function, const llvm::Twine &what) {
  return buildFailure("error: " + function.getName() + ": SPIR-V emission does not support this control flow (" + what +
                      ")");
}

/// Gives each loop header a block of its own holding only its phis, so that
/// the OpLoopMerge block ends in an unconditional branch.
void splitLoopHeaders(llvm::Function &function) {
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::SmallVector<llvm::BasicBlock *, 8> headers;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    headers.push_back(loop->getHeader());
  for (llvm::BasicBlock *header : headers)
    if (!llvm::isa<llvm::BranchInst>(header->getFirstNonPHIIt()) ||
        llvm::cast<llvm::BranchInst>(header->getFirstNonPHIIt())->isConditional())
      llvm::SplitBlock(header, header->getFirstNonPHIIt());
}

/// Moves the edges from blocks dominated by `header` into `target` onto a
/// new block in front of `target`, which becomes `header`'s own merge.
llvm::BasicBlock *privateMerge(llvm::BasicBlock *target, llvm::BasicBlock *header,
                               const llvm::DominatorTree &dominators) {
  llvm::SmallVector<llvm::BasicBlock *, 4> inside;
  for (llvm::BasicBlock *predecessor : llvm::predecessors(target))
    if (dominators.dominates(header, predecessor))
      inside.push_back(predecessor);
  return llvm::SplitBlockPredecessors(target, inside, ".merge");
}

} // namespace

llvm::Expected<StructuredFunction> structureControlFlow(llvm::Function &function) {
  splitLoopHeaders(function);
  StructuredFunction result;
  // Each split changes the CFG: start over until every header has a merge
  // block of its own. A function has few headers, so this stays cheap.
  for (bool changed = true; changed;) {
    changed = false;
    result.headers.clear();
    llvm::DominatorTree dominators(function);
    llvm::PostDominatorTree postDominators(function);
    llvm::LoopInfo loops(dominators);
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> claimed;
    for (llvm::Loop *loop : loops.getLoopsInPreorder())
      if (llvm::BasicBlock *latch = loop->getLoopLatch())
        claimed.insert(latch);
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function);
    for (llvm::BasicBlock *block : order) {
      StructuredBlock info;
      if (llvm::Loop *loop = loops.getLoopFor(block); loop && loop->getHeader() == block) {
        llvm::BasicBlock *latch = loop->getLoopLatch();
        llvm::BasicBlock *exit = loop->getExitBlock();
        if (!latch)
          return unstructured(function, "a loop with several back edges");
        if (!exit)
          return unstructured(function, "a loop with several exits");
        info = {exit, latch};
      } else if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
                 branch && branch->isConditional()) {
        llvm::Loop *loop = loops.getLoopFor(block);
        // The back-edge block's branch to the header or out of the loop
        // needs no merge instruction.
        if (loop && loop->getLoopLatch() == block)
          continue;
        llvm::DomTreeNode *node = postDominators.getNode(block);
        if (!node || !node->getIDom() || !node->getIDom()->getBlock())
          return unstructured(function, "a branch without a common successor");
        info.merge = node->getIDom()->getBlock();
      } else {
        continue;
      }
      if (!claimed.insert(info.merge).second) {
        privateMerge(info.merge, block, dominators);
        changed = true;
        break;
      }
      result.headers[block] = info;
    }
  }
  for (llvm::BasicBlock *block : llvm::ReversePostOrderTraversal<llvm::Function *>(&function))
    result.order.push_back(block);
  return result;
}

} // namespace compiler::spirv
