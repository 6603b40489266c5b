// compiler::Target for Vulkan devices: the shared program machinery
// (compiler/program_target.h) with the SPIR-V finalize step.
#include "compiler/spirv/vulkan_target.h"

#include "spirv_emitter.h"
#include "spirv_validation.h"
#include "vulkan_pipeline.h"

#include "compiler/passes.h"
#include "compiler/program_target.h"
#include "compiler/vulkan_binary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"

extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_vulkan_begin[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_vulkan_end[];

namespace compiler {
namespace {

std::string vulkanIdentity(const VulkanTargetConfig &config) {
  std::string facts = llvm::join(config.extensions, ",") + ";" + std::to_string(config.maxPushConstantsSize) + ";" +
                      std::to_string(config.subgroupSize) + ";" + std::to_string(config.maxWorkGroupSize) + ";" +
                      std::to_string(config.fp64) + std::to_string(config.fp16) + std::to_string(config.int8) +
                      std::to_string(config.int16) + std::to_string(config.atomicInt64) +
                      std::to_string(config.denormPreserveFloat16) + std::to_string(config.denormPreserveFloat32) +
                      std::to_string(config.denormPreserveFloat64) + std::to_string(config.roundingModeRTZFloat32) +
                      std::to_string(config.clampWordMemoryReads) + std::to_string(config.exactDoubleFma);
  return "polymux " POLYMUX_VERSION " llvm " LLVM_VERSION_STRING " target " + config.name + " triple " +
         POLYMUX_SPIRV_TRIPLE " device " + identityHash(config.deviceIdentity) + " facts " + identityHash(facts) +
         " builtins " +
         identityHash(llvm::StringRef(reinterpret_cast<const char *>(config.builtinLibrary.data()),
                                      config.builtinLibrary.size()));
}

llvm::Expected<std::vector<std::byte>> finalizeForVulkan(const VulkanTargetConfig &config,
                                                         std::unique_ptr<llvm::Module> module, const ModuleData &data) {
  if (llvm::Error error = spirv::prepareForVulkan(*module, config, data.optDisable))
    return error;
  VulkanBinary binary;
  binary.printfTable = takePrintfTable(*module);
  if (llvm::Error error = spirv::emitSpirv(*module, data.kernels, config, binary)) {
    dumpBuild(*module, {}, "spv"); // the IR the emitter refused, for POLYMUX_DUMP
    return error;
  }
  std::span<const std::byte> words = std::as_bytes(std::span(binary.spirv));
  dumpBuild(*module, words, "spv");
  if (spirv::validationWanted())
    if (llvm::Error error = spirv::validateForVulkan(binary.spirv))
      return error;
  return encodeVulkanBinary(binary);
}

} // namespace

std::span<const std::byte> vulkanBuiltinLibrary() {
  return std::as_bytes(std::span(polymux_builtins_vulkan_begin, polymux_builtins_vulkan_end));
}

std::unique_ptr<Target> createVulkanTarget(VulkanTargetConfig config) {
  ProgramTargetConfig program;
  program.identity = vulkanIdentity(config);
  program.name = "vulkan";
  program.frontend.triple = POLYMUX_SPIRV_TRIPLE;
  program.frontend.extensions = config.extensions;
  program.frontend.maxClStd = config.maxClStd;
  program.frontend.pic = false;
  program.readsSpirv = true;
  auto shared = std::make_shared<const VulkanTargetConfig>(std::move(config));
  program.finalize = [shared](std::unique_ptr<llvm::Module> module, const ModuleData &data) {
    return finalizeForVulkan(*shared, std::move(module), data);
  };
  setBinaryDecoder(program, [](std::span<const std::byte> bytes) { return decodeVulkanBinary(bytes); });
  return createProgramTarget(std::move(program));
}

} // namespace compiler
