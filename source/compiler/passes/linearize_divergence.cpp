// Divergent branches to masks (see the header).
//
// A divergent region is the set of blocks reachable from a divergent branch
// B before its immediate post-dominator P. Regions nest (P post-dominates
// every block of B's region), so only the outermost ones are linearised;
// the branches inside one, divergent or uniform, are linearised with it.
// The chain follows the function's reverse post-order, a topological order
// of the acyclic region in which every block comes after the blocks that
// dominate it, so every value still dominates its uses.
#include "linearize_divergence.h"

#include "mux/status.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace compiler {
namespace {

struct DivergentRegion {
  llvm::BasicBlock *head;                          ///< the divergent branch's block
  llvm::BasicBlock *join;                          ///< its immediate post-dominator
  llvm::SmallVector<llvm::BasicBlock *, 8> blocks; ///< between them, in chain order
};

llvm::Error unsupported(const llvm::Twine &reason) {
  return mux::makeError(mux::Status::Unsupported, "not vectorised: " + reason.str());
}

class Linearizer {
public:
  Linearizer(llvm::Function &function, WorkItemUniformity &uniformity)
      : function_(function), uniformity_(uniformity), context_(function.getContext()) {}

  llvm::Expected<BlockMasks> run() {
    // Phis at joins of divergent branches are varying, which may make more
    // branches divergent: find the regions until nothing changes.
    llvm::SmallVector<DivergentRegion, 4> regions;
    for (;;) {
      llvm::Expected<llvm::SmallVector<DivergentRegion, 4>> found = findRegions();
      if (!found)
        return found.takeError();
      bool changed = false;
      for (const DivergentRegion &region : *found) {
        auto markPhis = [&](llvm::BasicBlock *block) {
          for (llvm::PHINode &phi : block->phis())
            if (!uniformity_.isVarying(&phi)) {
              uniformity_.markVarying(&phi);
              changed = true;
            }
        };
        for (llvm::BasicBlock *block : region.blocks)
          markPhis(block);
        markPhis(region.join);
      }
      if (!changed) {
        regions = std::move(*found);
        break;
      }
    }
    for (DivergentRegion &region : regions)
      linearize(region);
    uniformity_.recompute();
    return std::move(masks_);
  }

private:
  llvm::Expected<llvm::SmallVector<DivergentRegion, 4>> findRegions() {
    llvm::DominatorTree dominators(function_);
    llvm::PostDominatorTree postDominators(function_);
    llvm::LoopInfo loops(dominators);
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
      loop->getExitingBlocks(exiting);
      for (llvm::BasicBlock *block : exiting)
        if (uniformity_.isDivergent(block->getTerminator()))
          return unsupported("a loop's exit differs between work-items");
    }
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function_);
    llvm::DenseMap<llvm::BasicBlock *, unsigned> position;
    for (llvm::BasicBlock *block : order)
      position[block] = position.size();

    llvm::SmallVector<DivergentRegion, 4> regions;
    llvm::SmallPtrSet<llvm::BasicBlock *, 32> covered;
    for (llvm::BasicBlock *head : order) {
      if (covered.contains(head) || !uniformity_.isDivergent(head->getTerminator()))
        continue;
      llvm::DomTreeNode *node = postDominators.getNode(head);
      if (!node || !node->getIDom() || !node->getIDom()->getBlock())
        return unsupported("a divergent branch has no join");
      DivergentRegion region{head, node->getIDom()->getBlock(), {}};
      llvm::SmallSetVector<llvm::BasicBlock *, 16> inside;
      llvm::SmallVector<llvm::BasicBlock *, 16> worklist(llvm::successors(head));
      while (!worklist.empty()) {
        llvm::BasicBlock *block = worklist.pop_back_val();
        if (block == region.join || !inside.insert(block))
          continue;
        if (block == head)
          return unsupported("divergent control flow loops back to its branch");
        llvm::append_range(worklist, llvm::successors(block));
      }
      for (llvm::BasicBlock *block : inside) {
        if (loops.isLoopHeader(block))
          return unsupported("a loop inside divergent control flow");
        for (llvm::BasicBlock *predecessor : llvm::predecessors(block))
          if (predecessor != head && !inside.contains(predecessor))
            return unsupported("divergent control flow entered from outside its branch");
        for (llvm::BasicBlock *successor : llvm::successors(block))
          if (successor != region.join && position[successor] <= position[block])
            return unsupported("irreducible divergent control flow");
      }
      region.blocks.assign(inside.begin(), inside.end());
      llvm::sort(region.blocks, [&](llvm::BasicBlock *a, llvm::BasicBlock *b) { return position[a] < position[b]; });
      covered.insert(head);
      covered.insert(inside.begin(), inside.end());
      regions.push_back(std::move(region));
    }
    return regions;
  }

  llvm::Value *maskOf(llvm::BasicBlock *block) const {
    auto found = masks_.find(block);
    return found == masks_.end() ? llvm::ConstantInt::getTrue(context_) : found->second;
  }

  /// The lanes that go from `from` to `to`, computed at the end of `from`
  /// (before its terminator is replaced).
  llvm::Value *edgeMask(llvm::BasicBlock *from, llvm::BasicBlock *to) {
    auto key = std::make_pair(from, to);
    if (auto found = edgeMasks_.find(key); found != edgeMasks_.end())
      return found->second;
    llvm::Instruction *terminator = from->getTerminator();
    llvm::IRBuilder<> builder(terminator);
    llvm::Value *taken = nullptr; // nullptr: every lane that runs `from`
    if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator); branch && branch->isConditional()) {
      bool toTrue = branch->getSuccessor(0) == to, toFalse = branch->getSuccessor(1) == to;
      if (toTrue != toFalse)
        taken = toTrue ? branch->getCondition() : builder.CreateNot(branch->getCondition(), "edge.not");
    } else if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(terminator)) {
      llvm::Value *condition = switchInst->getCondition();
      if (switchInst->getDefaultDest() == to) {
        llvm::Value *other = builder.getFalse();
        for (auto &choice : switchInst->cases())
          if (choice.getCaseSuccessor() != to)
            other = builder.CreateOr(other, builder.CreateICmpEQ(condition, choice.getCaseValue()));
        taken = builder.CreateNot(other, "edge.default");
      } else {
        taken = builder.getFalse();
        for (auto &choice : switchInst->cases())
          if (choice.getCaseSuccessor() == to)
            taken = builder.CreateOr(taken, builder.CreateICmpEQ(condition, choice.getCaseValue()), "edge.case");
      }
    }
    llvm::Value *mask = maskOf(from);
    llvm::Value *result = !taken ? mask
                          : llvm::isa<llvm::Constant>(mask) && llvm::cast<llvm::Constant>(mask)->isAllOnesValue()
                              ? taken
                              : builder.CreateAnd(mask, taken, "edge.mask");
    edgeMasks_[key] = result;
    return result;
  }

  /// The value that `phi` takes, as a chain of selects on the masks of the
  /// edges from `predecessors` (all of its incoming blocks that are given),
  /// built before `position`.
  llvm::Value *selectIncoming(llvm::PHINode &phi, llvm::ArrayRef<llvm::BasicBlock *> predecessors,
                              llvm::Instruction *position) {
    llvm::IRBuilder<> builder(position);
    llvm::Value *value = nullptr;
    for (llvm::BasicBlock *predecessor : predecessors) {
      llvm::Value *incoming = phi.getIncomingValueForBlock(predecessor);
      value = !value ? incoming
                     : builder.CreateSelect(edgeMask(predecessor, phi.getParent()), incoming, value,
                                            phi.getName() + ".blend");
    }
    return value;
  }

  void linearize(const DivergentRegion &region) {
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> inRegion(region.blocks.begin(), region.blocks.end());
    inRegion.insert(region.head);
    // Every edge mask is needed before the terminators change.
    for (llvm::BasicBlock *block : region.blocks) {
      llvm::SmallSetVector<llvm::BasicBlock *, 4> predecessors(llvm::pred_begin(block), llvm::pred_end(block));
      llvm::IRBuilder<> builder(block, block->getFirstInsertionPt());
      llvm::Value *mask = nullptr;
      for (llvm::BasicBlock *predecessor : predecessors) {
        llvm::Value *edge = edgeMask(predecessor, block);
        mask = mask ? builder.CreateOr(mask, edge, block->getName() + ".mask") : edge;
      }
      masks_[block] = mask;
      // After the mask, which the widener needs before any other
      // instruction of the block.
      llvm::Instruction *position = &*builder.GetInsertPoint();
      for (llvm::PHINode &phi : llvm::make_early_inc_range(block->phis())) {
        llvm::Value *value = selectIncoming(phi, predecessors.getArrayRef(), position);
        phi.replaceAllUsesWith(value);
        phi.eraseFromParent();
      }
    }
    // The join's phis are blended in a block of their own, which every lane
    // runs (the region's last block may be skipped when no lane runs it).
    auto *blend = llvm::BasicBlock::Create(context_, region.join->getName() + ".blend", &function_, region.join);
    llvm::BranchInst *toJoin = llvm::BranchInst::Create(region.join, blend);
    llvm::SmallSetVector<llvm::BasicBlock *, 4> joinPredecessors;
    for (llvm::BasicBlock *predecessor : llvm::predecessors(region.join))
      if (inRegion.contains(predecessor))
        joinPredecessors.insert(predecessor);
    for (llvm::PHINode &phi : region.join->phis()) {
      llvm::Value *value = selectIncoming(phi, joinPredecessors.getArrayRef(), toJoin);
      phi.removeIncomingValueIf([&](unsigned i) { return inRegion.contains(phi.getIncomingBlock(i)); },
                                /*DeletePHIIfEmpty=*/false);
      phi.addIncoming(value, blend);
    }
    // The chain: head, blocks..., blend, join.
    llvm::BasicBlock *previous = region.head;
    auto chainTo = [&](llvm::BasicBlock *next) {
      previous->getTerminator()->eraseFromParent();
      llvm::BranchInst::Create(next, previous);
      previous = next;
    };
    for (llvm::BasicBlock *block : region.blocks)
      chainTo(block);
    chainTo(blend);
  }

  llvm::Function &function_;
  WorkItemUniformity &uniformity_;
  llvm::LLVMContext &context_;
  BlockMasks masks_;
  llvm::DenseMap<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, llvm::Value *> edgeMasks_;
};

} // namespace

llvm::Expected<BlockMasks> linearizeDivergentControlFlow(llvm::Function &function, WorkItemUniformity &uniformity) {
  return Linearizer(function, uniformity).run();
}

} // namespace compiler
