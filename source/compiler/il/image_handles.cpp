#include "compiler/il/image_handles.h"

#include "compiler/il/retarget_spir_module.h"
#include "compiler/il/spir_builtin_name.h"
#include "mux/status.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

#include <algorithm>

namespace compiler::il {
namespace {

constexpr const char *kSamplerType = "sampler_t";
constexpr const char *kSamplerInitializer = "__translate_sampler_initializer";

llvm::StringRef metadataString(const llvm::Function &function, const char *kind, unsigned index) {
  const llvm::MDNode *node = function.getMetadata(kind);
  if (!node || index >= node->getNumOperands())
    return {};
  auto *text = llvm::dyn_cast<llvm::MDString>(node->getOperand(index));
  return text ? text->getString() : llvm::StringRef();
}

/// The OpenCL C type of a kernel's image or sampler argument, from the
/// kernel argument metadata the translator writes as Clang does; empty for
/// other arguments.
std::string kernelArgumentType(const llvm::Argument &argument) {
  const llvm::Function &kernel = *argument.getParent();
  llvm::StringRef type = metadataString(kernel, "kernel_arg_base_type", argument.getArgNo());
  if (type.empty())
    type = metadataString(kernel, "kernel_arg_type", argument.getArgNo());
  if (type == kSamplerType)
    return kSamplerType;
  if (!type.starts_with("image") || !type.ends_with("_t"))
    return {};
  llvm::StringRef access = metadataString(kernel, "kernel_arg_access_qual", argument.getArgNo());
  if (access != "write_only" && access != "read_write")
    access = "read_only"; // OpenCL C's default for images
  return (access + " " + type).str();
}

class HandleFinder {
public:
  explicit HandleFinder(llvm::Module &module) : module_(module) {}

  llvm::Expected<ImageHandles> run() {
    for (llvm::Function &function : module_) {
      if (function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && !function.isDeclaration())
        for (llvm::Argument &argument : function.args())
          if (std::string type = kernelArgumentType(argument); !type.empty() && argument.getType()->isPointerTy())
            assign(&argument, type);
      if (!function.isDeclaration() || function.use_empty())
        continue;
      if (function.getName() == kSamplerInitializer) {
        for (llvm::User *user : function.users())
          if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
            assign(call, kSamplerType);
        continue;
      }
      std::optional<SpirBuiltinName> builtin = parseSpirBuiltinName(function.getName());
      if (!builtin)
        continue;
      for (llvm::User *user : function.users())
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledOperand() == &function)
          for (size_t i = 0; i < builtin->params.size() && i < call->arg_size(); ++i)
            if (builtin->params[i].isHandle)
              assign(call->getArgOperand(i), builtin->params[i].spelling);
    }
    while (!work_.empty() && problem_.empty()) {
      llvm::Value *value = work_.pop_back_val();
      propagate(value, handles_.values.lookup(value));
    }
    if (!problem_.empty())
      return mux::makeError(mux::Status::Failure, "error: the SPIR-V module " + problem_);
    for (unsigned i = 0; i < handles_.types.size(); ++i)
      handles_.probeSource +=
          "void " + std::string(kHandleProbePrefix) + std::to_string(i) + "(" + handles_.types[i] + " handle) {}\n";
    return std::move(handles_);
  }

private:
  void use(const std::string &type) {
    if (!llvm::is_contained(handles_.types, type))
      handles_.types.push_back(type);
  }

  void assign(llvm::Value *value, const std::string &type) {
    if (llvm::isa<llvm::UndefValue>(value) || llvm::isa<llvm::ConstantPointerNull>(value))
      return;
    if (!value->getType()->isPointerTy() || !(llvm::isa<llvm::Argument>(value) || llvm::isa<llvm::Instruction>(value)))
      return fail("uses " + type + " as a value that is not one");
    auto [found, inserted] = handles_.values.insert({value, type});
    if (!inserted) {
      if (found->second != type)
        fail("uses one value as both " + found->second + " and " + type);
      return;
    }
    use(type);
    work_.push_back(value);
  }

  void assignVariable(llvm::AllocaInst *variable, const std::string &type) {
    auto [found, inserted] = handles_.variables.insert({variable, type});
    if (!inserted) {
      if (found->second != type)
        fail("keeps both " + found->second + " and " + type + " in one variable");
      return;
    }
    if (!variable->getAllocatedType()->isPointerTy() || variable->isArrayAllocation())
      return fail("keeps " + type + " in a variable of another type");
    for (llvm::Use &use : variable->uses()) {
      llvm::User *user = use.getUser();
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user))
        assign(load, type);
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user); store && use.getOperandNo() == 1)
        assign(store->getValueOperand(), type);
      else if (!llvm::isa<llvm::LifetimeIntrinsic>(user))
        fail("uses a variable holding " + type + " other than by loads and stores");
    }
  }

  void assignReturn(llvm::Function *function, const std::string &type) {
    auto [found, inserted] = handles_.returns.insert({function, type});
    if (!inserted) {
      if (found->second != type)
        fail("returns both " + found->second + " and " + type + " from '" + function->getName() + "'");
      return;
    }
    for (llvm::BasicBlock &block : *function)
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()); ret && ret->getReturnValue())
        assign(ret->getReturnValue(), type);
    for (llvm::CallBase *call : callsOf(*function))
      assign(call, type);
  }

  /// A function another module defines: declared, neither a builtin (whose
  /// names are mangled), an intrinsic nor the sampler initializer.
  static bool isImport(const llvm::Function &function) {
    return function.isDeclaration() && !function.isIntrinsic() && !function.getName().starts_with("_Z") &&
           function.getName() != kSamplerInitializer;
  }

  static llvm::SmallVector<llvm::CallBase *, 4> callsOf(llvm::Function &function) {
    llvm::SmallVector<llvm::CallBase *, 4> calls;
    for (llvm::User *user : function.users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledOperand() == &function)
        calls.push_back(call);
    return calls;
  }

  /// Where `value` comes from and where it goes hold the same type.
  void propagate(llvm::Value *value, const std::string &type) {
    if (auto *argument = llvm::dyn_cast<llvm::Argument>(value)) {
      for (llvm::CallBase *call : callsOf(*argument->getParent()))
        if (argument->getArgNo() < call->arg_size())
          assign(call->getArgOperand(argument->getArgNo()), type);
    } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
      for (llvm::Value *incoming : phi->incoming_values())
        assign(incoming, type);
    } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      assign(select->getTrueValue(), type);
      assign(select->getFalseValue(), type);
    } else if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(value)) {
      assign(freeze->getOperand(0), type);
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(value)) {
      auto *variable = llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand());
      if (!variable)
        return fail("loads " + type + " from memory other than a variable");
      assignVariable(variable, type);
    } else if (auto *call = llvm::dyn_cast<llvm::CallBase>(value)) {
      llvm::Function *callee = call->getCalledFunction();
      if (callee && (!callee->isDeclaration() || isImport(*callee)))
        assignReturn(callee, type);
      else if (!callee || callee->getName() != kSamplerInitializer)
        return fail("takes " + type + " from a call to '" + (callee ? callee->getName() : "?") + "'");
    } else {
      return fail("makes " + type + " in a way OpenCL C cannot");
    }
    for (llvm::Use &use : value->uses())
      follow(use, type);
  }

  void follow(llvm::Use &use, const std::string &type) {
    llvm::User *user = use.getUser();
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
      if (call->isCallee(&use))
        return fail("calls " + type);
      unsigned index = call->getArgOperandNo(&use);
      llvm::Function *callee = call->getCalledFunction();
      if (callee && !callee->isDeclaration())
        return assign(callee->getArg(index), type);
      if (callee && isImport(*callee)) {
        auto [found, inserted] = handles_.importParams.insert({{callee, index}, type});
        if (!inserted && found->second != type)
          return fail("passes both " + found->second + " and " + type + " to '" + callee->getName() + "'");
        // Every call passes one there, as to a parameter of a definition.
        if (inserted)
          for (llvm::CallBase *other : callsOf(*callee))
            if (index < other->arg_size())
              assign(other->getArgOperand(index), type);
        return;
      }
      std::optional<SpirBuiltinName> builtin =
          callee ? parseSpirBuiltinName(callee->getName()) : std::optional<SpirBuiltinName>();
      if (!builtin || index >= builtin->params.size() || !builtin->params[index].isHandle)
        return fail("passes " + type + " to '" + (callee ? callee->getName() : "an indirect call") +
                    "', which does not take one there");
      if (builtin->params[index].spelling != type)
        return fail("passes " + type + " to '" + callee->getName() + "', which takes " +
                    builtin->params[index].spelling);
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      auto *variable = llvm::dyn_cast<llvm::AllocaInst>(store->getPointerOperand());
      if (use.getOperandNo() != 0 || !variable)
        return fail("stores " + type + " in memory other than a variable");
      assignVariable(variable, type);
    } else if (llvm::isa<llvm::PHINode>(user) || llvm::isa<llvm::FreezeInst>(user)) {
      assign(user, type);
    } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(user); select && use.getOperandNo() != 0) {
      assign(user, type);
    } else if (llvm::isa<llvm::ReturnInst>(user)) {
      assignReturn(llvm::cast<llvm::Instruction>(user)->getFunction(), type);
    } else {
      std::string text;
      llvm::raw_string_ostream stream(text);
      user->print(stream);
      fail("uses " + type + " in a way OpenCL C cannot:" + text);
    }
  }

  void fail(const llvm::Twine &problem) {
    if (problem_.empty())
      problem_ = problem.str();
  }

  llvm::Module &module_;
  ImageHandles handles_;
  llvm::SmallVector<llvm::Value *, 16> work_;
  std::string problem_;
};

/// The SPIR address space of an image (global) or a sampler (constant).
unsigned spirSpace(const std::string &type) { return type == kSamplerType ? 2 : 1; }

/// `function` anew with `params` and `result` for types, its body, name,
/// attributes and metadata moved over; callers call the new one. The old
/// arguments whose type changed must already have the new type.
void remakeFunction(llvm::Function &function, llvm::ArrayRef<llvm::Type *> params, llvm::Type *result) {
  auto *type = llvm::FunctionType::get(result, params, function.isVarArg());
  llvm::Function *made = llvm::Function::Create(type, function.getLinkage(), function.getAddressSpace(), "");
  function.getParent()->getFunctionList().insert(function.getIterator(), made);
  made->copyAttributesFrom(&function);
  made->copyMetadata(&function, 0);
  made->setCallingConv(function.getCallingConv());
  // Attributes of pointers (align, captures, noundef...) do not apply to
  // the new types.
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i] != function.getFunctionType()->getParamType(i))
      made->removeParamAttrs(i, llvm::AttributeMask(made->getAttributes().getParamAttrs(i)));
  if (result != function.getReturnType())
    made->removeRetAttrs(llvm::AttributeMask(made->getAttributes().getRetAttrs()));
  made->takeName(&function);
  made->splice(made->begin(), &function);
  for (llvm::Argument &argument : function.args()) {
    llvm::Argument *replacement = made->getArg(argument.getArgNo());
    replacement->takeName(&argument);
    argument.replaceAllUsesWith(replacement);
  }
  for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(user);
    if (!call || call->getCalledOperand() != &function)
      continue;
    call->setCalledFunction(made);
    for (unsigned i = 0; i < params.size() && i < call->arg_size(); ++i)
      if (params[i] != function.getFunctionType()->getParamType(i))
        call->removeParamAttrs(i, llvm::AttributeMask(call->getAttributes().getParamAttrs(i)));
    if (result != function.getReturnType())
      call->removeRetAttrs(llvm::AttributeMask(call->getAttributes().getRetAttrs()));
  }
  function.replaceAllUsesWith(made);
  function.eraseFromParent();
}

/// Constants (undef, null) standing for a handle of `type`.
void replaceConstant(llvm::Use &use, llvm::Type *type) {
  if (llvm::isa<llvm::Constant>(use.get()) && use->getType() != type)
    use.set(llvm::PoisonValue::get(type));
}

} // namespace

llvm::Expected<ImageHandles> findImageHandles(llvm::Module &spir) { return HandleFinder(spir).run(); }

llvm::Error giveHandlesTargetTypes(llvm::Module &spir, ImageHandles &handles, llvm::Module &probes,
                                   const TargetConvention &convention) {
  llvm::StringMap<llvm::Type *> targetTypes;
  for (unsigned i = 0; i < handles.types.size(); ++i) {
    llvm::Function *probe = probes.getFunction(kHandleProbePrefix + std::to_string(i));
    if (!probe || probe->arg_size() != 1)
      return mux::makeError(mux::Status::Failure,
                            "internal error: the probe of " + handles.types[i] + " did not compile");
    llvm::Type *type = probe->getArg(0)->getType();
    if (type->isPointerTy() && type->getPointerAddressSpace() != convention.addressSpaces[spirSpace(handles.types[i])])
      return mux::makeError(mux::Status::Failure, "internal error: " + handles.types[i] +
                                                      " is a pointer in another address space on this device");
    targetTypes[handles.types[i]] = type;
    probe->eraseFromParent();
  }
  // Clang declares it, as its other runtime functions, with the target's
  // convention for functions; the translator with C's.
  if (llvm::Function *initializer = spir.getFunction(kSamplerInitializer)) {
    initializer->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    for (llvm::User *user : initializer->users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
        call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  }
  // Pointers on the target too: the retargeting copy gives them its spaces.
  if (llvm::all_of(targetTypes, [](const auto &entry) { return entry.second->isPointerTy(); }))
    return llvm::Error::success();

  // The type replacing the pointers of `type`; null where none does (a
  // pointer, or a type no value has, as in a declaration nothing calls).
  auto targetType = [&](const std::string &type) -> llvm::Type * {
    llvm::Type *target = targetTypes.lookup(type);
    return target && !target->isPointerTy() ? target : nullptr;
  };
  for (auto &[value, type] : handles.values)
    if (llvm::Type *target = targetType(type))
      value->mutateType(target);
  for (auto &[variable, type] : handles.variables)
    if (llvm::Type *target = targetType(type)) {
      variable->setAllocatedType(target);
      for (llvm::User *user : variable->users())
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user))
          replaceConstant(store->getOperandUse(0), target);
    }
  for (auto &[value, type] : handles.values) {
    llvm::Type *target = targetType(type);
    if (!target)
      continue;
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value))
      for (llvm::Use &incoming : phi->incoming_values())
        replaceConstant(incoming, target);
    else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      replaceConstant(select->getOperandUse(1), target);
      replaceConstant(select->getOperandUse(2), target);
    }
  }
  for (auto &[function, type] : handles.returns)
    if (llvm::Type *target = targetType(type))
      for (llvm::BasicBlock &block : *function)
        if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()); ret && ret->getReturnValue())
          replaceConstant(ret->getOperandUse(0), target);

  // Every function whose signature holds a handle: definitions (their
  // arguments now have the new types), the builtins' declarations (from
  // their manglings) and __translate_sampler_initializer.
  llvm::SmallVector<llvm::Function *, 16> functions;
  for (llvm::Function &function : spir)
    functions.push_back(&function);
  for (llvm::Function *function : functions) {
    llvm::SmallVector<llvm::Type *, 8> params;
    for (llvm::Argument &argument : function->args())
      params.push_back(argument.getType());
    llvm::Type *result = function->getReturnType();
    if (llvm::Type *target = handles.returns.count(function) ? targetType(handles.returns.lookup(function)) : nullptr)
      result = target;
    for (auto &[param, type] : handles.importParams)
      if (llvm::Type *target = param.first == function && param.second < params.size() ? targetType(type) : nullptr)
        params[param.second] = target;
    if (function->isDeclaration()) {
      if (function->getName() == kSamplerInitializer) {
        if (llvm::Type *target = targetType(kSamplerType))
          result = target;
      } else if (std::optional<SpirBuiltinName> builtin = parseSpirBuiltinName(function->getName())) {
        for (size_t i = 0; i < builtin->params.size() && i < params.size(); ++i)
          if (llvm::Type *target = builtin->params[i].isHandle ? targetType(builtin->params[i].spelling) : nullptr)
            params[i] = target;
      }
    }
    if (llvm::ArrayRef(params) != function->getFunctionType()->params() || result != function->getReturnType()) {
      for (llvm::CallBase *call : [&] {
             llvm::SmallVector<llvm::CallBase *, 4> calls;
             for (llvm::User *user : function->users())
               if (auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledOperand() == function)
                 calls.push_back(call);
             return calls;
           }())
        for (unsigned i = 0; i < params.size() && i < call->arg_size(); ++i)
          replaceConstant(call->getArgOperandUse(i), params[i]);
      remakeFunction(*function, params, result);
    }
  }
  return llvm::Error::success();
}

} // namespace compiler::il
