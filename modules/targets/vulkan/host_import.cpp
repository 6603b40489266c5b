// Device::wrapHostMemory through VK_EXT_external_memory_host: the
// application's pages become a VkDeviceMemory the device addresses
// directly (CL_MEM_USE_HOST_PTR without copies).
#include "device.h"
#include "memory.h"
#include "vulkan_result.h"

#include <string>

namespace vulkan_target {

llvm::Expected<std::unique_ptr<Memory>> Memory::importHost(Device &device, void *pointer, uint64_t size) {
  const uint64_t alignment = device.facts().hostImportAlignment;
  if (!alignment || !vkGetMemoryHostPointerPropertiesEXT)
    return mux::makeError(mux::Status::Unsupported, "device '" + device.info().name +
                                                        "' cannot import host memory (no VK_EXT_external_memory_host)");
  if (reinterpret_cast<uintptr_t>(pointer) % alignment || size % alignment)
    return mux::makeError(mux::Status::Unsupported,
                          "host memory is imported only in aligned blocks of " + std::to_string(alignment) + " bytes");
  constexpr VkExternalMemoryHandleTypeFlagBits kHandleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkMemoryHostPointerPropertiesEXT hostProperties{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  if (llvm::Error error =
          check(vkGetMemoryHostPointerPropertiesEXT(device.handle(), kHandleType, pointer, &hostProperties),
                "vkGetMemoryHostPointerPropertiesEXT")) {
    llvm::consumeError(std::move(error));
    return mux::makeError(mux::Status::Unsupported, "the device cannot import this host memory");
  }
  int type = -1;
  for (uint32_t i = 0; i < device.facts().memory.memoryTypeCount && type < 0; ++i)
    if ((hostProperties.memoryTypeBits & device.bufferMemoryTypeBits() & (1u << i)) &&
        (device.memoryProperties(i) & mux::MemoryHostVisible))
      type = static_cast<int>(i);
  if (type < 0)
    return mux::makeError(mux::Status::Unsupported, "no buffer memory type can hold imported host memory");
  VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import.handleType = kHandleType;
  import.pHostPointer = pointer;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.pNext = &import;
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocateInfo.pNext = &flags;
  allocateInfo.allocationSize = size;
  allocateInfo.memoryTypeIndex = static_cast<uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkAllocateMemory(device.handle(), &allocateInfo, nullptr, &memory),
                                "vkAllocateMemory importing " + std::to_string(size) + " bytes of host memory"))
    return error;
  // The host's view of imported memory is the application's pointer.
  return std::unique_ptr<Memory>(new Memory(device, memory, size, device.memoryProperties(static_cast<uint32_t>(type)),
                                            0, static_cast<std::byte *>(pointer)));
}

} // namespace vulkan_target
