// compiler::abi::WorkGroupInfo as an LLVM struct type.
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/passes.h"
#include "work_group_info_fields.h"

#include "llvm/IR/DerivedTypes.h"

#include <cstddef>

namespace compiler {

// The field indices the passes use must match the C++ layout.
static_assert(offsetof(abi::WorkGroupInfo, globalOffset) == 8);
static_assert(offsetof(abi::WorkGroupInfo, globalSize) == 32);
static_assert(offsetof(abi::WorkGroupInfo, enqueuedLocalSize) == 56);
static_assert(offsetof(abi::WorkGroupInfo, localSize) == 80);
static_assert(offsetof(abi::WorkGroupInfo, numGroups) == 104);
static_assert(offsetof(abi::WorkGroupInfo, groupId) == 128);
static_assert(offsetof(abi::WorkGroupInfo, localMemory) == 152);
static_assert(offsetof(abi::WorkGroupInfo, localMemorySize) == 160);
static_assert(offsetof(abi::WorkGroupInfo, workItemState) == 168);
static_assert(offsetof(abi::WorkGroupInfo, printfBuffer) == 176);
static_assert(offsetof(abi::WorkGroupInfo, stackBegin) == 184);
static_assert(offsetof(abi::WorkGroupInfo, stackEnd) == 192);
static_assert(offsetof(abi::WorkGroupInfo, workItemStateEnd) == 200);
static_assert(offsetof(abi::WorkGroupInfo, kernelExit) == 208);

llvm::LoadInst *loadInfoField(llvm::IRBuilder<> &builder, llvm::Value *info, llvm::Type *type, unsigned field,
                              std::optional<unsigned> element, const llvm::Twine &name) {
  llvm::LLVMContext &context = builder.getContext();
  llvm::SmallVector<llvm::Value *, 3> indices{builder.getInt32(0), builder.getInt32(field)};
  if (element)
    indices.push_back(builder.getInt32(*element));
  llvm::Value *address = builder.CreateInBoundsGEP(workGroupInfoType(context), info, indices);
  auto *load = builder.CreateAlignedLoad(type, address, llvm::Align(8), name);
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(context, {}));
  return load;
}

llvm::StructType *workGroupInfoType(llvm::LLVMContext &context) {
  if (auto *existing = llvm::StructType::getTypeByName(context, "polymux.WorkGroupInfo"))
    return existing;
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *triple = llvm::ArrayType::get(llvm::Type::getInt64Ty(context), 3);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  return llvm::StructType::create(context,
                                  {i32, i32, triple, triple, triple, triple, triple, triple, pointer, i64, pointer,
                                   pointer, pointer, pointer, pointer, pointer},
                                  "polymux.WorkGroupInfo");
}

} // namespace compiler
