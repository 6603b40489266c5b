// mux::Memory on VkDeviceMemory and mux::Buffer on VkBuffer (bound through
// buffer device addresses, which is all kernels see).
#pragma once

#include "device_handle.h"

#include "mux/memory.h"

#include <atomic>
#include <mutex>
#include <volk.h>

namespace vulkan_target {

class Device;
/// Device::shared(), for headers that cannot include device.h.
SharedDevice device_shared(Device &device);

class Memory final : public mux::Memory {
public:
  /// Allocates `size` bytes of memory type `typeIndex`, the first byte
  /// aligned to `alignment` (host pointer and device offsets alike).
  static llvm::Expected<std::unique_ptr<Memory>> allocate(Device &device, uint64_t size, uint32_t typeIndex,
                                                          uint64_t alignment);
  /// Wraps application memory (VK_EXT_external_memory_host): Unsupported
  /// when the device cannot import it or `pointer`/`size` are not multiples
  /// of its import alignment (the OpenCL layer then copies).
  static llvm::Expected<std::unique_ptr<Memory>> importHost(Device &device, void *pointer, uint64_t size);
  ~Memory() override;

  uint64_t size() const override { return size_; }
  uint32_t properties() const override { return properties_; }
  llvm::Expected<void *> map(uint64_t offset, uint64_t size) override;
  void unmap() override {}
  void flushToDevice(uint64_t offset, uint64_t size) override;
  void flushFromDevice(uint64_t offset, uint64_t size) override;

  VkDeviceMemory handle() const { return memory_; }
  /// Offset within the VkDeviceMemory of this Memory's byte 0.
  uint64_t baseOffset() const { return base_; }
  /// The persistent host mapping of byte 0 (null unless host-visible).
  std::byte *mapped() const { return mapped_; }

private:
  Memory(Device &device, VkDeviceMemory memory, uint64_t size, uint32_t properties, uint64_t base, std::byte *mapped)
      : device_(device), owner_(device_shared(device)), memory_(memory), size_(size), properties_(properties),
        base_(base), mapped_(mapped) {}
  /// The range Vulkan needs for a flush of [offset, offset + size).
  VkMappedMemoryRange atomRange(uint64_t offset, uint64_t size) const;

  Device &device_;     ///< for operations, which need a live device
  SharedDevice owner_; ///< for destruction, which may come after it
  VkDeviceMemory memory_;
  uint64_t size_;
  uint32_t properties_;
  uint64_t base_;
  std::byte *mapped_;
  uint64_t allocationSize_ = 0; ///< counted in the device handle (allocate() only)
};

class Buffer final : public mux::Buffer {
public:
  static llvm::Expected<std::unique_ptr<Buffer>> create(Device &device, uint64_t size);
  ~Buffer() override;

  uint64_t size() const override { return size_; }
  mux::MemoryRequirements memoryRequirements() const override { return requirements_; }
  llvm::Error bind(mux::Memory &memory, uint64_t offset) override;
  mux::Memory *boundMemory() const override { return memory_; }
  uint64_t boundOffset() const override { return offset_; }
  uint64_t deviceAddress() const override { return address_; }

  VkBuffer handle() const { return buffer_; }

private:
  Buffer(Device &device, VkBuffer buffer, uint64_t size, mux::MemoryRequirements requirements)
      : device_(device), owner_(device_shared(device)), buffer_(buffer), size_(size), requirements_(requirements) {}

  Device &device_;
  SharedDevice owner_;
  VkBuffer buffer_;
  uint64_t size_;
  mux::MemoryRequirements requirements_;
  std::mutex bindMutex_;
  Memory *memory_ = nullptr;
  uint64_t offset_ = 0;
  uint64_t address_ = 0;
};

/// The usage every buffer of ours has: kernels reach it by device address,
/// transfers copy and fill it.
inline constexpr VkBufferUsageFlags kBufferUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                                   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

/// The bound Vulkan buffer behind `buffer`, or InvalidArgument naming `what`
/// when it is not one of ours or not bound.
llvm::Expected<Buffer *> boundBuffer(mux::Buffer &buffer, const char *what);

} // namespace vulkan_target
