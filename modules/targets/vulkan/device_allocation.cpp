#include "device_allocation.h"

#include "device.h"

namespace vulkan_target {

llvm::Expected<std::unique_ptr<DeviceAllocation>> allocateDeviceAllocation(Device &device, uint64_t size,
                                                                           bool preferDeviceLocal) {
  auto buffer = Buffer::create(device, size);
  if (!buffer)
    return buffer.takeError();
  const mux::MemoryRequirements requirements = (*buffer)->memoryRequirements();
  int type = device.chooseMemoryType(mux::MemoryHostVisible | mux::MemoryHostCoherent,
                                     preferDeviceLocal ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT : 0);
  if (type < 0)
    return mux::makeError(mux::Status::Unsupported, "the device has no host-visible, coherent memory");
  auto memory = Memory::allocate(device, requirements.size, static_cast<uint32_t>(type), requirements.alignment);
  if (!memory && preferDeviceLocal) {
    // A GPU without resizable BAR has only a small device-local,
    // host-visible heap: when it is full, host memory serves as well.
    int fallback = device.chooseMemoryType(mux::MemoryHostVisible | mux::MemoryHostCoherent);
    if (fallback >= 0 && fallback != type) {
      llvm::consumeError(memory.takeError());
      memory = Memory::allocate(device, requirements.size, static_cast<uint32_t>(fallback), requirements.alignment);
    }
  }
  if (!memory)
    return memory.takeError();
  if (llvm::Error error = (*buffer)->bind(**memory, 0))
    return error;
  auto allocation = std::make_unique<DeviceAllocation>();
  allocation->memory = std::move(*memory);
  allocation->buffer = std::move(*buffer);
  return allocation;
}

} // namespace vulkan_target
