// compiler::Target for CPU-like devices: the shared program machinery
// (program_target.h) with the CPU finalize step (cpu_pipeline.h).
#include "compiler/cpu_target.h"

#include "compiler/cpu_binary.h"
#include "compiler/cpu_pipeline.h"
#include "compiler/program_target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"

namespace compiler {
namespace {

std::string cpuIdentity(const CpuTargetConfig &config) {
  std::string extensions = llvm::join(config.extensions, ",");
  std::string identity = "polymux " POLYMUX_VERSION " llvm " LLVM_VERSION_STRING " target " + config.name + " triple " +
                         config.triple + " abi " + config.abi + " cpu " + config.cpu + " features " +
                         identityHash(config.features) + " extensions " + identityHash(extensions) + " builtins " +
                         identityHash(llvm::StringRef(reinterpret_cast<const char *>(config.builtinLibrary.data()),
                                                      config.builtinLibrary.size()));
  identity += " vector " + std::to_string(config.vectorBits) + " sub-group " + std::to_string(config.subGroupSize) +
              " work-group " + std::to_string(config.maxWorkGroupSize);
  if (!config.linkIdentity.empty())
    identity += " link " + identityHash(config.linkIdentity);
  return identity;
}

/// Lowers and compiles a linked module into a cpu_binary.h container.
llvm::Expected<std::vector<std::byte>> finalizeForCpu(const CpuTargetConfig &config, const CodegenConfig &codegen,
                                                      std::unique_ptr<llvm::Module> module, const ModuleData &data) {
  CpuBinary binary;
  CpuLowering lowering;
  lowering.vectorBits = data.optDisable ? 0 : config.vectorBits;
  lowering.subGroupSize = config.subGroupSize;
  lowering.maxWorkGroupSize = config.maxWorkGroupSize;
  if (llvm::Error error = lowerKernelsForCpu(*module, data.kernels, binary, config.builtinLibrary, lowering))
    return error;
  auto machine = createTargetMachine(codegen, data.optDisable);
  if (!machine)
    return machine.takeError();
  optimizeModule(*module, **machine, data.optDisable);
  auto object = emitObject(*module, **machine);
  if (!object)
    return object.takeError();
  if (config.link) {
    object = config.link(*object, binary);
    if (!object)
      return object.takeError();
  }
  dumpBuild(*module, *object, config.dumpExtension);
  binary.object = std::move(*object);
  return encodeCpuBinary(binary, config.binaryMagic);
}

} // namespace

std::unique_ptr<Target> createCpuTarget(CpuTargetConfig config) {
  ProgramTargetConfig program;
  program.identity = cpuIdentity(config);
  program.name = config.name;
  program.frontend.triple = config.triple;
  program.frontend.extensions = config.extensions;
  program.frontend.maxClStd = config.maxClStd;
  program.frontend.abi = config.abi;
  program.frontend.features = config.frontendFeatures;
  program.frontend.pic = config.relocationModel == llvm::Reloc::PIC_;
  program.readsSpirv = config.readsSpirv;
  CodegenConfig codegen{config.triple,          config.cpu,      config.features, config.abi,
                        config.relocationModel, config.codeModel};
  auto shared = std::make_shared<const CpuTargetConfig>(std::move(config));
  program.finalize = [shared, codegen](std::unique_ptr<llvm::Module> module, const ModuleData &data) {
    return finalizeForCpu(*shared, codegen, std::move(module), data);
  };
  setBinaryDecoder(program,
                   [shared](std::span<const std::byte> bytes) { return decodeCpuBinary(bytes, shared->binaryMagic); });
  return createProgramTarget(std::move(program));
}

} // namespace compiler
