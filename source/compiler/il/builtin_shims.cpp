#include "compiler/il/builtin_shims.h"

#include "compiler/il/spir_builtin_name.h"
#include "mux/status.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace compiler::il {
namespace {

// The shims pass half and double values (a SPIR-V module's Float16 and
// Float64), which OpenCL C lets through pointers only with the extensions
// enabled; a device without them has no such module.
constexpr const char *kProbeSource =
    "#ifdef cl_khr_fp16\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#endif\n"
    "#ifdef cl_khr_fp64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#endif\n"
    "void __pmx_il_probe(__private char *p, __global char *g, __constant char *c, __local char *l\n"
    "#ifdef __opencl_c_generic_address_space\n"
    "                    , __generic char *q\n"
    "#endif\n"
    "                    ) {}\n";

std::string shimSource(const std::string &shimName, const SpirBuiltinName &builtin, bool returnsValue) {
  std::string params, args;
  for (size_t i = 0; i < builtin.params.size(); ++i) {
    const SpirParam &param = builtin.params[i];
    std::string name = "a" + std::to_string(i);
    params += ", ";
    if (param.isPointer || param.isHandle) {
      params += param.spelling + (param.isHandle ? " " : "") + name;
      args += name;
    } else {
      params += "__private const " + param.spelling + " *" + name;
      args += "*" + name;
    }
    if (i + 1 < builtin.params.size())
      args += ", ";
  }
  std::string call = builtin.name + "(" + args + ")";
  std::string source = "void " + shimName + "(__private void *r" + params + ") {\n  ";
  if (returnsValue)
    source += "*(__private __typeof__(" + call + ") *)r = ";
  return source + call + ";\n}\n";
}

} // namespace

llvm::Expected<ShimPlan> planBuiltinShims(const llvm::Module &spir) {
  ShimPlan plan;
  plan.source = kProbeSource;
  for (const llvm::Function &function : spir) {
    if (!function.isDeclaration() || function.isIntrinsic() || !function.getName().starts_with("_Z") ||
        function.use_empty())
      continue;
    std::optional<SpirBuiltinName> builtin = parseSpirBuiltinName(function.getName());
    if (!builtin)
      return mux::makeError(mux::Status::Failure, "error: the SPIR-V module calls '" + function.getName().str() +
                                                      "', whose parameter types this device's compiler does not know");
    BuiltinShim shim{function.getName().str(), "__pmx_il_shim_" + std::to_string(plan.shims.size())};
    plan.source += shimSource(shim.shimName, *builtin, !function.getReturnType()->isVoidTy());
    plan.shims.push_back(std::move(shim));
  }
  return plan;
}

llvm::Error callThroughShims(llvm::Module &module, const ShimPlan &plan) {
  llvm::SmallVector<llvm::CallInst *, 32> shimCalls;
  for (const BuiltinShim &shim : plan.shims) {
    llvm::Function *declaration = module.getFunction(kSpirDeclarationPrefix + shim.spirName);
    llvm::Function *target = module.getFunction(shim.shimName);
    if (!declaration || !target)
      return mux::makeError(mux::Status::Failure, "internal error: lost the shim of '" + shim.spirName + "'");
    llvm::SmallVector<llvm::CallInst *, 8> calls;
    for (llvm::User *user : declaration->users()) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledOperand() != declaration)
        return mux::makeError(mux::Status::Failure,
                              "error: the SPIR-V module takes the address of builtin '" + shim.spirName + "'");
      calls.push_back(call);
    }
    for (llvm::CallInst *call : calls) {
      llvm::Function *caller = call->getFunction();
      llvm::IRBuilder<> entry(&*caller->getEntryBlock().getFirstInsertionPt());
      const llvm::DataLayout &layout = module.getDataLayout();
      auto slot = [&](llvm::Type *type) { return entry.CreateAlloca(type, layout.getAllocaAddrSpace()); };
      llvm::IRBuilder<> builder(call);
      llvm::Type *returnType = call->getType();
      llvm::Value *result = returnType->isVoidTy() ? nullptr : slot(returnType);
      llvm::SmallVector<llvm::Value *, 6> args;
      args.push_back(result ? result : llvm::ConstantPointerNull::get(builder.getPtrTy(layout.getAllocaAddrSpace())));
      for (llvm::Value *arg : call->args()) {
        // Pointers, images and samplers as they are.
        if (arg->getType()->isPointerTy() || llvm::isa<llvm::TargetExtType>(arg->getType())) {
          args.push_back(arg);
          continue;
        }
        llvm::AllocaInst *argSlot = slot(arg->getType());
        builder.CreateStore(arg, argSlot);
        args.push_back(argSlot);
      }
      llvm::FunctionType *shimType = target->getFunctionType();
      if (shimType->getNumParams() != args.size())
        return mux::makeError(mux::Status::Failure,
                              "internal error: the shim of '" + shim.spirName + "' takes another number of arguments");
      for (size_t i = 0; i < args.size(); ++i)
        if (args[i]->getType() != shimType->getParamType(i))
          args[i] = builder.CreateAddrSpaceCast(args[i], shimType->getParamType(i));
      llvm::CallInst *shimCall = builder.CreateCall(target, args);
      shimCall->setCallingConv(target->getCallingConv());
      if (result)
        call->replaceAllUsesWith(builder.CreateLoad(returnType, result));
      call->eraseFromParent();
      shimCalls.push_back(shimCall);
    }
  }
  for (llvm::CallInst *call : shimCalls) {
    llvm::InlineFunctionInfo info;
    llvm::InlineResult inlined = llvm::InlineFunction(*call, info);
    if (!inlined.isSuccess())
      return mux::makeError(mux::Status::Failure, std::string("internal error: a builtin shim did not inline: ") +
                                                      inlined.getFailureReason());
  }
  for (const BuiltinShim &shim : plan.shims) {
    module.getFunction(shim.shimName)->eraseFromParent();
    module.getFunction(kSpirDeclarationPrefix + shim.spirName)->eraseFromParent();
  }
  if (llvm::Function *probe = module.getFunction(kProbeFunction))
    probe->eraseFromParent();
  return llvm::Error::success();
}

} // namespace compiler::il
