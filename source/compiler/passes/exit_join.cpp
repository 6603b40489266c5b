// Finds where a work-item that left at a kernel_exit rejoins its work-group
// (exit_join.h). The post-dominators are computed as bit sets on the CFG
// without the exit's region: LLVM's post-dominator tree cannot leave blocks
// out, and kernels have few blocks and fewer exits.
#include "exit_join.h"

#include "compiler/passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace compiler {

ExitJoin findExitJoin(llvm::Function &function, llvm::BasicBlock &exitBlock) {
  // The blocks reachable from the entry, numbered; nothing runs after the
  // exit call, so the exit block has no successors here.
  llvm::SmallVector<llvm::BasicBlock *, 32> blocks{&function.getEntryBlock()};
  llvm::DenseMap<llvm::BasicBlock *, unsigned> number{{blocks.front(), 0}};
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i] != &exitBlock)
      for (llvm::BasicBlock *successor : llvm::successors(blocks[i]))
        if (number.try_emplace(successor, blocks.size()).second)
          blocks.push_back(successor);
  auto exitNumber = number.find(&exitBlock);
  if (exitNumber == number.end())
    return {}; // dead code: nobody gets there
  const unsigned count = blocks.size();
  std::vector<llvm::SmallVector<unsigned, 2>> next(count), previous(count);
  for (unsigned block = 0; block < count; ++block)
    if (blocks[block] != &exitBlock)
      for (llvm::BasicBlock *successor : llvm::successors(blocks[block])) {
        next[block].push_back(number[successor]);
        previous[number[successor]].push_back(block);
      }

  // The exit's region: blocks every successor of which is in it (a least
  // fixpoint, so it holds no cycle).
  llvm::BitVector region(count);
  region.set(exitNumber->second);
  llvm::SmallVector<unsigned, 16> work{exitNumber->second};
  while (!work.empty())
    for (unsigned block : previous[work.pop_back_val()])
      if (!region[block] && llvm::all_of(next[block], [&](unsigned successor) { return region[successor]; })) {
        region.set(block);
        work.push_back(block);
      }
  if (region[0])
    return {};

  ExitJoin join;
  llvm::SmallVector<unsigned, 4> branches;
  for (unsigned block = 0; block < count; ++block) {
    if (region[block] || llvm::none_of(next[block], [&](unsigned successor) { return region[successor]; }))
      continue;
    branches.push_back(block);
    for (unsigned successor : next[block])
      if (!region[successor] && !llvm::is_contained(join.otherWays, blocks[successor]))
        join.otherWays.push_back(blocks[successor]);
  }

  // Outside the region: the blocks from which an end (a return, an
  // unreachable, another exit) can be reached.
  llvm::BitVector ending(count);
  for (unsigned block = 0; block < count; ++block)
    if (!region[block] && next[block].empty()) {
      ending.set(block);
      work.push_back(block);
    }
  while (!work.empty())
    for (unsigned block : previous[work.pop_back_val()])
      if (!region[block] && !ending[block]) {
        ending.set(block);
        work.push_back(block);
      }
  if (llvm::any_of(branches, [&](unsigned block) { return !ending[block]; })) {
    join.kind = ExitJoin::Kind::NoWayOut;
    return join;
  }

  // Post-dominators among the ending blocks (a greatest fixpoint; as in
  // LLVM's tree, a way into an endless loop does not count).
  std::vector<llvm::BitVector> after(count);
  for (unsigned block : ending.set_bits()) {
    after[block].resize(count, !next[block].empty());
    after[block].set(block);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned block = count; block-- > 0;) {
      if (!ending[block] || next[block].empty())
        continue;
      llvm::BitVector meet(count, true);
      for (unsigned successor : next[block])
        if (ending[successor])
          meet &= after[successor];
      meet.set(block);
      if (meet != after[block]) {
        after[block] = std::move(meet);
        changed = true;
      }
    }
  }
  llvm::BitVector common(count, true);
  for (unsigned block : branches) {
    llvm::BitVector strict = after[block];
    strict.reset(block);
    common &= strict;
  }
  // The nearest of them: the one the others all post-dominate.
  for (unsigned candidate : common.set_bits()) {
    llvm::BitVector farther = common;
    farther.reset(after[candidate]);
    if (farther.none()) {
      join.kind = ExitJoin::Kind::Join;
      join.block = blocks[candidate];
      return join;
    }
  }
  join.kind = ExitJoin::Kind::Diverging;
  return join;
}

bool reachesBarrier(llvm::ArrayRef<llvm::BasicBlock *> starts) {
  llvm::SmallVector<llvm::BasicBlock *, 16> work(starts.begin(), starts.end());
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> seen(starts.begin(), starts.end());
  while (!work.empty()) {
    llvm::BasicBlock *block = work.pop_back_val();
    for (llvm::Instruction &instruction : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction(); callee && isBarrierFunction(callee->getName()))
          return true;
    for (llvm::BasicBlock *successor : llvm::successors(block))
      if (seen.insert(successor).second)
        work.push_back(successor);
  }
  return false;
}

} // namespace compiler
