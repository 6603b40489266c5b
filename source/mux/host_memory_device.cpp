#include "mux/support/host_memory_device.h"

#include "mux/support/cpu_sync.h"
#include "mux/support/discrete_memory.h"
#include "mux/support/host_command_buffer.h"
#include "mux/support/host_memory.h"

#include <algorithm>
#include <bit>
#include <string>

namespace mux::support {

llvm::Expected<MemoryArena::Block> HostMemoryDevice::CountingArena::allocate(uint64_t size, uint64_t alignment) {
  // Checked, then counted: two threads may both pass the check and exceed
  // the limit together by at most one allocation each.
  if (uint64_t allocated = activity_.bytesAllocated(); allocated > limit_ || size > limit_ - allocated)
    return makeError(Status::OutOfMemory, "allocation of " + std::to_string(size) + " bytes exceeds the device's " +
                                              std::to_string(limit_) + " bytes of global memory (" +
                                              std::to_string(allocated) + " allocated)");
  auto block = arena_.allocate(size, alignment);
  if (block)
    activity_.memoryAllocated(size);
  return block;
}

void HostMemoryDevice::CountingArena::release(Block block, uint64_t size, uint64_t alignment) {
  arena_.release(block, size, alignment);
  activity_.memoryReleased(size);
}

HostMemoryDevice::HostMemoryDevice(DeviceInfo info, MemoryArena &arena)
    : info_(std::move(info)), arena_(arena), countingArena_(arena, activity(), info_.globalMemSize) {
  if (discreteMemoryEmulated()) {
    info_.commandsAccessHostMemory = false;
    info_.hostUnifiedMemory = false;
    info_.svmCapabilities = 0; // an emulated discrete device shares no memory
  }
}

llvm::Expected<std::unique_ptr<Memory>> HostMemoryDevice::allocateMemory(uint64_t size, uint32_t properties,
                                                                         uint64_t alignment) {
  // Limits first, then the allocator's own checks.
  if (size > info_.maxMemAllocSize)
    return makeError(Status::InvalidArgument, "allocation of " + std::to_string(size) +
                                                  " bytes exceeds the maximum of " +
                                                  std::to_string(info_.maxMemAllocSize));
  if (alignment != 0 && !std::has_single_bit(alignment))
    return makeError(Status::InvalidArgument, "alignment " + std::to_string(alignment) + " is not a power of two");
  // Host RAM has every property: any request is met, and reported in full,
  // unless a discrete device is emulated: then memory the host was not asked
  // to see is device-local only.
  if ((properties & ~kHostMemoryProperties) != 0)
    return makeError(Status::Unsupported, "requested memory properties host RAM does not have");
  const uint32_t offered = discreteMemoryEmulated() && !(properties & MemoryHostVisible) ? uint32_t(MemoryDeviceLocal)
                                                                                         : kHostMemoryProperties;
  auto memory =
      HostMemory::allocate(size, std::max<uint64_t>(alignment, info_.memBaseAddrAlign), offered, countingArena_);
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<Memory>> HostMemoryDevice::allocateSharedMemory(uint64_t size, uint64_t alignment) {
  if (info_.svmCapabilities == 0)
    return makeError(Status::Unsupported, "the device has no shared virtual memory");
  auto memory = allocateMemory(size, kHostMemoryProperties, alignment);
  if (!memory)
    return memory.takeError();
  auto *host = static_cast<HostMemory *>(memory->get());
  if (reinterpret_cast<uint64_t>(host->data()) != host->deviceAddress())
    return makeError(Status::Unsupported, "the device's addresses are not the host's");
  return memory;
}

llvm::Expected<std::unique_ptr<Memory>> HostMemoryDevice::wrapHostMemory(void *pointer, uint64_t size) {
  auto memory = HostMemory::wrap(pointer, size, kHostMemoryProperties, countingArena_);
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<Buffer>> HostMemoryDevice::createBuffer(uint64_t size) {
  if (size == 0)
    return makeError(Status::InvalidArgument, "buffer size is zero");
  if (size > info_.maxMemAllocSize)
    return makeError(Status::InvalidArgument,
                     "buffer of " + std::to_string(size) + " bytes exceeds the maximum allocation");
  return std::make_unique<HostBuffer>(size, info_.memBaseAddrAlign);
}

llvm::Expected<std::unique_ptr<QueryPool>> HostMemoryDevice::createQueryPool(uint32_t count) {
  if (count == 0)
    return makeError(Status::InvalidArgument, "query pool of zero timestamps");
  return std::make_unique<HostQueryPool>(count);
}

llvm::Expected<std::unique_ptr<Semaphore>> HostMemoryDevice::createSemaphore() {
  return std::make_unique<CpuSemaphore>();
}

llvm::Expected<std::unique_ptr<Fence>> HostMemoryDevice::createFence() { return std::make_unique<CpuFence>(); }

uint64_t HostMemoryDevice::timestampNs() const { return hostClockNs(); }

} // namespace mux::support
