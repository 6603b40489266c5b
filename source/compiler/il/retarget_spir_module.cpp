#include "compiler/il/retarget_spir_module.h"

#include "mux/status.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace compiler::il {
namespace {

/// Rewrites every type that holds a pointer into the target's spaces.
class AddressSpaceRemapper final : public llvm::ValueMapTypeRemapper {
public:
  explicit AddressSpaceRemapper(const TargetConvention &convention) : convention_(convention) {}

  unsigned space(unsigned spir) const {
    return spir < convention_.addressSpaces.size() ? convention_.addressSpaces[spir] : spir;
  }

  llvm::Type *remapType(llvm::Type *type) override {
    auto found = cache_.find(type);
    if (found != cache_.end())
      return found->second;
    llvm::Type *mapped = compute(type);
    cache_[type] = mapped;
    return mapped;
  }

private:
  llvm::Type *compute(llvm::Type *type) {
    llvm::LLVMContext &context = type->getContext();
    if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type))
      return llvm::PointerType::get(context, space(pointer->getAddressSpace()));
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(type))
      return llvm::VectorType::get(remapType(vector->getElementType()), vector->getElementCount());
    if (auto *array = llvm::dyn_cast<llvm::ArrayType>(type))
      return llvm::ArrayType::get(remapType(array->getElementType()), array->getNumElements());
    if (auto *function = llvm::dyn_cast<llvm::FunctionType>(type)) {
      llvm::SmallVector<llvm::Type *, 8> params;
      for (llvm::Type *param : function->params())
        params.push_back(remapType(param));
      return llvm::FunctionType::get(remapType(function->getReturnType()), params, function->isVarArg());
    }
    if (auto *structure = llvm::dyn_cast<llvm::StructType>(type)) {
      llvm::SmallVector<llvm::Type *, 8> elements;
      bool changed = false;
      for (llvm::Type *element : structure->elements()) {
        elements.push_back(remapType(element));
        changed |= elements.back() != element;
      }
      if (!changed)
        return type;
      if (structure->isLiteral())
        return llvm::StructType::get(context, elements, structure->isPacked());
      return llvm::StructType::create(context, elements, structure->getName(), structure->isPacked());
    }
    return type;
  }

  const TargetConvention &convention_;
  llvm::DenseMap<llvm::Type *, llvm::Type *> cache_;
};

llvm::CallingConv::ID callingConv(llvm::CallingConv::ID spir, const TargetConvention &convention) {
  return spir == llvm::CallingConv::SPIR_FUNC ? convention.functionCallingConv : spir;
}

/// Casts between SPIR spaces that are one space on the target.
void removeNoOpCasts(llvm::Module &module) {
  llvm::SmallVector<llvm::AddrSpaceCastInst *, 16> casts;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction))
        if (cast->getSrcAddressSpace() == cast->getDestAddressSpace())
          casts.push_back(cast);
  for (llvm::AddrSpaceCastInst *cast : casts) {
    cast->replaceAllUsesWith(cast->getPointerOperand());
    cast->eraseFromParent();
  }
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>> retargetSpirModule(llvm::Module &spir,
                                                                 const TargetConvention &convention) {
  // Constant expressions (casts of __local variables, GEPs into strings)
  // become instructions, whose types the cloner remaps one by one.
  llvm::SmallVector<llvm::Constant *, 32> globals;
  for (llvm::GlobalVariable &variable : spir.globals())
    globals.push_back(&variable);
  llvm::convertUsersOfConstantsToInstructions(globals);

  llvm::LLVMContext &context = spir.getContext();
  auto module = std::make_unique<llvm::Module>(spir.getModuleIdentifier(), context);
  module->setTargetTriple(llvm::Triple(convention.triple));
  module->setDataLayout(convention.dataLayout);
  AddressSpaceRemapper remapper(convention);
  llvm::ValueToValueMapTy map;

  for (llvm::GlobalVariable &variable : spir.globals()) {
    // __constant variables are read-only whether or not the module said
    // so (SPIR-V's UniformConstant without a Constant decoration), as Clang
    // marks them.
    constexpr unsigned kSpirConstant = 2;
    bool readOnly = variable.isConstant() || variable.getAddressSpace() == kSpirConstant;
    auto *copy = new llvm::GlobalVariable(*module, remapper.remapType(variable.getValueType()), readOnly,
                                          variable.getLinkage(), nullptr, variable.getName(), nullptr,
                                          variable.getThreadLocalMode(), remapper.space(variable.getAddressSpace()));
    copy->copyAttributesFrom(&variable);
    map[&variable] = copy;
  }
  llvm::SmallVector<llvm::Function *, 8> renamedIntrinsics;
  for (llvm::Function &function : spir) {
    auto *type = llvm::cast<llvm::FunctionType>(remapper.remapType(function.getFunctionType()));
    llvm::Function *copy = llvm::Function::Create(type, function.getLinkage(), function.getAddressSpace(),
                                                  function.getName(), module.get());
    copy->copyAttributesFrom(&function);
    copy->setCallingConv(callingConv(function.getCallingConv(), convention));
    for (auto [from, to] : llvm::zip(function.args(), copy->args())) {
      to.setName(from.getName());
      map[&from] = &to;
    }
    map[&function] = copy;
    if (copy->isIntrinsic()) {
      if (std::optional<llvm::Function *> renamed = llvm::Intrinsic::remangleIntrinsicFunction(copy)) {
        map[&function] = *renamed;
        renamedIntrinsics.push_back(copy);
      }
    }
  }
  for (llvm::GlobalVariable &variable : spir.globals())
    if (variable.hasInitializer())
      llvm::cast<llvm::GlobalVariable>(map[&variable])
          ->setInitializer(llvm::MapValue(variable.getInitializer(), map, llvm::RF_None, &remapper));
  for (llvm::Function &function : spir) {
    if (function.isDeclaration())
      continue;
    auto *copy = llvm::cast<llvm::Function>(map[&function]);
    llvm::SmallVector<llvm::ReturnInst *, 4> returns;
    llvm::CloneFunctionInto(copy, &function, map, llvm::CloneFunctionChangeType::DifferentModule, returns, "", nullptr,
                            &remapper);
    // CloneFunctionInto copied the attributes again, calling convention too.
    copy->setCallingConv(callingConv(function.getCallingConv(), convention));
  }
  for (llvm::Function *function : renamedIntrinsics)
    function->eraseFromParent();
  for (llvm::NamedMDNode &named : spir.named_metadata()) {
    llvm::NamedMDNode *copy = module->getOrInsertNamedMetadata(named.getName());
    for (llvm::MDNode *operand : named.operands())
      copy->addOperand(llvm::MapMetadata(operand, map, llvm::RF_None, &remapper));
  }
  for (llvm::Function &function : *module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        call->setCallingConv(callingConv(call->getCallingConv(), convention));
  removeNoOpCasts(*module);

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*module, &stream))
    return mux::makeError(mux::Status::Failure,
                          "the SPIR-V module did not convert to this device's convention: " + problems);
  return module;
}

} // namespace compiler::il
