// Implements the generic address space builtins to_global, to_local,
// to_private and get_fence for CPU-like targets, where every OpenCL address
// space is one flat address space: a pointer's address space is found at run
// time from the memory ranges the runtime describes in the WorkGroupInfo.
//
//   __local:   [localMemory, localMemory + localMemorySize)
//   __private: the thread's stack [stackBegin, stackEnd), and the work-item
//              state area (values the barrier lowering keeps per work-item)
//   __global:  everything else (buffers, program-scope variables)
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/passes.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <cstddef>

namespace compiler {
namespace {

/// cl_mem_fence_flags values (opencl-c-base.h).
constexpr uint64_t kLocalMemFence = 1;  // CLK_LOCAL_MEM_FENCE
constexpr uint64_t kGlobalMemFence = 2; // CLK_GLOBAL_MEM_FENCE

enum class Builtin { None, ToGlobal, ToLocal, ToPrivate, GetFence };

/// Clang lowers to_global/to_local/to_private (language builtins) to calls
/// of __to_global/__to_local/__to_private taking and returning a generic
/// pointer; get_fence is an ordinary overloaded function
/// (_Z9get_fencePU9CLgenericv, _Z9get_fencePU9CLgenericKv, ...).
Builtin classify(llvm::StringRef name) {
  if (name.starts_with("_Z9get_fenceP"))
    return Builtin::GetFence;
  return llvm::StringSwitch<Builtin>(name)
      .Case("__to_global", Builtin::ToGlobal)
      .Case("__to_local", Builtin::ToLocal)
      .Case("__to_private", Builtin::ToPrivate)
      .Default(Builtin::None);
}

/// Emits the run-time address-space tests of one pointer.
class AddressClassifier {
public:
  AddressClassifier(llvm::IRBuilder<> &builder, llvm::Value *info)
      : builder_(builder), info_(info), infoType_(workGroupInfoType(builder.getContext())) {}

  llvm::Value *isLocal(llvm::Value *address) {
    llvm::Value *begin = loadField(info_field::LocalMemory);
    llvm::Value *size = loadField(info_field::LocalMemorySize);
    return builder_.CreateICmpULT(builder_.CreateSub(address, begin), size, "is.local");
  }

  llvm::Value *isPrivate(llvm::Value *address) {
    llvm::Value *onStack =
        inRange(address, loadField(info_field::StackBegin), loadField(info_field::StackEnd), "on.stack");
    llvm::Value *inState =
        inRange(address, loadField(info_field::WorkItemState), loadField(info_field::WorkItemStateEnd), "in.state");
    return builder_.CreateOr(onStack, inState, "is.private");
  }

private:
  /// address in [begin, end), all i64; false for an empty range.
  llvm::Value *inRange(llvm::Value *address, llvm::Value *begin, llvm::Value *end, const llvm::Twine &name) {
    return builder_.CreateICmpULT(builder_.CreateSub(address, begin), builder_.CreateSub(end, begin), name);
  }

  /// info->field as an i64 (pointers converted).
  llvm::Value *loadField(unsigned field) {
    llvm::Type *type = infoType_->getElementType(field);
    llvm::LoadInst *load = loadInfoField(builder_, info_, type, field);
    return type->isPointerTy() ? builder_.CreatePtrToInt(load, builder_.getInt64Ty()) : load;
  }

  llvm::IRBuilder<> &builder_;
  llvm::Value *info_;
  llvm::StructType *infoType_;
};

llvm::Value *lowerCall(llvm::CallInst &call, Builtin builtin, llvm::Value *info) {
  llvm::IRBuilder<> builder(&call);
  AddressClassifier classifier(builder, info);
  llvm::Value *pointer = call.getArgOperand(0);
  llvm::Value *address = builder.CreatePtrToInt(pointer, builder.getInt64Ty());
  if (builtin == Builtin::GetFence) {
    // Private memory is seen by its own work-item only: no fence applies
    // (as SPIR-V's OpGenericPtrMemSemantics gives no bits for Function).
    llvm::Value *isLocal = classifier.isLocal(address);
    llvm::Value *isPrivate = classifier.isPrivate(address);
    auto *type = llvm::cast<llvm::IntegerType>(call.getType());
    llvm::Value *notLocal =
        builder.CreateSelect(isPrivate, llvm::ConstantInt::get(type, 0), llvm::ConstantInt::get(type, kGlobalMemFence));
    return builder.CreateSelect(isLocal, llvm::ConstantInt::get(type, kLocalMemFence), notLocal, "fence");
  }
  llvm::Value *matches = nullptr;
  switch (builtin) {
  case Builtin::ToLocal:
    matches = classifier.isLocal(address);
    break;
  case Builtin::ToPrivate:
    // __local is checked first: a kernel-owned area is never private.
    matches = builder.CreateAnd(builder.CreateNot(classifier.isLocal(address)), classifier.isPrivate(address));
    break;
  case Builtin::ToGlobal:
    matches = builder.CreateNot(builder.CreateOr(classifier.isLocal(address), classifier.isPrivate(address)));
    break;
  default:
    llvm_unreachable("not a pointer conversion");
  }
  auto *resultType = llvm::cast<llvm::PointerType>(call.getType());
  llvm::Value *converted = builder.CreatePointerBitCastOrAddrSpaceCast(pointer, resultType);
  return builder.CreateSelect(matches, converted, llvm::ConstantPointerNull::get(resultType));
}

bool lowerInFunction(llvm::Function &function) {
  llvm::SmallVector<std::pair<llvm::CallInst *, Builtin>, 8> calls;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction(); callee && call->arg_size() == 1)
        if (Builtin builtin = classify(callee->getName()); builtin != Builtin::None)
          calls.push_back({call, builtin});
  llvm::Value *info = function.getArg(function.arg_size() - 4);
  for (auto [call, builtin] : calls) {
    llvm::Value *value = lowerCall(*call, builtin, info);
    if (!llvm::isa<llvm::Constant>(value))
      value->takeName(call);
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
  return !calls.empty();
}

} // namespace

llvm::PreservedAnalyses LowerGenericAddressSpacePass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  // Everything is inlined into the work-item functions by now; a call left
  // elsewhere stays unresolved and checkUnresolvedSymbols reports it.
  bool changed = false;
  for (llvm::Function *function : workItemFunctions(module))
    changed |= lowerInFunction(*function);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  for (const char *name : {"__to_global", "__to_local", "__to_private"})
    if (llvm::Function *declaration = module.getFunction(name); declaration && declaration->use_empty())
      declaration->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler
