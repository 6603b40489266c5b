// Places each work-item function's __local variables in the work-group's
// __local area (WorkGroupInfo::localMemory): every variable the function
// uses gets an aligned offset, and its uses become pointers into the area.
#include "compiler/passes.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ReplaceConstant.h"

namespace compiler {
namespace {

/// OpenCL's local address space where the target has one (SPIR-like maps).
constexpr unsigned kLocalAddressSpace = 3;

/// Clang gives __local variables no initializer (undef); program-scope and
/// static variables are always initialised (zero by default).
bool isLocalVariable(const llvm::GlobalVariable &variable) {
  if (variable.getAddressSpace() == kLocalAddressSpace)
    return true;
  return variable.hasInitializer() && llvm::isa<llvm::UndefValue>(variable.getInitializer()) && !variable.isConstant();
}

llvm::Value *loadLocalBase(llvm::Function &function) {
  llvm::IRBuilder<> builder(&*function.getEntryBlock().getFirstInsertionPt());
  llvm::Value *info = function.getArg(function.arg_size() - 4);
  return loadInfoField(builder, info, builder.getPtrTy(), info_field::LocalMemory, std::nullopt, "local.base");
}

} // namespace

llvm::PreservedAnalyses LowerLocalVariablesPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<llvm::GlobalVariable *, 8> variables;
  for (llvm::GlobalVariable &variable : module.globals())
    if (isLocalVariable(variable))
      variables.push_back(&variable);
  bool changed = false;
  const llvm::DataLayout &layout = module.getDataLayout();
  // Constant expressions cannot refer to per-group storage: make them
  // instructions first, so every use belongs to one function.
  for (llvm::GlobalVariable *variable : variables)
    changed |= llvm::convertUsersOfConstantsToInstructions(variable);

  // Per work-item function: the variables it uses, in first-use order.
  llvm::MapVector<llvm::Function *, llvm::SmallVector<llvm::GlobalVariable *, 4>> usedBy;
  for (llvm::Function *function : workItemFunctions(module))
    usedBy[function];
  for (llvm::GlobalVariable *variable : variables)
    for (llvm::User *user : variable->users())
      if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
        llvm::Function *function = instruction->getFunction();
        auto found = usedBy.find(function);
        if (found != usedBy.end() && !llvm::is_contained(found->second, variable))
          found->second.push_back(variable);
      }

  for (auto &[function, used] : usedBy) {
    uint64_t size = 0;
    if (!used.empty()) {
      llvm::Value *base = loadLocalBase(*function);
      llvm::IRBuilder<> builder(llvm::cast<llvm::Instruction>(base)->getNextNode());
      for (llvm::GlobalVariable *variable : used) {
        llvm::Type *type = variable->getValueType();
        llvm::Align alignment = variable->getAlign().value_or(layout.getABITypeAlign(type));
        alignment = std::max(alignment, layout.getABITypeAlign(type));
        size = llvm::alignTo(size, alignment);
        llvm::Value *pointer = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), base, size, variable->getName());
        if (pointer->getType() != variable->getType())
          pointer = builder.CreateAddrSpaceCast(pointer, variable->getType());
        size += layout.getTypeAllocSize(type).getFixedValue();
        variable->replaceUsesWithIf(pointer, [&](llvm::Use &use) {
          auto *instruction = llvm::dyn_cast<llvm::Instruction>(use.getUser());
          return instruction && instruction->getFunction() == function;
        });
      }
      changed = true;
    }
    function->addFnAttr(kLocalMemSizeAttribute, std::to_string(size));
  }
  for (llvm::GlobalVariable *variable : variables)
    if (variable->use_empty())
      variable->eraseFromParent();
  return changed || !usedBy.empty() ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
