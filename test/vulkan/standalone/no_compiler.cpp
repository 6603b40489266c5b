// The stand-alone runtime tests (build.sh) run hand-written SPIR-V and do
// not link Clang: their vulkan devices get a compiler that refuses every
// build (the HAL kernel tests then skip), as the template target's does.
#include "compiler/spirv/vulkan_target.h"
#include "mux/status.h"

namespace compiler {
namespace {

constexpr const char *kNoCompiler = "the stand-alone vulkan tests are built without the SPIR-V compiler";

class PendingCompiler final : public Target {
public:
  std::string identity() const override { return "polymux-vulkan-pending"; }
  llvm::Expected<std::unique_ptr<Module>> compile(std::string_view, std::string_view, std::span<const Header>,
                                                  std::string &log) override {
    log += kNoCompiler;
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
  llvm::Expected<std::unique_ptr<Module>> link(std::span<Module *const>, std::string_view, std::string &log) override {
    log += kNoCompiler;
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
  llvm::Expected<std::unique_ptr<Module>> build(std::string_view, std::string_view, std::string &log) override {
    log += kNoCompiler;
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
  llvm::Expected<std::unique_ptr<Module>> deserialize(std::span<const std::byte>) override {
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
};

} // namespace

std::unique_ptr<Target> createVulkanTarget(VulkanTargetConfig) { return std::make_unique<PendingCompiler>(); }

std::span<const std::byte> vulkanBuiltinLibrary() { return {}; }

} // namespace compiler
