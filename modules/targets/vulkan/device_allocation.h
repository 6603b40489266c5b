// A host-visible buffer with its own memory: what the runtime itself keeps
// on the device (argument buffers, printf buffers, fill patterns, program-
// scope variables), with its host mapping and device address.
#pragma once

#include "memory.h"

#include <memory>

namespace vulkan_target {

struct DeviceAllocation {
  std::unique_ptr<Memory> memory;
  std::unique_ptr<Buffer> buffer;

  std::byte *host() const { return memory->mapped(); }
  uint64_t address() const { return buffer->deviceAddress(); }
  VkBuffer handle() const { return buffer->handle(); }
  uint64_t size() const { return buffer->size(); }
};

/// `size` bytes of host-visible, host-coherent memory; device-local too
/// when `preferDeviceLocal` and the device has such a type with room left
/// (else another host-visible type).
llvm::Expected<std::unique_ptr<DeviceAllocation>> allocateDeviceAllocation(Device &device, uint64_t size,
                                                                           bool preferDeviceLocal);

} // namespace vulkan_target
