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

/// A loop whose exit differs between lanes: it runs while any lane is
/// still in it, each lane masked off once it has left.
struct DivergentLoop {
  llvm::BasicBlock *preheader;
  llvm::BasicBlock *exiting;                       ///< its only exiting block: the header or the latch
  llvm::BasicBlock *exit;                          ///< its only exit block
  llvm::SmallVector<llvm::BasicBlock *, 8> blocks; ///< header first, latch last
};

struct DivergentRegion {
  llvm::BasicBlock *head; ///< the divergent branch's block
  llvm::BasicBlock *join; ///< its immediate post-dominator
  /// Between them, in chain order; a loop inside stands there as its header.
  llvm::SmallVector<llvm::BasicBlock *, 8> blocks;
  llvm::SmallVector<DivergentLoop, 1> loops; ///< the loops inside, run as divergent loops
};

struct DivergentCode {
  llvm::SmallVector<DivergentRegion, 4> regions;
  llvm::SmallVector<DivergentLoop, 2> loops;
};

llvm::Error unsupported(const llvm::Twine &reason) {
  return mux::makeError(mux::Status::Unsupported, "not vectorised: " + reason.str());
}

class Linearizer {
public:
  Linearizer(llvm::Function &function, WorkItemUniformity &uniformity)
      : function_(function), uniformity_(uniformity), context_(function.getContext()) {}

  llvm::Expected<BlockMasks> run() {
    // Phis at joins of divergent branches (and in divergent loops' bodies)
    // are varying, which may make more branches divergent: look again
    // until nothing changes.
    DivergentCode code;
    for (;;) {
      llvm::Expected<DivergentCode> found = findDivergentCode();
      if (!found)
        return found.takeError();
      bool changed = false;
      auto markPhis = [&](llvm::BasicBlock *block) {
        for (llvm::PHINode &phi : block->phis())
          if (!uniformity_.isVarying(&phi)) {
            uniformity_.markVarying(&phi);
            changed = true;
          }
      };
      for (const DivergentRegion &region : found->regions) {
        for (llvm::BasicBlock *block : region.blocks)
          markPhis(block);
        markPhis(region.join);
      }
      for (const DivergentLoop &loop : found->loops)
        for (llvm::BasicBlock *block : llvm::drop_begin(loop.blocks))
          markPhis(block);
      if (!changed) {
        code = std::move(*found);
        break;
      }
    }
    for (DivergentRegion &region : code.regions)
      linearize(region);
    for (DivergentLoop &loop : code.loops)
      linearize(loop);
    uniformity_.recompute();
    return std::move(masks_);
  }

private:
  llvm::Expected<DivergentCode> findDivergentCode() {
    llvm::DominatorTree dominators(function_);
    llvm::PostDominatorTree postDominators(function_);
    llvm::LoopInfo loops(dominators);
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function_);
    llvm::DenseMap<llvm::BasicBlock *, unsigned> position;
    for (llvm::BasicBlock *block : order)
      position[block] = position.size();

    DivergentCode code;
    // Branches inside loops that run masked are linearised with the loop.
    llvm::SmallPtrSet<llvm::BasicBlock *, 32> covered;
    llvm::SmallVector<llvm::Loop *, 4> divergentLoops;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
      loop->getExitingBlocks(exiting);
      if (llvm::none_of(exiting,
                        [&](llvm::BasicBlock *block) { return uniformity_.isDivergent(block->getTerminator()); }))
        continue;
      covered.insert(loop->block_begin(), loop->block_end());
      divergentLoops.push_back(loop);
    }
    llvm::SmallPtrSet<llvm::BasicBlock *, 32> inRegions;
    llvm::SmallVector<DivergentRegion, 4> &regions = code.regions;
    for (llvm::BasicBlock *head : order) {
      if (covered.contains(head) || !uniformity_.isDivergent(head->getTerminator()))
        continue;
      llvm::DomTreeNode *node = postDominators.getNode(head);
      if (!node || !node->getIDom() || !node->getIDom()->getBlock())
        return unsupported("a divergent branch has no join");
      DivergentRegion region{head, node->getIDom()->getBlock(), {}, {}};
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
      // Each block stands for itself, or for the loop inside it belongs to.
      llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> standsFor;
      for (llvm::BasicBlock *block : inside) {
        for (llvm::BasicBlock *predecessor : llvm::predecessors(block))
          if (predecessor != head && !inside.contains(predecessor))
            return unsupported("divergent control flow entered from outside its branch");
        llvm::Loop *loop = loops.getLoopFor(block);
        while (loop && loop->getParentLoop() && inside.contains(loop->getParentLoop()->getHeader()))
          loop = loop->getParentLoop();
        if (!loop || !inside.contains(loop->getHeader())) {
          standsFor[block] = block;
          continue;
        }
        standsFor[block] = loop->getHeader();
        if (block != loop->getHeader())
          continue;
        llvm::Expected<DivergentLoop> divergent = describeDivergentLoop(*loop, position);
        if (!divergent)
          return divergent.takeError();
        if (divergent->exit != region.join && !inside.contains(divergent->exit))
          return unsupported("a loop leaves divergent control flow");
        region.loops.push_back(std::move(*divergent));
      }
      llvm::Expected<llvm::SmallVector<llvm::BasicBlock *, 8>> chain = chainOrder(inside, standsFor, region, position);
      if (!chain)
        return chain.takeError();
      region.blocks = std::move(*chain);
      covered.insert(head);
      covered.insert(inside.begin(), inside.end());
      inRegions.insert(inside.begin(), inside.end());
      regions.push_back(std::move(region));
    }
    for (llvm::Loop *loop : divergentLoops) {
      if (inRegions.contains(loop->getHeader()))
        continue; // runs as part of its region
      llvm::Expected<DivergentLoop> divergent = describeDivergentLoop(*loop, position);
      if (!divergent)
        return divergent.takeError();
      code.loops.push_back(std::move(*divergent));
    }
    return code;
  }

  /// The order in which a region's blocks run: a topological order of its
  /// blocks with each loop inside collapsed into its header (the loop's
  /// exit block follows the loop), earliest in reverse post-order first.
  llvm::Expected<llvm::SmallVector<llvm::BasicBlock *, 8>>
  chainOrder(const llvm::SmallSetVector<llvm::BasicBlock *, 16> &inside,
             const llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> &node, const DivergentRegion &region,
             const llvm::DenseMap<llvm::BasicBlock *, unsigned> &position) {
    llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>> successors;
    llvm::DenseMap<llvm::BasicBlock *, unsigned> incoming;
    llvm::SmallSetVector<llvm::BasicBlock *, 16> nodes;
    for (llvm::BasicBlock *block : inside)
      nodes.insert(node.lookup(block));
    auto addEdge = [&](llvm::BasicBlock *from, llvm::BasicBlock *to) {
      if (!inside.contains(to))
        return;
      llvm::BasicBlock *target = node.lookup(to);
      if (target == from)
        return;
      successors[from].push_back(target);
      ++incoming[target];
    };
    auto isLoop = [&](llvm::BasicBlock *block) {
      return llvm::any_of(region.loops, [&](const DivergentLoop &loop) { return loop.blocks.front() == block; });
    };
    for (llvm::BasicBlock *block : inside)
      if (node.lookup(block) == block && !isLoop(block))
        for (llvm::BasicBlock *successor : llvm::successors(block))
          addEdge(block, successor);
    for (const DivergentLoop &loop : region.loops)
      addEdge(loop.blocks.front(), loop.exit);
    llvm::SmallVector<llvm::BasicBlock *, 8> order;
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> placed;
    while (order.size() < nodes.size()) {
      llvm::BasicBlock *next = nullptr;
      for (llvm::BasicBlock *candidate : nodes)
        if (!placed.contains(candidate) && incoming.lookup(candidate) == 0 &&
            (!next || position.lookup(candidate) < position.lookup(next)))
          next = candidate;
      if (!next)
        return unsupported("irreducible divergent control flow");
      order.push_back(next);
      placed.insert(next);
      for (llvm::BasicBlock *successor : successors.lookup(next))
        --incoming[successor];
    }
    return order;
  }

  /// Checks that `loop`, whose exit is divergent, has the shape the
  /// linearisation handles: no inner loop, not inside another divergent
  /// loop, one exiting block (the header or the latch) and one exit block,
  /// reducible.
  llvm::Expected<DivergentLoop> describeDivergentLoop(llvm::Loop &loop,
                                                      const llvm::DenseMap<llvm::BasicBlock *, unsigned> &position) {
    if (!loop.getSubLoops().empty())
      return unsupported("a loop inside a loop whose exit differs between work-items");
    for (llvm::Loop *parent = loop.getParentLoop(); parent; parent = parent->getParentLoop()) {
      llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
      parent->getExitingBlocks(exiting);
      for (llvm::BasicBlock *block : exiting)
        if (uniformity_.isDivergent(block->getTerminator()))
          return unsupported("a loop inside a loop whose exit differs between work-items");
    }
    llvm::BasicBlock *header = loop.getHeader(), *latch = loop.getLoopLatch();
    llvm::BasicBlock *exiting = loop.getExitingBlock(), *exit = loop.getUniqueExitBlock();
    if (!loop.getLoopPreheader() || !latch || !exiting || !exit || (exiting != header && exiting != latch) ||
        exit->getSinglePredecessor() != exiting)
      return unsupported("a loop whose exit differs between work-items has more than one exit");
    DivergentLoop result{loop.getLoopPreheader(), exiting, exit, {}};
    result.blocks.assign(loop.block_begin(), loop.block_end());
    llvm::sort(result.blocks,
               [&](llvm::BasicBlock *a, llvm::BasicBlock *b) { return position.lookup(a) < position.lookup(b); });
    if (result.blocks.front() != header || result.blocks.back() != latch)
      return unsupported("irreducible divergent loop");
    for (llvm::BasicBlock *block : result.blocks)
      for (llvm::BasicBlock *successor : llvm::successors(block))
        if (loop.contains(successor) && successor != header && position.lookup(successor) <= position.lookup(block))
          return unsupported("irreducible divergent loop");
    return result;
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

  /// Gives a block that is about to be chained its mask (the lanes that
  /// come along any of its incoming edges) and makes its phis selects on
  /// the edge masks.
  void maskBlock(llvm::BasicBlock *block) {
    llvm::SmallSetVector<llvm::BasicBlock *, 4> predecessors(llvm::pred_begin(block), llvm::pred_end(block));
    llvm::IRBuilder<> builder(block, block->getFirstInsertionPt());
    llvm::Value *mask = nullptr;
    for (llvm::BasicBlock *predecessor : predecessors) {
      llvm::Value *edge = edgeMask(predecessor, block);
      mask = mask ? builder.CreateOr(mask, edge, block->getName() + ".mask") : edge;
    }
    masks_[block] = mask;
    // After the mask, which the widener needs before any other instruction
    // of the block.
    llvm::Instruction *position = &*builder.GetInsertPoint();
    for (llvm::PHINode &phi : llvm::make_early_inc_range(block->phis())) {
      phi.replaceAllUsesWith(selectIncoming(phi, predecessors.getArrayRef(), position));
      phi.eraseFromParent();
    }
  }

  void linearize(const DivergentRegion &region) {
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> inRegion(region.blocks.begin(), region.blocks.end());
    inRegion.insert(region.head);
    // Each loop inside runs for the lanes that reach it, and all of them
    // leave it through its exit test.
    llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> loopTests; ///< header -> exit test
    auto loopAt = [&](llvm::BasicBlock *block) -> const DivergentLoop * {
      for (const DivergentLoop &loop : region.loops)
        if (loop.blocks.front() == block)
          return &loop;
      return nullptr;
    };
    // Every edge mask is needed before the terminators change.
    for (llvm::BasicBlock *block : region.blocks) {
      if (const DivergentLoop *loop = loopAt(block)) {
        llvm::Value *entry = maskOf(loop->preheader);
        llvm::BasicBlock *test = linearize(*loop);
        edgeMasks_[{test, loop->exit}] = entry;
        loopTests[block] = test;
        inRegion.insert(test);
        continue;
      }
      maskBlock(block);
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
    // The chain: head, blocks..., blend, join; a loop is entered at its
    // header and left from its exit test.
    llvm::BasicBlock *previous = region.head;
    llvm::SmallPtrSet<llvm::BasicBlock *, 4> tests;
    auto chainTo = [&](llvm::BasicBlock *next) {
      if (tests.contains(previous)) {
        llvm::cast<llvm::BranchInst>(previous->getTerminator())->setSuccessor(1, next);
      } else {
        previous->getTerminator()->eraseFromParent();
        llvm::BranchInst::Create(next, previous);
      }
      if (const DivergentLoop *loop = loopAt(next)) {
        next->replacePhiUsesWith(loop->preheader, previous);
        previous = loopTests.lookup(next);
        tests.insert(previous);
        return;
      }
      previous = next;
    };
    for (llvm::BasicBlock *block : region.blocks)
      chainTo(block);
    chainTo(blend);
  }

  /// Runs the loop while any lane is in it: `active` (a header phi) holds
  /// the lanes still looping, the body is one masked chain from the header
  /// to the latch, and each value used after the loop is kept per lane as
  /// it was when the lane left.
  llvm::BasicBlock *linearize(const DivergentLoop &loop) {
    llvm::BasicBlock *header = loop.blocks.front(), *latch = loop.blocks.back();
    llvm::BasicBlock *preheader = loop.preheader;
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> inLoop(loop.blocks.begin(), loop.blocks.end());
    llvm::IRBuilder<> builder(header, header->begin());
    llvm::PHINode *active = builder.CreatePHI(builder.getInt1Ty(), 2, "lanes.active");
    active->addIncoming(maskOf(preheader), preheader);
    masks_[header] = active;
    for (llvm::BasicBlock *block : llvm::drop_begin(loop.blocks))
      maskBlock(block);
    // The lanes that leave in this iteration, and those that go on.
    llvm::Value *leaving = edgeMask(loop.exiting, loop.exit);
    llvm::BasicBlock *next = loop.exiting == latch ? header : loop.blocks[1];
    llvm::Value *staying = edgeMask(loop.exiting, next);
    llvm::Value *activeNext = loop.exiting == latch ? staying : maskOf(latch);
    // The exit test gets a block of its own, which every lane runs (the
    // widener may skip a masked block, but lanes that left earlier still
    // need their kept values).
    llvm::BasicBlock *test =
        loop.exiting->splitBasicBlock(loop.exiting->getTerminator(), loop.exiting->getName() + ".exit.test");
    llvm::BasicBlock *backEdge = loop.exiting == latch ? test : latch;
    active->addIncoming(activeNext, backEdge);
    // Values used after the loop: each lane's value when it left.
    llvm::IRBuilder<> testBuilder(test->getTerminator());
    for (llvm::BasicBlock *block : loop.blocks)
      for (llvm::Instruction &value : *block) {
        if (&value == active || value.getType()->isVoidTy() || value.getType()->isTokenTy())
          continue;
        bool usedOutside = llvm::any_of(value.users(), [&](llvm::User *user) {
          llvm::BasicBlock *where = llvm::cast<llvm::Instruction>(user)->getParent();
          return where != test && !inLoop.contains(where);
        });
        if (!usedOutside)
          continue;
        llvm::PHINode *kept = llvm::PHINode::Create(value.getType(), 2, value.getName() + ".kept");
        kept->insertBefore(header->getFirstNonPHIIt());
        kept->addIncoming(llvm::Constant::getNullValue(value.getType()), preheader);
        llvm::Value *keptNext = testBuilder.CreateSelect(leaving, &value, kept, value.getName() + ".left");
        kept->addIncoming(keptNext, backEdge);
        value.replaceUsesWithIf(keptNext, [&](llvm::Use &use) {
          llvm::BasicBlock *where = llvm::cast<llvm::Instruction>(use.getUser())->getParent();
          return use.getUser() != keptNext && where != test && !inLoop.contains(where);
        });
      }
    // The chain header, ..., latch; the exit test loops while any lane
    // stays.
    llvm::Value *any = testBuilder.CreateCall(anyLaneFunction(*function_.getParent()), {staying}, "any.staying");
    llvm::BranchInst::Create(next, loop.exit, any, test->getTerminator()->getIterator());
    test->getTerminator()->eraseFromParent();
    for (auto [index, block] : llvm::enumerate(loop.blocks)) {
      if (block == loop.exiting)
        continue; // ends with the branch to its exit test
      llvm::Instruction *terminator = block->getTerminator();
      llvm::BranchInst::Create(block == latch ? header : loop.blocks[index + 1], terminator->getIterator());
      terminator->eraseFromParent();
    }
    return test;
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
