#include "device.h"

#include "compiler/target.h"
#include "mux/support/host_command_buffer.h"
#include "mux/support/host_memory.h"

#include <bit>
#include <string>

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

Device::Device() : info_(describeDevice()), compiler_(createCompiler()) {}

Device::~Device() = default;

llvm::Expected<std::unique_ptr<mux::Memory>> Device::allocateMemory(uint64_t size, uint32_t properties,
                                                                    uint64_t alignment) {
  // The checks every target makes: limits first, then the allocator's own.
  if (size > info_.maxMemAllocSize)
    return mux::makeError(mux::Status::InvalidArgument,
                          "allocation of " + std::to_string(size) + " bytes exceeds the device maximum");
  if (alignment != 0 && !std::has_single_bit(alignment))
    return mux::makeError(mux::Status::InvalidArgument, "alignment is not a power of two");
  // Host RAM has every property: any request is met, and reported in full.
  if ((properties & ~mux::support::kHostMemoryProperties) != 0)
    return mux::makeError(mux::Status::Unsupported, "requested memory properties host RAM does not have");
  auto memory = mux::support::HostMemory::allocate(size, std::max<uint64_t>(alignment, info_.memBaseAddrAlign));
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<mux::Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<mux::Memory>> Device::wrapHostMemory(void *pointer, uint64_t size) {
  // VENDOR: a device that cannot address host memory returns Unsupported
  // here; the OpenCL layer then copies for CL_MEM_USE_HOST_PTR.
  auto memory = mux::support::HostMemory::wrap(pointer, size);
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<mux::Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<mux::Buffer>> Device::createBuffer(uint64_t size) {
  if (size == 0 || size > info_.maxMemAllocSize)
    return mux::makeError(mux::Status::InvalidArgument, "buffer size " + std::to_string(size) + " is out of range");
  return std::make_unique<mux::support::HostBuffer>(size, info_.memBaseAddrAlign);
}

llvm::Expected<std::unique_ptr<mux::CommandBuffer>> Device::createCommandBuffer() {
  return std::make_unique<CommandBuffer>();
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

llvm::Expected<std::unique_ptr<mux::Executable>> Device::createExecutable(std::span<const std::byte>) {
  // VENDOR: load what your compiler's Module::binary() produced.
  return mux::makeError(mux::Status::Unsupported, "the template target cannot load executables");
}

// VENDOR: your device clock, in nanoseconds, on the clock your timestamps use.
uint64_t Device::timestampNs() const { return mux::support::hostClockNs(); }

} // namespace template_target
