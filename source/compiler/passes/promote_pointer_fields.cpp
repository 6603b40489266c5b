// Promotes the fields behind a pointer argument to private variables (see
// the header).
#include "promote_pointer_fields.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <map>

namespace compiler {
namespace {

struct Access {
  llvm::Instruction *instruction; ///< a simple load or store through the pointer
  int64_t offset;
};

/// The loads and stores through `pointer` and the constant byte offsets
/// they use; false when `pointer` (or a pointer derived from it) has any
/// other use.
bool collectAccesses(llvm::Value *pointer, int64_t base, const llvm::DataLayout &layout,
                     llvm::SmallVectorImpl<Access> &accesses) {
  for (llvm::Use &use : pointer->uses()) {
    auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
    if (!user)
      return false;
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
      llvm::APInt offset(layout.getIndexTypeSizeInBits(gep->getType()), 0);
      if (use.getOperandNo() != gep->getPointerOperandIndex() || !gep->accumulateConstantOffset(layout, offset) ||
          !collectAccesses(gep, base + offset.getSExtValue(), layout, accesses))
        return false;
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (!load->isSimple())
        return false;
      accesses.push_back({load, base});
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (!store->isSimple() || use.getOperandNo() != store->getPointerOperandIndex())
        return false;
      accesses.push_back({store, base});
    } else {
      return false;
    }
  }
  return true;
}

llvm::Type *accessedType(llvm::Instruction *access) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(access))
    return load->getType();
  return llvm::cast<llvm::StoreInst>(access)->getValueOperand()->getType();
}

struct Field {
  llvm::Type *type = nullptr;
  bool written = false;
  llvm::Align alignment; ///< the largest any access assumes
  llvm::AllocaInst *variable = nullptr;
};

} // namespace

bool promotePointerFields(llvm::Function &function, llvm::Argument &pointer, FieldAddress fieldAddress,
                          llvm::Align alignment) {
  const llvm::DataLayout &layout = function.getDataLayout();
  llvm::SmallVector<Access, 32> accesses;
  if (!collectAccesses(&pointer, 0, layout, accesses))
    return false;
  if (accesses.empty())
    return true;
  // One type per offset, and no two fields overlapping.
  std::map<int64_t, Field> fields;
  for (const Access &access : accesses) {
    llvm::Type *type = accessedType(access.instruction);
    Field &field = fields[access.offset];
    if (field.type && field.type != type)
      return false;
    field.type = type;
    field.written |= llvm::isa<llvm::StoreInst>(access.instruction);
    llvm::Align assumed = llvm::isa<llvm::LoadInst>(access.instruction)
                              ? llvm::cast<llvm::LoadInst>(access.instruction)->getAlign()
                              : llvm::cast<llvm::StoreInst>(access.instruction)->getAlign();
    field.alignment = std::max(field.alignment, assumed);
  }
  int64_t end = INT64_MIN;
  for (auto &[offset, field] : fields) {
    if (offset < end)
      return false;
    end = offset + static_cast<int64_t>(layout.getTypeStoreSize(field.type).getFixedValue());
  }

  llvm::BasicBlock &entry = function.getEntryBlock();
  llvm::IRBuilder<> builder(&entry, entry.getFirstInsertionPt());
  for (auto &[offset, field] : fields) {
    field.variable = builder.CreateAlloca(field.type, nullptr, "field." + llvm::Twine(offset));
    field.variable->setAlignment(std::max(field.alignment, layout.getABITypeAlign(field.type)));
  }
  auto fieldAlignment = [&](llvm::Type *type) { return std::min(alignment, layout.getABITypeAlign(type)); };
  for (auto &[offset, field] : fields) {
    llvm::LoadInst *value = builder.CreateLoad(field.type, fieldAddress(builder, offset, field.type));
    value->setAlignment(fieldAlignment(field.type));
    builder.CreateStore(value, field.variable);
  }
  for (const Access &access : accesses) {
    Field &field = fields[access.offset];
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(access.instruction))
      load->setOperand(load->getPointerOperandIndex(), field.variable);
    else
      access.instruction->setOperand(llvm::cast<llvm::StoreInst>(access.instruction)->getPointerOperandIndex(),
                                     field.variable);
  }
  for (llvm::BasicBlock &block : function)
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator())) {
      llvm::IRBuilder<> before(ret);
      for (auto &[offset, field] : fields)
        if (field.written) {
          llvm::StoreInst *store = before.CreateStore(before.CreateLoad(field.type, field.variable),
                                                      fieldAddress(before, offset, field.type));
          store->setAlignment(fieldAlignment(field.type));
        }
    }
  return true;
}

} // namespace compiler
