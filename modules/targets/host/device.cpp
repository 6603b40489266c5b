#include "device.h"

#include "compiler/target.h"
#include "executable.h"
#include "kernel_launch.h"
#include "mux/support/host_command_buffer.h"
#include "mux/support/host_memory.h"

#include <bit>
#include <string>

namespace host {

Device::Device(mux::DeviceInfo info, unsigned threads) : info_(std::move(info)), pool_(threads) {}

// The queue (destroyed first) finishes every dispatch that can still run.
Device::~Device() = default;

compiler::Target &Device::compiler() {
  // Created on first use: enumerating devices should not start LLVM.
  std::call_once(compilerOnce_, [&] { compiler_ = createHostCompiler(info_); });
  return *compiler_;
}

llvm::Expected<std::unique_ptr<mux::Memory>> Device::allocateMemory(uint64_t size, uint32_t properties,
                                                                    uint64_t alignment) {
  if (size > info_.maxMemAllocSize)
    return mux::makeError(mux::Status::InvalidArgument, "allocation of " + std::to_string(size) +
                                                            " bytes exceeds the maximum of " +
                                                            std::to_string(info_.maxMemAllocSize));
  if (alignment != 0 && !std::has_single_bit(alignment))
    return mux::makeError(mux::Status::InvalidArgument,
                          "alignment " + std::to_string(alignment) + " is not a power of two");
  // Host RAM has every property: any request is met, and reported in full.
  if ((properties & ~mux::support::kHostMemoryProperties) != 0)
    return mux::makeError(mux::Status::Unsupported, "requested memory properties host RAM does not have");
  auto memory = mux::support::HostMemory::allocate(size, std::max<uint64_t>(alignment, info_.memBaseAddrAlign));
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<mux::Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<mux::Memory>> Device::wrapHostMemory(void *pointer, uint64_t size) {
  auto memory = mux::support::HostMemory::wrap(pointer, size);
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<mux::Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<mux::Buffer>> Device::createBuffer(uint64_t size) {
  if (size == 0)
    return mux::makeError(mux::Status::InvalidArgument, "buffer size is zero");
  if (size > info_.maxMemAllocSize)
    return mux::makeError(mux::Status::InvalidArgument,
                          "buffer of " + std::to_string(size) + " bytes exceeds the maximum allocation");
  return std::make_unique<mux::support::HostBuffer>(size, info_.memBaseAddrAlign);
}

llvm::Expected<std::unique_ptr<mux::CommandBuffer>> Device::createCommandBuffer() {
  return std::make_unique<CommandBuffer>(pool_, info_.localMemSize);
}

llvm::Expected<std::unique_ptr<mux::QueryPool>> Device::createQueryPool(uint32_t count) {
  if (count == 0)
    return mux::makeError(mux::Status::InvalidArgument, "query pool of zero timestamps");
  return std::make_unique<mux::support::HostQueryPool>(count);
}

llvm::Expected<std::unique_ptr<mux::Semaphore>> Device::createSemaphore() {
  return std::make_unique<mux::support::CpuSemaphore>();
}

llvm::Expected<std::unique_ptr<mux::Fence>> Device::createFence() { return std::make_unique<mux::support::CpuFence>(); }

llvm::Expected<std::unique_ptr<mux::Executable>> Device::createExecutable(std::span<const std::byte> binary) {
  if (binary.empty())
    return mux::makeError(mux::Status::InvalidArgument, "executable binary is empty");
  return loadExecutable(binary, info_);
}

uint64_t Device::timestampNs() const { return mux::support::hostClockNs(); }

} // namespace host
