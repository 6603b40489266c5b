// Lowers the work-item builtins to loads from the WorkGroupInfo plus the
// current local id, turning each kernel into a work-item function.
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace compiler {
namespace {

enum class Builtin {
  None,
  GlobalId,
  LocalId,
  GroupId,
  GlobalSize,
  LocalSize,
  EnqueuedLocalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
};

Builtin classify(llvm::StringRef name) {
  return llvm::StringSwitch<Builtin>(name)
      .Case("_Z13get_global_idj", Builtin::GlobalId)
      .Case("_Z12get_local_idj", Builtin::LocalId)
      .Case("_Z12get_group_idj", Builtin::GroupId)
      .Case("_Z15get_global_sizej", Builtin::GlobalSize)
      .Case("_Z14get_local_sizej", Builtin::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", Builtin::EnqueuedLocalSize)
      .Case("_Z14get_num_groupsj", Builtin::NumGroups)
      .Case("_Z17get_global_offsetj", Builtin::GlobalOffset)
      .Case("_Z12get_work_dimv", Builtin::WorkDim)
      .Case("_Z20get_global_linear_idv", Builtin::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", Builtin::LocalLinearId)
      .Default(Builtin::None);
}

/// Emits the value of work-item builtins inside one work-item function.
class WorkItemValues {
public:
  WorkItemValues(llvm::IRBuilder<> &builder, llvm::Value *info, std::array<llvm::Value *, 3> localId)
      : builder_(builder), info_(info), localId_(localId) {}

  /// Loads `info->field[dim]` (dim a constant below 3).
  llvm::Value *field(unsigned field, unsigned dim) {
    return loadInfoField(builder_, info_, builder_.getInt64Ty(), field, dim);
  }

  llvm::Value *localId(unsigned dim) { return localId_[dim]; }

  /// Value of `builtin` for constant dimension `dim` (< 3).
  llvm::Value *forDim(Builtin builtin, unsigned dim) {
    using namespace info_field;
    switch (builtin) {
    case Builtin::GlobalId: {
      llvm::Value *base = builder_.CreateMul(field(GroupId, dim), field(EnqueuedLocalSize, dim));
      return builder_.CreateAdd(builder_.CreateAdd(base, localId(dim)), field(GlobalOffset, dim));
    }
    case Builtin::LocalId:
      return localId(dim);
    case Builtin::GroupId:
      return field(GroupId, dim);
    case Builtin::GlobalSize:
      return field(GlobalSize, dim);
    case Builtin::LocalSize:
      return field(LocalSize, dim);
    case Builtin::EnqueuedLocalSize:
      return field(EnqueuedLocalSize, dim);
    case Builtin::NumGroups:
      return field(NumGroups, dim);
    case Builtin::GlobalOffset:
      return field(GlobalOffset, dim);
    default:
      llvm_unreachable("not a per-dimension builtin");
    }
  }

  /// What a per-dimension builtin returns for a dimension >= 3.
  static uint64_t outOfRange(Builtin builtin) {
    switch (builtin) {
    case Builtin::GlobalSize:
    case Builtin::LocalSize:
    case Builtin::EnqueuedLocalSize:
    case Builtin::NumGroups:
      return 1;
    default:
      return 0;
    }
  }

  llvm::Value *forDimValue(Builtin builtin, llvm::Value *dim) {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(dim)) {
      uint64_t index = constant->getZExtValue();
      return index < 3 ? forDim(builtin, index) : builder_.getInt64(outOfRange(builtin));
    }
    // A run-time dimension: compute all three and select.
    llvm::Value *result = builder_.getInt64(outOfRange(builtin));
    for (unsigned d = 3; d-- > 0;) {
      llvm::Value *isD = builder_.CreateICmpEQ(dim, llvm::ConstantInt::get(dim->getType(), d));
      result = builder_.CreateSelect(isD, forDim(builtin, d), result);
    }
    return result;
  }

  llvm::Value *value(Builtin builtin, llvm::CallInst &call) {
    using namespace info_field;
    switch (builtin) {
    case Builtin::WorkDim: {
      return loadInfoField(builder_, info_, builder_.getInt32Ty(), WorkDim);
    }
    case Builtin::GlobalLinearId: {
      llvm::Value *linear = nullptr;
      for (unsigned d = 3; d-- > 0;) {
        llvm::Value *id = builder_.CreateSub(forDim(Builtin::GlobalId, d), field(GlobalOffset, d));
        linear = linear ? builder_.CreateAdd(builder_.CreateMul(linear, field(GlobalSize, d)), id) : id;
      }
      return linear;
    }
    case Builtin::LocalLinearId: {
      llvm::Value *linear = nullptr;
      for (unsigned d = 3; d-- > 0;)
        linear = linear ? builder_.CreateAdd(builder_.CreateMul(linear, field(LocalSize, d)), localId(d)) : localId(d);
      return linear;
    }
    default:
      return forDimValue(builtin, call.getArgOperand(0));
    }
  }

private:
  llvm::IRBuilder<> &builder_;
  llvm::Value *info_;
  std::array<llvm::Value *, 3> localId_;
};

/// Gives the local id arguments of `workItem` their ranges: [0, size) for a
/// required work-group size, [0, maxWorkGroupSize) otherwise.
void addLocalIdRanges(llvm::Function &workItem, unsigned firstLocalId, uint64_t maxWorkGroupSize) {
  std::array<size_t, 3> required = requiredWorkGroupSize(workItem);
  for (unsigned dimension = 0; dimension < 3; ++dimension) {
    uint64_t bound = required[dimension] ? std::min<uint64_t>(required[dimension], maxWorkGroupSize) : maxWorkGroupSize;
    llvm::ConstantRange range(llvm::APInt(64, 0), llvm::APInt(64, bound));
    workItem.addParamAttr(firstLocalId + dimension,
                          llvm::Attribute::get(workItem.getContext(), llvm::Attribute::Range, range));
  }
}

llvm::Function *makeWorkItemFunction(llvm::Function &kernel) {
  llvm::LLVMContext &context = kernel.getContext();
  llvm::SmallVector<llvm::Type *, 12> params(kernel.getFunctionType()->params());
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  params.append({llvm::PointerType::getUnqual(context), i64, i64, i64});
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), params, false);
  auto *function = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, kWorkItemPrefix + kernel.getName(),
                                          kernel.getParent());
  function->copyAttributesFrom(&kernel);
  function->setCallingConv(llvm::CallingConv::C);
  function->setLinkage(llvm::GlobalValue::InternalLinkage);
  function->setVisibility(llvm::GlobalValue::DefaultVisibility);
  function->setDSOLocal(true);
  function->addFnAttr(llvm::Attribute::AlwaysInline);
  function->addFnAttr(kWorkItemAttribute, kernel.getName());
  function->copyMetadata(&kernel, 0);
  function->splice(function->begin(), &kernel);
  for (auto [from, to] : llvm::zip(kernel.args(), function->args())) {
    to.takeName(&from);
    from.replaceAllUsesWith(&to);
  }
  unsigned extra = kernel.arg_size();
  function->getArg(extra)->setName("wg.info");
  function->getArg(extra + 1)->setName("local.x");
  function->getArg(extra + 2)->setName("local.y");
  function->getArg(extra + 3)->setName("local.z");
  return function;
}

void lowerBuiltinCalls(llvm::Function &function) {
  unsigned extra = function.arg_size() - 4;
  llvm::Value *info = function.getArg(extra);
  std::array<llvm::Value *, 3> localId = {function.getArg(extra + 1), function.getArg(extra + 2),
                                          function.getArg(extra + 3)};
  llvm::SmallVector<std::pair<llvm::CallInst *, Builtin>, 16> calls;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction())
        if (Builtin builtin = classify(callee->getName()); builtin != Builtin::None)
          calls.push_back({call, builtin});
  llvm::IRBuilder<> builder(function.getContext());
  for (auto [call, builtin] : calls) {
    builder.SetInsertPoint(call);
    WorkItemValues values(builder, info, localId);
    llvm::Value *value = values.value(builtin, *call);
    value = builder.CreateZExtOrTrunc(value, call->getType());
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
}

} // namespace

llvm::PreservedAnalyses LowerWorkItemBuiltinsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<llvm::Function *, 8> kernels = kernelFunctions(module);
  if (kernels.empty())
    return llvm::PreservedAnalyses::all();
  for (llvm::Function *kernel : kernels) {
    llvm::Function *workItem = makeWorkItemFunction(*kernel);
    if (maxWorkGroupSize)
      addLocalIdRanges(*workItem, workItem->arg_size() - 3, maxWorkGroupSize);
    lowerBuiltinCalls(*workItem);
    // The body moved; a kernel still referenced stays as a declaration and
    // is reported by checkUnresolvedSymbols.
    if (kernel->use_empty())
      kernel->eraseFromParent();
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler
