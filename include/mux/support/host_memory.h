// Shared HAL helpers for targets whose memory the host CPU addresses
// directly (host, template, simulators backed by host RAM): heap or wrapped
// allocations and the buffers bound into them.
#pragma once

#include "mux/memory.h"
#include "mux/support/memory_arena.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace mux::support {

/// Properties host RAM offers: device-local, host-visible, coherent, cached.
inline constexpr uint32_t kHostMemoryProperties =
    MemoryDeviceLocal | MemoryHostVisible | MemoryHostCoherent | MemoryHostCached;

/// Memory the CPU addresses directly: an aligned block of a MemoryArena (the
/// heap, or a target's device memory window), or an application pointer
/// wrapped without a copy (CL_MEM_USE_HOST_PTR).
class HostMemory final : public Memory {
public:
  /// `alignment` must be a power of two. Fails with InvalidArgument for a
  /// zero size or bad alignment, OutOfMemory when the arena is exhausted.
  static llvm::Expected<std::unique_ptr<HostMemory>> allocate(uint64_t size, uint64_t alignment,
                                                              uint32_t properties = kHostMemoryProperties,
                                                              MemoryArena &arena = heapArena());
  /// Wraps [pointer, pointer + size); the application keeps ownership.
  /// Unsupported when `arena`'s device cannot address host memory.
  static llvm::Expected<std::unique_ptr<HostMemory>> wrap(void *pointer, uint64_t size,
                                                          uint32_t properties = kHostMemoryProperties,
                                                          const MemoryArena &arena = heapArena());
  ~HostMemory() override;

  uint64_t size() const override { return size_; }
  uint32_t properties() const override { return properties_; }
  llvm::Expected<void *> map(uint64_t offset, uint64_t size) override;
  void unmap() override;
  // Host RAM is coherent: nothing to flush.
  void flushToDevice(uint64_t, uint64_t) override {}
  void flushFromDevice(uint64_t, uint64_t) override {}

  std::byte *data() const { return data_; }
  /// The address kernels use for data().
  uint64_t deviceAddress() const { return deviceAddress_; }
  bool ownsAllocation() const { return arena_ != nullptr; }
  /// Outstanding map() calls without their unmap().
  uint32_t mapCount() const { return mapCount_.load(std::memory_order_relaxed); }

private:
  HostMemory(std::byte *data, uint64_t deviceAddress, uint64_t size, uint64_t alignment, uint32_t properties,
             MemoryArena *arena)
      : data_(data), deviceAddress_(deviceAddress), size_(size), alignment_(alignment), properties_(properties),
        arena_(arena) {}

  std::byte *data_;
  uint64_t deviceAddress_;
  uint64_t size_;
  uint64_t alignment_;
  uint32_t properties_;
  MemoryArena *arena_; ///< null for wrapped memory (not ours to free)
  std::atomic<uint32_t> mapCount_{0};
};

/// A buffer view that may be bound once into HostMemory.
class HostBuffer final : public Buffer {
public:
  /// `alignment` (a power of two) is what bind() requires of the memory
  /// address plus offset.
  HostBuffer(uint64_t size, uint64_t alignment, uint32_t supportedProperties = kHostMemoryProperties)
      : size_(size), alignment_(alignment ? alignment : 1), supportedProperties_(supportedProperties) {}

  uint64_t size() const override { return size_; }
  MemoryRequirements memoryRequirements() const override { return {size_, alignment_, supportedProperties_}; }
  /// InvalidArgument when `memory` is not HostMemory, the buffer is already
  /// bound, `offset` is misaligned, or the buffer would not fit.
  llvm::Error bind(Memory &memory, uint64_t offset) override;
  Memory *boundMemory() const override { return memory_; }
  uint64_t boundOffset() const override { return offset_; }
  uint64_t deviceAddress() const override { return memory_ ? memory_->deviceAddress() + offset_ : 0; }

  /// First byte of the buffer, or null while unbound.
  std::byte *data() const { return memory_ ? memory_->data() + offset_ : nullptr; }

private:
  uint64_t size_;
  uint64_t alignment_;
  uint32_t supportedProperties_;
  HostMemory *memory_ = nullptr;
  uint64_t offset_ = 0;
};

/// Returns `buffer` as a bound HostBuffer, or an InvalidArgument error naming
/// `what` (e.g. "copy source").
llvm::Expected<HostBuffer *> asBoundHostBuffer(Buffer &buffer, const char *what);

} // namespace mux::support
