#include "compiler/spirv/spirv_text.h"

#include "mux/status.h"

#include "spirv-tools/libspirv.hpp"

namespace compiler::spirv {

llvm::Expected<std::string> disassembleSpirv(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position, const char *text) {
    messages += "word " + std::to_string(position.index) + ": " + text + "\n";
  });
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return mux::makeError(mux::Status::InvalidArgument, "not a SPIR-V module: " + messages);
  return text;
}

} // namespace compiler::spirv
