#include "vulkan_test.h"

namespace vulkantest {

std::vector<muxtest::DeviceParam> vulkanDevices() {
  std::vector<muxtest::DeviceParam> devices;
  for (const muxtest::DeviceParam &param : muxtest::allDevices())
    if (param.device->info().targetName == "vulkan")
      devices.push_back(param);
  return devices;
}

HostBuffer VulkanTest::makeHostBuffer(uint64_t size, uint32_t properties) {
  HostBuffer result;
  muxtest::BoundBuffer bound = makeBuffer(size, properties);
  if (!bound.buffer)
    return result;
  if (properties & mux::MemoryHostVisible) {
    auto pointer = bound.memory->map(0, size);
    if (!pointer) {
      ADD_FAILURE() << "map: " << llvm::toString(pointer.takeError());
      return result;
    }
    result.data = static_cast<std::byte *>(*pointer);
  }
  result.memory = std::move(bound.memory);
  result.buffer = std::move(bound.buffer);
  return result;
}

} // namespace vulkantest
