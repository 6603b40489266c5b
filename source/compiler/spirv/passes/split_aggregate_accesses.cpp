// Loads and stores of first-class aggregates (structs and arrays) as one
// access per scalar or vector member, at the member's DataLayout offset:
// the emitter has no aggregate values. SPIR-V programs store whole structs
// (an OpConstantComposite, an OpCompositeConstruct, an OpCopyObject of
// one), and InstCombine splits only structs without padding, so a
// `{i32, i8}` stays whole. A stored member's value is taken from the
// constant, the insertvalue that put it there, or a select or phi of those
// (then a select or phi per member); a loaded aggregate is rebuilt with
// insertvalue for its users, and the extractvalues of such chains folded.
#include "passes/vulkan_passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"

#include <map>
#include <vector>

namespace compiler::spirv {
namespace {

bool isAggregate(const llvm::Type *type) { return type->isStructTy() || type->isArrayTy(); }

/// A scalar or vector member of an aggregate: its extractvalue indices and
/// its byte offset.
struct Leaf {
  std::vector<unsigned> path;
  uint64_t offset;
  llvm::Type *type;
};

void collectLeaves(llvm::Type *type, uint64_t offset, const llvm::DataLayout &layout, std::vector<unsigned> &path,
                   std::vector<Leaf> &leaves) {
  if (auto *structType = llvm::dyn_cast<llvm::StructType>(type)) {
    const llvm::StructLayout *structLayout = layout.getStructLayout(structType);
    for (unsigned i = 0; i < structType->getNumElements(); ++i) {
      path.push_back(i);
      collectLeaves(structType->getElementType(i), offset + structLayout->getElementOffset(i), layout, path, leaves);
      path.pop_back();
    }
  } else if (auto *arrayType = llvm::dyn_cast<llvm::ArrayType>(type)) {
    uint64_t stride = layout.getTypeAllocSize(arrayType->getElementType()).getFixedValue();
    for (uint64_t i = 0; i < arrayType->getNumElements(); ++i) {
      path.push_back(unsigned(i));
      collectLeaves(arrayType->getElementType(), offset + i * stride, layout, path, leaves);
      path.pop_back();
    }
  } else {
    leaves.push_back({path, offset, type});
  }
}

std::vector<Leaf> leavesOf(llvm::Type *type, const llvm::DataLayout &layout) {
  std::vector<Leaf> leaves;
  std::vector<unsigned> path;
  collectLeaves(type, 0, layout, path, leaves);
  return leaves;
}

/// The members of aggregate values, without building the aggregate.
class Members {
public:
  /// The member of `aggregate` at `path`, as a value available at `before`.
  llvm::Value *get(llvm::Value *aggregate, llvm::ArrayRef<unsigned> path, llvm::Instruction *before) {
    if (path.empty())
      return aggregate;
    if (auto *constant = llvm::dyn_cast<llvm::Constant>(aggregate)) {
      llvm::Constant *member = constant;
      for (unsigned index : path)
        if (member)
          member = member->getAggregateElement(index);
      if (member)
        return member;
    }
    if (auto *insert = llvm::dyn_cast<llvm::InsertValueInst>(aggregate)) {
      llvm::ArrayRef<unsigned> at = insert->getIndices();
      if (at.size() <= path.size() && path.take_front(at.size()) == at)
        return get(insert->getInsertedValueOperand(), path.drop_front(at.size()), before);
      if (at.size() <= path.size() || path != at.take_front(path.size()))
        return get(insert->getAggregateOperand(), path, before);
      // `path` names a sub-aggregate that the insert only partly replaced.
    }
    if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(aggregate)) {
      std::vector<unsigned> whole(extract->idx_begin(), extract->idx_end());
      whole.insert(whole.end(), path.begin(), path.end());
      return get(extract->getAggregateOperand(), whole, before);
    }
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(aggregate)) {
      llvm::Value *whenTrue = get(select->getTrueValue(), path, before);
      llvm::Value *whenFalse = get(select->getFalseValue(), path, before);
      llvm::IRBuilder<> builder(before);
      return builder.CreateSelect(select->getCondition(), whenTrue, whenFalse);
    }
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(aggregate))
      return memberPhi(*phi, path);
    // Any other aggregate (a compare-exchange's pair): an extractvalue,
    // the one asked about if that is what `before` is.
    if (auto *existing = llvm::dyn_cast<llvm::ExtractValueInst>(before);
        existing && existing->getAggregateOperand() == aggregate && existing->getIndices() == path)
      return existing;
    llvm::IRBuilder<> builder(before);
    return builder.CreateExtractValue(aggregate, path);
  }

private:
  /// A phi of the member, made once per phi and path (loops refer to it).
  llvm::Value *memberPhi(llvm::PHINode &phi, llvm::ArrayRef<unsigned> path) {
    auto key = std::make_pair(&phi, std::vector<unsigned>(path.begin(), path.end()));
    if (auto found = phis_.find(key); found != phis_.end())
      return found->second;
    llvm::Type *type = llvm::ExtractValueInst::getIndexedType(phi.getType(), path);
    llvm::PHINode *member =
        llvm::PHINode::Create(type, phi.getNumIncomingValues(), phi.getName() + ".member", phi.getIterator());
    phis_.emplace(std::move(key), member);
    for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i)
      member->addIncoming(get(phi.getIncomingValue(i), path, phi.getIncomingBlock(i)->getTerminator()),
                          phi.getIncomingBlock(i));
    return member;
  }

  std::map<std::pair<llvm::PHINode *, std::vector<unsigned>>, llvm::PHINode *> phis_;
};

llvm::Value *memberAddress(llvm::IRBuilder<> &builder, llvm::Value *pointer, uint64_t offset) {
  return offset ? builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), pointer, offset) : pointer;
}

void splitLoad(llvm::LoadInst &load, const llvm::DataLayout &layout) {
  llvm::IRBuilder<> builder(&load);
  llvm::Value *rebuilt = llvm::PoisonValue::get(load.getType());
  for (const Leaf &leaf : leavesOf(load.getType(), layout)) {
    llvm::Value *address = memberAddress(builder, load.getPointerOperand(), leaf.offset);
    llvm::Value *member = builder.CreateAlignedLoad(
        leaf.type, address, llvm::commonAlignment(load.getAlign(), leaf.offset), load.isVolatile());
    rebuilt = builder.CreateInsertValue(rebuilt, member, leaf.path);
  }
  rebuilt->takeName(&load);
  load.replaceAllUsesWith(rebuilt);
  load.eraseFromParent();
}

void splitStore(llvm::StoreInst &store, const llvm::DataLayout &layout, Members &members) {
  llvm::Value *value = store.getValueOperand();
  for (const Leaf &leaf : leavesOf(value->getType(), layout)) {
    llvm::Value *member = members.get(value, leaf.path, &store);
    // Storing undef leaves the member undefined: keeping what is there is
    // one of its values (struct padding in constants, undef members).
    if (llvm::isa<llvm::UndefValue>(member))
      continue;
    llvm::IRBuilder<> builder(&store);
    llvm::Value *address = memberAddress(builder, store.getPointerOperand(), leaf.offset);
    builder.CreateAlignedStore(member, address, llvm::commonAlignment(store.getAlign(), leaf.offset),
                               store.isVolatile());
  }
  store.eraseFromParent();
}

bool splitAggregateAccesses(llvm::Function &function) {
  const llvm::DataLayout &layout = function.getDataLayout();
  llvm::SmallVector<llvm::LoadInst *, 8> loads;
  llvm::SmallVector<llvm::StoreInst *, 8> stores;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction); load && isAggregate(load->getType()))
      loads.push_back(load);
    else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
             store && isAggregate(store->getValueOperand()->getType()))
      stores.push_back(store);
  }
  if (loads.empty() && stores.empty())
    return false;
  for (llvm::LoadInst *load : loads)
    splitLoad(*load, layout);
  Members members;
  for (llvm::StoreInst *store : stores)
    splitStore(*store, layout, members);
  // Members read from the rebuilt aggregates (or a select or phi of them)
  // directly; what built them is then dead.
  llvm::SmallVector<llvm::ExtractValueInst *, 8> extracts;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(&instruction);
        extract && !isAggregate(extract->getType()))
      extracts.push_back(extract);
  for (llvm::ExtractValueInst *extract : extracts) {
    llvm::Value *member = members.get(extract->getAggregateOperand(), extract->getIndices(), extract);
    if (member != extract) {
      extract->replaceAllUsesWith(member);
      extract->eraseFromParent();
    }
  }
  llvm::SmallVector<llvm::WeakTrackingVH, 16> dead;
  llvm::SmallVector<llvm::WeakTrackingVH, 8> phis;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    if (!isAggregate(instruction.getType()))
      continue;
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction))
      phis.push_back(phi);
    else if (llvm::isInstructionTriviallyDead(&instruction))
      dead.push_back(&instruction);
  }
  llvm::RecursivelyDeleteTriviallyDeadInstructions(dead);
  for (llvm::WeakTrackingVH &phi : phis)
    if (phi) // not deleted with another phi of its cycle
      llvm::RecursivelyDeleteDeadPHINode(llvm::cast<llvm::PHINode>(phi));
  return true;
}

} // namespace

llvm::PreservedAnalyses SplitAggregateAccessesPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module)
    changed |= splitAggregateAccesses(function);
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
