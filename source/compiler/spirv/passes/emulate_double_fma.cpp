// On a device whose double fma rounds twice (GLSL.std.450 Fma may; the fp64
// probe measures it), cl_khr_fp64 still needs fma() exact, and so do the
// builtins library's error-free transformations in its double functions.
// Each of those becomes a call to the library's fma computed in integers
// (builtins/math/fma_in_integers.cl), linked with the other builtins: the
// kernels' own double fmas, and the library's exact fma, __pmx_fma_exact
// (PMX_FMA_EXACT in builtins/include/pmx_math.h), where a kernel's double
// computation reaches it: in what the kernels call, directly or not, of
// library helpers (__pmx_*) and builtins with a double in their signature.
//
// The rest keeps the device's fma: the library's other fmas (polynomials,
// corrections), where a second rounding stays far inside each function's
// bound, and all of the float builtins, which compute in double only for
// extra precision (a "double-double" whose low part an unfused fma loses
// still has 53 bits for a 24-bit result; pow(float) calls pow(double)).
// The integer fma is some 340 SPIR-V instructions, inlined wherever it is
// used.
#include "passes/vulkan_passes.h"

#include "compiler/builtin_library.h"
#include "compiler/passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <cstring>
#include <string>

namespace compiler::spirv {
namespace {

/// The library's fma that must be exact (pmx_math.h), overloaded for
/// double scalars and vectors.
constexpr const char *kExactFmaFunction = "__pmx_fma_exact";

bool isExactFmaOverload(const llvm::Function &function) {
  static const std::string mangledName = "_Z" + std::to_string(std::strlen(kExactFmaFunction)) + kExactFmaFunction;
  return function.getName().starts_with(mangledName);
}

bool isFromLibrary(const llvm::Function &function) { return function.hasFnAttribute(kBuiltinLibraryAttribute); }

bool mentionsDouble(const llvm::FunctionType &type) {
  auto isDouble = [](llvm::Type *t) { return t->getScalarType()->isDoubleTy(); };
  return isDouble(type.getReturnType()) || llvm::any_of(type.params(), isDouble);
}

/// The kernels' code and the library functions their double computations
/// reach: helpers (not mangled) and builtins with a double in their
/// signature, through any number of calls.
llvm::SetVector<llvm::Function *> doublePrecisionCallees(llvm::Module &module) {
  llvm::SetVector<llvm::Function *> reached;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !isFromLibrary(function))
      reached.insert(&function);
  for (size_t i = 0; i < reached.size(); ++i)
    for (llvm::Instruction &instruction : llvm::instructions(*reached[i]))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration() &&
            (!callee->getName().starts_with("_Z") || mentionsDouble(*callee->getFunctionType())))
          reached.insert(callee);
  return reached;
}

/// A double fma (scalar or vector) whose result must be exact in `function`.
bool isExactFmaSite(const llvm::Function &function, const llvm::Instruction &instruction) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  if (!call || !call->getType()->getScalarType()->isDoubleTy())
    return false;
  if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call))
    return intrinsic->getIntrinsicID() == llvm::Intrinsic::fma && !isFromLibrary(function);
  llvm::Function *callee = call->getCalledFunction();
  return callee && isExactFmaOverload(*callee);
}

} // namespace

void declareFmaInIntegers(llvm::Module &module) {
  llvm::Type *doubleType = llvm::Type::getDoubleTy(module.getContext());
  module.getOrInsertFunction(kFmaInIntegersFunction,
                             llvm::FunctionType::get(doubleType, {doubleType, doubleType, doubleType}, false));
}

llvm::PreservedAnalyses EmulateDoubleFmaPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<llvm::CallInst *, 16> sites;
  for (llvm::Function *function : doublePrecisionCallees(module))
    for (llvm::Instruction &instruction : llvm::instructions(*function))
      if (isExactFmaSite(*function, instruction))
        sites.push_back(llvm::cast<llvm::CallInst>(&instruction));
  if (sites.empty())
    return llvm::PreservedAnalyses::all();
  llvm::Function *emulation = module.getFunction(kFmaInIntegersFunction);
  if (!emulation || emulation->isDeclaration()) {
    reportBuildError(module, "internal compiler error: the builtins library has no " +
                                 llvm::Twine(kFmaInIntegersFunction) + ", which this device's double fma needs");
    return llvm::PreservedAnalyses::all();
  }
  for (llvm::CallInst *fma : sites) {
    llvm::IRBuilder<> builder(fma);
    auto exactFma = [&](llvm::Value *a, llvm::Value *b, llvm::Value *c) -> llvm::Value * {
      return builder.CreateCall(emulation, {a, b, c});
    };
    llvm::Value *result;
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(fma->getType())) {
      result = llvm::PoisonValue::get(vector);
      for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
        auto element = [&](unsigned operand) {
          return builder.CreateExtractElement(fma->getArgOperand(operand), lane);
        };
        result = builder.CreateInsertElement(result, exactFma(element(0), element(1), element(2)), lane);
      }
    } else {
      result = exactFma(fma->getArgOperand(0), fma->getArgOperand(1), fma->getArgOperand(2));
    }
    fma->replaceAllUsesWith(result);
    fma->eraseFromParent();
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace compiler::spirv
