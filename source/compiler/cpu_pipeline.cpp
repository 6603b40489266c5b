#include "compiler/cpu_pipeline.h"

#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/builtin_library.h"
#include "compiler/passes.h"
#include "mux/status.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <mutex>

namespace compiler {
namespace {

/// Sum of the fixed-size allocas of `function`: its private memory.
uint64_t staticAllocaBytes(const llvm::Function &function) {
  const llvm::DataLayout &layout = function.getDataLayout();
  uint64_t bytes = 0;
  for (const llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (auto size = alloca->getAllocationSize(layout); size && !size->isScalable())
        bytes += size->getFixedValue();
  return bytes;
}

/// Bytes of the program-scope variables a program allocates: defined,
/// writable globals that are not __local (clang leaves those undef).
uint64_t programScopeVariableBytes(const llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  uint64_t bytes = 0;
  for (const llvm::GlobalVariable &variable : module.globals()) {
    if (variable.isDeclaration() || variable.isConstant() || llvm::isa<llvm::UndefValue>(variable.getInitializer()) ||
        variable.getAddressSpace() == 3 || variable.getName().starts_with("llvm."))
      continue;
    bytes += layout.getTypeAllocSize(variable.getValueType()).getFixedValue();
  }
  return bytes;
}

/// Under -cl-fast-relaxed-math Clang marks `x / y` arcp/afn, which lets the
/// code generator use a reciprocal estimate plus one Newton step: up to
/// 3 ulp, while the relaxed bound for divide is 2.5 ulp. A plain division
/// is correctly rounded and barely slower, so divisions keep their other
/// fast-math flags but lose those two.
void keepDivisionsWithinRelaxedBounds(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (instruction.getOpcode() == llvm::Instruction::FDiv) {
        instruction.setHasAllowReciprocal(false);
        instruction.setHasApproxFunc(false);
      }
}

} // namespace

void runModulePasses(llvm::Module &module, llvm::PassBuilder &builder, llvm::ModulePassManager &passes,
                     llvm::function_ref<void(llvm::FunctionAnalysisManager &)> registerFirst) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  if (registerFirst)
    registerFirst(functions);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  passes.run(module, modules);
}

void runModulePasses(llvm::Module &module, llvm::ModulePassManager &passes) {
  llvm::PassBuilder builder;
  runModulePasses(module, builder, passes);
}

void initializeLLVMTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const CodegenConfig &config, bool optDisable) {
  initializeLLVMTargets();
  llvm::Triple triple(config.triple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return mux::makeError(mux::Status::Unsupported, "no LLVM target for " + config.triple + ": " + error);
  llvm::TargetOptions options;
  options.MCOptions.ABIName = config.abi;
  auto level = optDisable ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, config.cpu, config.features, options, config.relocationModel, config.codeModel, level));
  if (!machine)
    return mux::makeError(mux::Status::Unsupported, "cannot create a code generator for " + config.triple);
  return machine;
}

llvm::Error lowerKernelsForCpu(llvm::Module &module, const std::vector<KernelInfo> &kernels, CpuBinary &binary,
                               std::span<const std::byte> builtinLibrary, const CpuLowering &lowering) {
  binary.globalVariableSize = programScopeVariableBytes(module);
  if (llvm::Error error = linkBuiltinLibrary(module, builtinLibrary))
    return error;
  LowerGroupBuiltinsPass::Options groups;
  groups.subGroupSize = lowering.subGroupSize;
  groups.maxWorkGroupSize = lowering.maxWorkGroupSize;
  groups.deferSubGroupCollectives = true;
  {
    llvm::ModulePassManager passes;
    passes.addPass(GuardIntegerDivisionPass());
    passes.addPass(LowerExactBuiltinsPass());
    passes.addPass(LowerAtomicBuiltinsPass());
    passes.addPass(PrepareInliningPass());
    passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
    passes.addPass(ClearPrivateVolatilePass());
    passes.addPass(LowerGroupBuiltinsPass(groups));
    passes.addPass(LowerWorkItemBuiltinsPass(lowering.maxWorkGroupSize));
    passes.addPass(LowerLocalVariablesPass());
    passes.addPass(LowerPrintfPass());
    passes.addPass(LowerKernelExitPass());
    passes.addPass(LowerGenericAddressSpacePass());
    runModulePasses(module, passes);
  }
  if (llvm::Error error = takeBuildErrors(module))
    return error;
  binary.printfTable = takePrintfTable(module);
  binary.kernels.clear();
  for (const KernelInfo &kernel : kernels) {
    CpuKernelBinaryInfo info;
    info.name = kernel.name;
    info.subGroupSize = lowering.subGroupSize;
    if (llvm::Function *workItem = module.getFunction(kWorkItemPrefix + kernel.name)) {
      info.privateMemSize = staticAllocaBytes(*workItem);
      info.localMemSize = integerAttribute(*workItem, kLocalMemSizeAttribute);
      if (workItem->hasFnAttribute(kUsesPrintfAttribute))
        info.flags |= KernelUsesPrintf;
    }
    binary.kernels.push_back(std::move(info));
  }
  {
    llvm::ModulePassManager passes;
    passes.addPass(VectorizeWorkItemsPass(lowering.vectorBits, lowering.subGroupSize));
    passes.addPass(LowerSubGroupCollectiveMarkersPass(groups));
    passes.addPass(KernelWrapperPass(lowering.vectorBits));
    passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/true));
    runModulePasses(module, passes);
  }
  if (llvm::Error error = takeBuildErrors(module))
    return error;
  for (CpuKernelBinaryInfo &info : binary.kernels)
    if (llvm::Function *entry = module.getFunction(abi::kEntryPrefix + info.name)) {
      info.workItemStateSize = integerAttribute(*entry, kWorkItemStateSizeAttribute);
      info.privateMemSize += info.workItemStateSize;
    }
  // Only the entry points stay visible; everything else may be removed.
  for (llvm::GlobalValue &global : module.global_values()) {
    if (global.isDeclaration() || global.getName().starts_with(abi::kEntryPrefix))
      continue;
    global.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  {
    llvm::ModulePassManager passes;
    passes.addPass(llvm::GlobalDCEPass());
    runModulePasses(module, passes);
  }
  if (llvm::Error error = checkUnresolvedSymbols(module))
    return error;
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(module, &stream))
    return mux::makeError(mux::Status::Failure, "internal compiler error: invalid IR after lowering: " + problems);
  return llvm::Error::success();
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, bool optDisable) {
  keepDivisionsWithinRelaxedBounds(module);
  module.setDataLayout(machine.createDataLayout());
  module.setTargetTriple(machine.getTargetTriple());
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine.getTargetCPU());
    function.addFnAttr("target-features", machine.getTargetFeatureString());
  }
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = !optDisable;
  tuning.SLPVectorization = !optDisable;
  llvm::PassBuilder builder(&machine, tuning);
  llvm::ModulePassManager passes = optDisable ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                              : builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  runModulePasses(module, builder, passes);
}

llvm::Expected<std::vector<std::byte>> emitObject(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, llvm::CodeGenFileType::ObjectFile))
    return mux::makeError(mux::Status::Unsupported, "the code generator cannot emit object files");
  passes.run(module);
  const auto *begin = reinterpret_cast<const std::byte *>(buffer.data());
  return std::vector<std::byte>(begin, begin + buffer.size());
}

void applyFastMathFlags(llvm::Module &module, bool noNaNsInfs, bool noSignedZeros, bool unsafe, bool denormsAreZero) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    if (denormsAreZero)
      function.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      if (!llvm::isa<llvm::FPMathOperator>(instruction))
        continue;
      if (unsafe) {
        instruction.setFast(true);
        continue;
      }
      if (noNaNsInfs) {
        instruction.setHasNoNaNs(true);
        instruction.setHasNoInfs(true);
      }
      if (noSignedZeros)
        instruction.setHasNoSignedZeros(true);
    }
  }
}

} // namespace compiler
