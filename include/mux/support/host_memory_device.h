// Shared HAL helper: the part of a Device whose memory the host CPU addresses
// directly (host, template, simulators backed by host RAM). It implements the
// factories for memory, buffers, query pools and synchronisation over the
// other mux::support helpers; a target derives from it and adds what is its
// own: the compiler, command buffers (kernel launches), executables and the
// queue.
#pragma once

#include "mux/device.h"

#include <memory>

namespace mux::support {

class HostMemoryDevice : public Device {
public:
  explicit HostMemoryDevice(DeviceInfo info) : info_(std::move(info)) {}

  const DeviceInfo &info() const override { return info_; }

  /// Heap memory with every host RAM property; sizes above maxMemAllocSize,
  /// non power-of-two alignments and properties host RAM lacks are refused.
  llvm::Expected<std::unique_ptr<Memory>> allocateMemory(uint64_t size, uint32_t properties,
                                                         uint64_t alignment) override;
  /// Wraps the application's memory without a copy.
  llvm::Expected<std::unique_ptr<Memory>> wrapHostMemory(void *pointer, uint64_t size) override;
  /// A HostBuffer aligned to memBaseAddrAlign; the size must be in (0, maxMemAllocSize].
  llvm::Expected<std::unique_ptr<Buffer>> createBuffer(uint64_t size) override;
  llvm::Expected<std::unique_ptr<QueryPool>> createQueryPool(uint32_t count) override;
  llvm::Expected<std::unique_ptr<Semaphore>> createSemaphore() override;
  llvm::Expected<std::unique_ptr<Fence>> createFence() override;
  /// The steady host clock, the one HostCommandBuffer timestamps use.
  uint64_t timestampNs() const override;

private:
  DeviceInfo info_;
};

} // namespace mux::support
