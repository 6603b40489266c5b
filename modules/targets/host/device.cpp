#include "device.h"

#include "compiler/target.h"
#include "executable.h"
#include "kernel_launch.h"

namespace host {

Device::Device(mux::DeviceInfo info, unsigned threads) : HostMemoryDevice(std::move(info)), pool_(threads) {}

// The queue (destroyed first) finishes every dispatch that can still run.
Device::~Device() = default;

compiler::Target &Device::compiler() {
  // Created on first use: enumerating devices should not start LLVM.
  std::call_once(compilerOnce_, [&] { compiler_ = createHostCompiler(info()); });
  return *compiler_;
}

llvm::Expected<std::unique_ptr<mux::CommandBuffer>> Device::createCommandBuffer() {
  return std::make_unique<CommandBuffer>(pool_, info());
}

llvm::Expected<std::unique_ptr<mux::Executable>> Device::createExecutable(std::span<const std::byte> binary) {
  if (binary.empty())
    return mux::makeError(mux::Status::InvalidArgument, "executable binary is empty");
  return loadExecutable(binary, info());
}

} // namespace host
