// Helpers of the SPIR-V compiler tests: a Vulkan target configured like
// lavapipe, builds, and SPIRV-Tools' Vulkan 1.3 validator.
#pragma once

#include "compiler/spirv/vulkan_target.h"
#include "compiler/vulkan_binary.h"

#include "spirv-tools/libspirv.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <string>

namespace compiler::spirv::test {

/// lavapipe 22.3.6's facts (notes/vulkan-route.md).
inline VulkanTargetConfig lavapipeConfig() {
  VulkanTargetConfig config;
  config.deviceIdentity = "test lavapipe";
  config.extensions = {"cl_khr_fp64",
                       "__opencl_c_fp64",
                       "cl_khr_int64_base_atomics",
                       "cl_khr_int64_extended_atomics",
                       "__opencl_c_int64",
                       "cl_khr_global_int32_base_atomics",
                       "cl_khr_global_int32_extended_atomics",
                       "cl_khr_local_int32_base_atomics",
                       "cl_khr_byte_addressable_store",
                       "__opencl_c_program_scope_global_variables",
                       "__opencl_c_work_group_collective_functions"};
  config.builtinLibrary = vulkanBuiltinLibrary();
  config.maxPushConstantsSize = 128;
  config.fp64 = config.int8 = config.int16 = config.atomicInt64 = true;
  config.exactDoubleFma = false; // its double Fma rounds twice
  return config;
}

/// SPIRV-Tools' messages for `words`; empty when the module is valid for Vulkan 1.3.
inline std::string validationMessages(const std::vector<uint32_t> &words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &, const char *text) {
    messages += std::string(text) + "\n";
  });
  if (!tools.Validate(words))
    messages += "(invalid)";
  return messages;
}

struct Built {
  /// The module refers to its target: declared first, destroyed last.
  std::unique_ptr<Target> target;
  std::unique_ptr<Module> module;
  VulkanBinary binary;
  std::string log;
};

/// Builds `source` for `config`; fails the test with the log when it does
/// not build or does not validate.
inline Built buildOk(const std::string &source, const std::string &options = "",
                     const VulkanTargetConfig &config = lavapipeConfig()) {
  Built built;
  built.target = createVulkanTarget(config);
  auto module = built.target->build(source, options, built.log);
  if (!module) {
    ADD_FAILURE() << "build failed: " << llvm::toString(module.takeError()) << "\nlog:\n" << built.log;
    return built;
  }
  built.module = std::move(*module);
  auto bytes = built.module->binary();
  if (!bytes) {
    ADD_FAILURE() << llvm::toString(bytes.takeError());
    return built;
  }
  auto binary = decodeVulkanBinary(*bytes);
  if (!binary) {
    ADD_FAILURE() << llvm::toString(binary.takeError());
    return built;
  }
  built.binary = std::move(*binary);
  EXPECT_EQ(validationMessages(built.binary.spirv), "");
  return built;
}

/// Builds `source`, expects failure and returns the log.
inline std::string buildFails(const std::string &source, const std::string &options = "-cl-std=CL3.0",
                              const VulkanTargetConfig &config = lavapipeConfig()) {
  std::string log;
  auto target = createVulkanTarget(config);
  auto module = target->build(source, options, log);
  EXPECT_FALSE(module) << "the build should fail";
  if (!module)
    llvm::consumeError(module.takeError());
  return log;
}

/// How many instructions of `spirv` (a whole module) satisfy `matches`,
/// which sees each instruction's words (opcode word first).
template <typename Predicate> size_t countInstructions(const std::vector<uint32_t> &spirv, Predicate matches) {
  size_t count = 0;
  for (size_t i = 5; i < spirv.size();) {
    const uint32_t words = spirv[i] >> 16;
    if (words == 0 || i + words > spirv.size())
      break;
    count += matches(std::span<const uint32_t>(spirv.data() + i, words)) ? 1 : 0;
    i += words;
  }
  return count;
}

/// The OpAtomicIAdd every kernel ends with: its progress counter
/// (compiler/abi/vulkan_kernel_abi.h, "Progress").
inline constexpr size_t kProgressAtomics = 1;

/// How many instructions of `spirv` have `opcode`.
inline size_t opcodeCount(const std::vector<uint32_t> &spirv, uint32_t opcode) {
  return countInstructions(spirv, [&](std::span<const uint32_t> words) { return (words[0] & 0xffff) == opcode; });
}

inline const VulkanKernelBinaryInfo *kernelNamed(const VulkanBinary &binary, const std::string &name) {
  for (const VulkanKernelBinaryInfo &kernel : binary.kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

} // namespace compiler::spirv::test
