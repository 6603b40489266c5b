#include "device.h"

#include "kernel_launch.h"

#include "compiler/target.h"

namespace riscv_sim {

llvm::Expected<std::unique_ptr<Device>> Device::create(DeviceDescription description) {
  auto dram = mux::support::WindowArena::create(description.dramBase, description.dramSize);
  if (!dram)
    return dram.takeError();
  auto harts = HartArray::create(description);
  if (!harts)
    return harts.takeError();
  return std::unique_ptr<Device>(new Device(std::move(description), std::move(*dram), std::move(*harts)));
}

Device::Device(DeviceDescription description, std::unique_ptr<mux::support::WindowArena> dram,
               std::unique_ptr<HartArray> harts)
    : HostMemoryDevice(describeDevice(description), *dram), description_(std::move(description)),
      dram_(std::move(dram)), harts_(std::move(harts)) {}

// The queue (destroyed first) finishes every dispatch that can still run.
Device::~Device() = default;

compiler::Target &Device::compiler() {
  // Created on first use: enumerating devices should not start LLVM.
  std::call_once(compilerOnce_, [&] { compiler_ = createCompiler(description_, info()); });
  return *compiler_;
}

llvm::Expected<std::unique_ptr<mux::CommandBuffer>> Device::createCommandBuffer() {
  return std::make_unique<CommandBuffer>(*this);
}

llvm::Expected<std::unique_ptr<mux::Executable>> Device::createExecutable(std::span<const std::byte> binary) {
  if (binary.empty())
    return mux::makeError(mux::Status::InvalidArgument, "executable binary is empty");
  return loadExecutable(binary, description_, info().maxWorkGroupSize);
}

} // namespace riscv_sim
