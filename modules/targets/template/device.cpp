#include "device.h"

#include "compiler/target.h"
#include "mux/support/host_command_buffer.h"

namespace template_target {
namespace {

/// VENDOR: record kernel launches for your hardware in createLaunch(). The
/// shared base records and runs every transfer, callback and timestamp.
class CommandBuffer final : public mux::support::HostCommandBuffer {
protected:
  llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
  createLaunch(mux::Kernel &, std::span<const mux::KernelArg>, const mux::NDRange &) override {
    return mux::makeError(mux::Status::Unsupported, "the template target cannot run kernels");
  }
};

} // namespace

Device::Device() : HostMemoryDevice(describeDevice()), compiler_(createCompiler()) {}

Device::~Device() = default;

llvm::Expected<std::unique_ptr<mux::CommandBuffer>> Device::createCommandBuffer() {
  return std::make_unique<CommandBuffer>();
}

llvm::Expected<std::unique_ptr<mux::Executable>> Device::createExecutable(std::span<const std::byte>) {
  // VENDOR: load what your compiler's Module::binary() produced.
  return mux::makeError(mux::Status::Unsupported, "the template target cannot load executables");
}

} // namespace template_target
