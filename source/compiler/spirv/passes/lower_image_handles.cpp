// Images and samplers on the SPIR-V triple. Clang gives them opaque types
// (target("spirv.Image", ...), target("spirv.Sampler")) that a kernel
// cannot be passed in Vulkan without Vulkan images, and the builtins
// library reaches them only through three functions that are casts on CPU
// triples (builtins/image_handles.cl). After inlining, this pass gives each
// kernel the CPU targets' image ABI (compiler/abi/image_abi.h): an image is
// the address of its descriptor (ptr addrspace(1)), a sampler its CLK_*
// bits (i64). __pmx_image_descriptor(image) becomes that address,
// __pmx_sampler_bits(sampler) the bits, and a constant sampler's
// __translate_sampler_initializer(bits) the bits widened.
#include "passes/vulkan_passes.h"

#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

namespace compiler::spirv {
namespace {

constexpr const char *kDescriptorFunction = "__pmx_image_descriptor";
constexpr const char *kSamplerBitsFunction = "__pmx_sampler_bits";
constexpr const char *kSamplerInitializerFunction = "__translate_sampler_initializer";

bool isHandleType(const llvm::Type *type) {
  auto *target = llvm::dyn_cast<llvm::TargetExtType>(type);
  return target && (target->getName() == "spirv.Image" || target->getName() == "spirv.Sampler");
}

/// What a handle becomes: a descriptor address or the sampler's bits.
llvm::Type *loweredType(llvm::Type *type) {
  llvm::LLVMContext &context = type->getContext();
  if (llvm::cast<llvm::TargetExtType>(type)->getName() == "spirv.Image")
    return llvm::PointerType::get(context, 1);
  return llvm::Type::getInt64Ty(context);
}

/// The name of the function `value` calls. Not getCalledFunction(): the
/// library declares one function per image type under one asm label, so
/// the calls' types differ from the declaration's.
llvm::StringRef calleeName(const llvm::Value *value) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  auto *callee = call ? llvm::dyn_cast<llvm::Function>(call->getCalledOperand()) : nullptr;
  return callee ? callee->getName() : llvm::StringRef();
}

class KernelLowering {
public:
  explicit KernelLowering(llvm::Function &kernel) : kernel_(&kernel), module_(*kernel.getParent()) {}

  /// Returns whether the kernel changed.
  bool run() {
    if (!promoteHandleVariables())
      return false;
    bool handles = llvm::any_of(kernel_->args(), [](const llvm::Argument &a) { return isHandleType(a.getType()); });
    for (llvm::Instruction &instruction : llvm::instructions(*kernel_))
      handles |= isHandleType(instruction.getType());
    if (!handles)
      return false;
    replaceSignature();
    llvm::SmallVector<llvm::CallInst *, 8> calls;
    for (llvm::Instruction &instruction : llvm::instructions(*kernel_))
      if (llvm::StringRef name = calleeName(&instruction); name == kDescriptorFunction || name == kSamplerBitsFunction)
        calls.push_back(llvm::cast<llvm::CallInst>(&instruction));
    for (llvm::CallInst *call : calls) {
      llvm::Value *handle = lower(call->getArgOperand(0));
      llvm::IRBuilder<> builder(call);
      llvm::Value *result = calleeName(call) == kDescriptorFunction
                                ? builder.CreatePointerBitCastOrAddrSpaceCast(handle, call->getType())
                                : builder.CreateTrunc(handle, call->getType());
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
    }
    eraseHandles();
    return true;
  }

private:
  /// Variables holding images or samplers (unoptimised code keeps each
  /// argument in one) as SSA values; false when one cannot be.
  bool promoteHandleVariables() {
    llvm::SmallVector<llvm::AllocaInst *, 4> variables;
    for (llvm::Instruction &instruction : llvm::instructions(*kernel_))
      if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
          alloca && isHandleType(alloca->getAllocatedType())) {
        if (!llvm::isAllocaPromotable(alloca)) {
          fail("this use of an image or sampler variable");
          return false;
        }
        variables.push_back(alloca);
      }
    if (!variables.empty()) {
      llvm::DominatorTree dominators(*kernel_);
      llvm::PromoteMemToReg(variables, dominators);
    }
    return true;
  }

  /// The kernel anew with each image or sampler parameter lowered, its body
  /// moved over; the lowered parameters are the values of the old ones.
  void replaceSignature() {
    llvm::Function &old = *kernel_;
    llvm::SmallVector<llvm::Type *, 8> params;
    for (llvm::Argument &argument : old.args())
      params.push_back(isHandleType(argument.getType()) ? loweredType(argument.getType()) : argument.getType());
    auto *type = llvm::FunctionType::get(old.getReturnType(), params, old.isVarArg());
    llvm::Function *lowered = llvm::Function::Create(type, old.getLinkage(), old.getAddressSpace(), "", &module_);
    lowered->copyAttributesFrom(&old);
    lowered->copyMetadata(&old, 0);
    // The lowered parameters' attributes were those of opaque types.
    for (llvm::Argument &argument : old.args())
      if (isHandleType(argument.getType()))
        lowered->removeParamAttrs(argument.getArgNo(),
                                  llvm::AttributeMask(lowered->getAttributes().getParamAttrs(argument.getArgNo())));
    module_.getFunctionList().remove(lowered);
    module_.getFunctionList().insert(old.getIterator(), lowered);
    lowered->takeName(&old);
    lowered->splice(lowered->begin(), &old);
    for (llvm::Argument &argument : old.args()) {
      llvm::Argument *replacement = lowered->getArg(argument.getArgNo());
      replacement->takeName(&argument);
      if (isHandleType(argument.getType()))
        values_[&argument] = replacement;
      else
        argument.replaceAllUsesWith(replacement);
    }
    oldKernel_ = &old;
    kernel_ = lowered;
  }

  /// The lowered value of handle `value` (poison after reporting a build
  /// error, so that the IR stays valid).
  llvm::Value *lower(llvm::Value *value) {
    if (llvm::Value *known = values_.lookup(value))
      return known;
    llvm::Type *type = loweredType(value->getType());
    llvm::Value *result = nullptr;
    if (llvm::isa<llvm::PoisonValue>(value) || llvm::isa<llvm::UndefValue>(value))
      result = llvm::PoisonValue::get(type);
    else if (llvm::isa<llvm::ConstantTargetNone>(value))
      result = llvm::Constant::getNullValue(type);
    else if (calleeName(value) == kSamplerInitializerFunction) {
      auto *call = llvm::cast<llvm::CallInst>(value);
      result = llvm::IRBuilder<>(call).CreateZExtOrTrunc(call->getArgOperand(0), type);
    } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
      // Made first, so that a loop through the phi finds it.
      auto *lowered = llvm::PHINode::Create(type, phi->getNumIncomingValues(), "", phi->getIterator());
      values_[value] = lowered;
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        lowered->addIncoming(lower(phi->getIncomingValue(i)), phi->getIncomingBlock(i));
      return lowered;
    } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      llvm::Value *yes = lower(select->getTrueValue());
      llvm::Value *no = lower(select->getFalseValue());
      result = llvm::IRBuilder<>(select).CreateSelect(select->getCondition(), yes, no);
    } else if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(value)) {
      result = llvm::IRBuilder<>(freeze).CreateFreeze(lower(freeze->getOperand(0)));
    } else {
      fail("this image or sampler value");
      result = llvm::PoisonValue::get(type);
    }
    values_[value] = result;
    return result;
  }

  /// Removes the handle values left (their uses are lowered) and the old
  /// kernel; reports any other use of one.
  void eraseHandles() {
    llvm::SmallVector<llvm::Instruction *, 8> dead;
    for (llvm::Instruction &instruction : llvm::instructions(*kernel_))
      if (isHandleType(instruction.getType()))
        dead.push_back(&instruction);
    auto reportUses = [&](llvm::Value &value) {
      for (llvm::User *user : value.users()) {
        auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
        if (!instruction || isHandleType(instruction->getType()))
          continue;
        if (llvm::StringRef name = calleeName(instruction); !name.empty())
          fail("the function '" + name + "' (not in the builtins library)");
        else
          fail("this use of an image or sampler");
      }
    };
    for (llvm::Instruction *instruction : dead)
      reportUses(*instruction);
    if (oldKernel_)
      for (llvm::Argument &argument : oldKernel_->args())
        reportUses(argument);
    for (llvm::Instruction *instruction : dead)
      instruction->replaceAllUsesWith(llvm::PoisonValue::get(instruction->getType()));
    for (llvm::Instruction *instruction : dead)
      instruction->eraseFromParent();
    if (oldKernel_) {
      for (llvm::Argument &argument : oldKernel_->args())
        argument.replaceAllUsesWith(llvm::PoisonValue::get(argument.getType()));
      oldKernel_->replaceAllUsesWith(kernel_);
      oldKernel_->eraseFromParent();
    }
  }

  void fail(const llvm::Twine &what) {
    reportBuildError(module_, "error: " + kernel_->getName() + ": SPIR-V emission does not support " + what);
  }

  llvm::Function *kernel_;
  llvm::Module &module_;
  llvm::Function *oldKernel_ = nullptr;
  llvm::DenseMap<llvm::Value *, llvm::Value *> values_;
};

} // namespace

llvm::PreservedAnalyses LowerImageHandlesPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function *kernel : kernelFunctions(module))
    changed |= KernelLowering(*kernel).run();
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
