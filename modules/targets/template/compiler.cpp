// VENDOR: replace with your compiler::Target. Until then every entry point
// reports Unsupported, which the OpenCL layer turns into a build failure
// (CL_COMPILER_NOT_AVAILABLE) instead of pretending to build.
#include "device.h"

#include "compiler/target.h"
#include "mux/status.h"

namespace template_target {
namespace {

constexpr const char *kNoCompiler = "the template target has no compiler";

class NoCompiler final : public compiler::Target {
public:
  std::string identity() const override { return "polymux-template-no-compiler"; }
  llvm::Expected<std::unique_ptr<compiler::Module>>
  compile(std::string_view, std::string_view, std::span<const compiler::Header>, std::string &log) override {
    log += kNoCompiler;
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
  llvm::Expected<std::unique_ptr<compiler::Module>> link(std::span<compiler::Module *const>, std::string_view,
                                                         std::string &log) override {
    log += kNoCompiler;
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
  llvm::Expected<std::unique_ptr<compiler::Module>> build(std::string_view, std::string_view,
                                                          std::string &log) override {
    log += kNoCompiler;
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
  llvm::Expected<std::unique_ptr<compiler::Module>> deserialize(std::span<const std::byte>) override {
    return mux::makeError(mux::Status::Unsupported, kNoCompiler);
  }
};

} // namespace

std::unique_ptr<compiler::Target> createCompiler() { return std::make_unique<NoCompiler>(); }

} // namespace template_target
