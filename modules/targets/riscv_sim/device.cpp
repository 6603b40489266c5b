#include "device.h"

#include "kernel_launch.h"

#include "compiler/target.h"

namespace riscv_sim {

namespace {

/// DRAM at the guest addresses of its host view when they leave the fixed
/// regions below dramBase (return address, program, local memory) alone;
/// otherwise at dramBase, without shared virtual memory.
llvm::Expected<std::unique_ptr<mux::support::WindowArena>> createDram(DeviceDescription &description) {
  if (auto identity = mux::support::WindowArena::createIdentity(description.dramSize)) {
    const uint64_t lowest = description.dramBase; // every fixed region lies below it
    if ((*identity)->base() >= lowest) {
      description.dramBase = (*identity)->base();
      description.dramIdentityMapped = true;
      return std::move(*identity);
    }
  } else {
    llvm::consumeError(identity.takeError());
  }
  return mux::support::WindowArena::create(description.dramBase, description.dramSize);
}

} // namespace

llvm::Expected<std::unique_ptr<Device>> Device::create(DeviceDescription description) {
  auto dram = createDram(description);
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
