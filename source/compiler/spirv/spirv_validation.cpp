#include "spirv_validation.h"

#include "mux/status.h"

#include "spirv-tools/libspirv.hpp"

#include <cstdlib>
#include <string>

namespace compiler::spirv {

llvm::Error validateForVulkan(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position, const char *text) {
    messages += "error: SPIR-V validation (word " + std::to_string(position.index) + "): " + text + "\n";
  });
  spvtools::ValidatorOptions options;
  if (tools.Validate(words.data(), words.size(), options))
    return llvm::Error::success();
  if (!messages.empty() && messages.back() == '\n')
    messages.pop_back();
  return mux::makeError(mux::Status::Failure, "internal compiler error: invalid SPIR-V:\n" + messages);
}

bool validationWanted() {
#ifndef NDEBUG
  return true;
#else
  const char *value = std::getenv("POLYMUX_VALIDATE_SPIRV");
  return value && std::string(value) == "1";
#endif
}

} // namespace compiler::spirv
