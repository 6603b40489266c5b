#include "memory.h"

#include "device.h"
#include "vulkan_result.h"

#include <algorithm>
#include <string>

namespace vulkan_target {

llvm::Expected<std::unique_ptr<Memory>> Memory::allocate(Device &device, uint64_t size, uint32_t typeIndex,
                                                         uint64_t alignment) {
  const uint32_t properties = device.memoryProperties(typeIndex);
  const bool hostVisible = properties & mux::MemoryHostVisible;
  const uint64_t mapAlignment = device.facts().properties.limits.minMemoryMapAlignment;
  // Vulkan aligns allocations enough for any buffer, and mappings to
  // minMemoryMapAlignment; a larger alignment is met by padding.
  const uint64_t padding = hostVisible && alignment > mapAlignment ? alignment : 0;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocateInfo.pNext = &flags;
  allocateInfo.allocationSize = size + padding;
  allocateInfo.memoryTypeIndex = typeIndex;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkAllocateMemory(device.handle(), &allocateInfo, nullptr, &memory),
                                "vkAllocateMemory of " + std::to_string(size) + " bytes"))
    return error;
  std::byte *mapped = nullptr;
  uint64_t base = 0;
  if (hostVisible) {
    void *pointer = nullptr;
    if (llvm::Error error = check(vkMapMemory(device.handle(), memory, 0, VK_WHOLE_SIZE, 0, &pointer), "vkMapMemory")) {
      vkFreeMemory(device.handle(), memory, nullptr);
      return error;
    }
    mapped = static_cast<std::byte *>(pointer);
    if (padding) {
      uintptr_t address = reinterpret_cast<uintptr_t>(mapped);
      base = (alignment - address % alignment) % alignment;
      mapped += base;
    }
  }
  auto created = std::unique_ptr<Memory>(new Memory(device, memory, size, properties, base, mapped));
  created->owner_->noteAllocated(allocateInfo.allocationSize);
  created->allocationSize_ = allocateInfo.allocationSize;
  return created;
}

Memory::~Memory() {
  owner_->noteFreed(allocationSize_);
  // vkFreeMemory unmaps implicitly.
  if (!owner_->abandoned())
    vkFreeMemory(owner_->get(), memory_, nullptr);
}

llvm::Expected<void *> Memory::map(uint64_t offset, uint64_t size) {
  if (!mapped_)
    return mux::makeError(mux::Status::InvalidArgument, "map of memory that is not host-visible");
  if (offset > size_ || size > size_ - offset)
    return mux::makeError(mux::Status::InvalidArgument, "map range [" + std::to_string(offset) + ", +" +
                                                            std::to_string(size) + ") exceeds memory of " +
                                                            std::to_string(size_) + " bytes");
  return static_cast<void *>(mapped_ + offset);
}

VkMappedMemoryRange Memory::atomRange(uint64_t offset, uint64_t size) const {
  const uint64_t atom = device_.facts().properties.limits.nonCoherentAtomSize;
  uint64_t begin = base_ + std::min(offset, size_);
  uint64_t end = base_ + std::min(size_, offset + std::min(size, size_ - std::min(offset, size_)));
  begin -= begin % atom;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.offset = begin;
  // Rounded up to the atom, or to the end of the allocation.
  uint64_t roundedEnd = (end + atom - 1) / atom * atom;
  range.size = roundedEnd >= base_ + size_ ? VK_WHOLE_SIZE : roundedEnd - begin;
  return range;
}

void Memory::flushToDevice(uint64_t offset, uint64_t size) {
  if (!mapped_ || (properties_ & mux::MemoryHostCoherent))
    return;
  VkMappedMemoryRange range = atomRange(offset, size);
  vkFlushMappedMemoryRanges(device_.handle(), 1, &range);
}

void Memory::flushFromDevice(uint64_t offset, uint64_t size) {
  if (!mapped_ || (properties_ & mux::MemoryHostCoherent))
    return;
  VkMappedMemoryRange range = atomRange(offset, size);
  vkInvalidateMappedMemoryRanges(device_.handle(), 1, &range);
}

llvm::Expected<std::unique_ptr<Buffer>> Buffer::create(Device &device, uint64_t size) {
  if (size == 0)
    return mux::makeError(mux::Status::InvalidArgument, "buffer of 0 bytes");
  if (size > device.info().maxMemAllocSize)
    return mux::makeError(mux::Status::InvalidArgument,
                          "buffer of " + std::to_string(size) + " bytes exceeds the device's largest allocation");
  VkBufferCreateInfo createInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  createInfo.size = size;
  createInfo.usage = kBufferUsage;
  createInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  // Any buffer may be bound to wrapped host memory (Device::wrapHostMemory).
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  if (device.facts().hostImportAlignment)
    createInfo.pNext = &external;
  VkBuffer buffer = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateBuffer(device.handle(), &createInfo, nullptr, &buffer), "vkCreateBuffer"))
    return error;
  VkMemoryRequirements vkRequirements;
  vkGetBufferMemoryRequirements(device.handle(), buffer, &vkRequirements);
  mux::MemoryRequirements requirements;
  requirements.size = vkRequirements.size;
  requirements.alignment = std::max<uint64_t>(vkRequirements.alignment, 1);
  for (uint32_t i = 0; i < device.facts().memory.memoryTypeCount; ++i)
    if (vkRequirements.memoryTypeBits & (1u << i))
      requirements.supportedProperties |= device.memoryProperties(i);
  return std::unique_ptr<Buffer>(new Buffer(device, buffer, size, requirements));
}

Buffer::~Buffer() {
  owner_->noteDestroyed();
  if (!owner_->abandoned())
    vkDestroyBuffer(owner_->get(), buffer_, nullptr);
}

SharedDevice device_shared(Device &device) { return device.shared(); }

llvm::Error Buffer::bind(mux::Memory &memory, uint64_t offset) {
  auto *vulkanMemory = dynamic_cast<Memory *>(&memory);
  if (!vulkanMemory)
    return mux::makeError(mux::Status::InvalidArgument, "bind to memory of another device");
  std::lock_guard lock(bindMutex_);
  if (memory_)
    return mux::makeError(mux::Status::InvalidArgument, "buffer is already bound");
  if (offset % requirements_.alignment)
    return mux::makeError(mux::Status::InvalidArgument, "bind offset " + std::to_string(offset) +
                                                            " is not a multiple of the alignment " +
                                                            std::to_string(requirements_.alignment));
  if (offset > memory.size() || size_ > memory.size() - offset)
    return mux::makeError(mux::Status::InvalidArgument, "buffer of " + std::to_string(size_) + " bytes at offset " +
                                                            std::to_string(offset) + " does not fit memory of " +
                                                            std::to_string(memory.size()) + " bytes");
  if (llvm::Error error = check(
          vkBindBufferMemory(device_.handle(), buffer_, vulkanMemory->handle(), vulkanMemory->baseOffset() + offset),
          "vkBindBufferMemory"))
    return error;
  VkBufferDeviceAddressInfo addressInfo{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  addressInfo.buffer = buffer_;
  address_ = vkGetBufferDeviceAddress(device_.handle(), &addressInfo);
  offset_ = offset;
  memory_ = vulkanMemory;
  return llvm::Error::success();
}

llvm::Expected<Buffer *> boundBuffer(mux::Buffer &buffer, const char *what) {
  auto *vulkanBuffer = dynamic_cast<Buffer *>(&buffer);
  if (!vulkanBuffer)
    return mux::makeError(mux::Status::InvalidArgument, std::string(what) + " is not a buffer of a vulkan device");
  if (!vulkanBuffer->boundMemory())
    return mux::makeError(mux::Status::InvalidArgument, std::string(what) + " buffer is not bound to memory");
  return vulkanBuffer;
}

} // namespace vulkan_target
