// Shared HAL helper: the part of a Device whose memory the host CPU addresses
// directly (host, template, simulators backed by host RAM). It implements the
// factories for memory, buffers, query pools and synchronisation over the
// other mux::support helpers; a target derives from it and adds what is its
// own: the compiler, command buffers (kernel launches), executables and the
// queue.
#pragma once

#include "mux/device.h"
#include "mux/support/memory_arena.h"

#include <memory>

namespace mux::support {

class HostMemoryDevice : public Device {
public:
  /// Memory comes from `arena` (the heap by default), which must outlive
  /// the device.
  /// With POLYMUX_DISCRETE_MEMORY=1 (discrete_memory.h) the device reports
  /// that its commands do not access host memory.
  explicit HostMemoryDevice(DeviceInfo info, MemoryArena &arena = heapArena());

  const DeviceInfo &info() const override { return info_; }

  /// Arena memory with every host RAM property; sizes above maxMemAllocSize,
  /// non power-of-two alignments and properties host RAM lacks are refused.
  llvm::Expected<std::unique_ptr<Memory>> allocateMemory(uint64_t size, uint32_t properties,
                                                         uint64_t alignment) override;
  /// Wraps the application's memory without a copy; Unsupported when the
  /// arena's device cannot address it.
  llvm::Expected<std::unique_ptr<Memory>> wrapHostMemory(void *pointer, uint64_t size) override;
  /// Arena memory whose host address is its device address; Unsupported
  /// when the arena maps device addresses elsewhere (svmCapabilities
  /// should then be 0).
  llvm::Expected<std::unique_ptr<Memory>> allocateSharedMemory(uint64_t size, uint64_t alignment) override;
  /// A HostBuffer aligned to memBaseAddrAlign; the size must be in (0, maxMemAllocSize].
  llvm::Expected<std::unique_ptr<Buffer>> createBuffer(uint64_t size) override;
  llvm::Expected<std::unique_ptr<QueryPool>> createQueryPool(uint32_t count) override;
  llvm::Expected<std::unique_ptr<Semaphore>> createSemaphore() override;
  llvm::Expected<std::unique_ptr<Fence>> createFence() override;
  /// The steady host clock, the one HostCommandBuffer timestamps use.
  uint64_t timestampNs() const override;

protected:
  MemoryArena &arena() const { return arena_; }

private:
  /// The device's arena, counting what it hands out in activity().
  class CountingArena final : public MemoryArena {
  public:
    /// Allocations beyond `limit` bytes in all (the device's global memory
    /// size) fail.
    CountingArena(MemoryArena &arena, DeviceActivity &activity, uint64_t limit)
        : arena_(arena), activity_(activity), limit_(limit) {}
    llvm::Expected<Block> allocate(uint64_t size, uint64_t alignment) override;
    void release(Block block, uint64_t size, uint64_t alignment) override;
    std::optional<uint64_t> deviceAddressOf(const void *host) const override { return arena_.deviceAddressOf(host); }

  private:
    MemoryArena &arena_;
    DeviceActivity &activity_;
    uint64_t limit_;
  };

  DeviceInfo info_;
  MemoryArena &arena_;
  CountingArena countingArena_;
};

} // namespace mux::support
