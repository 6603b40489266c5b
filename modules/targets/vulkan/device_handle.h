// The VkDevice, shared by the mux::Device and every object made from it:
// the HAL lets semaphores, buffers, command buffers and kernels outlive
// their device (the OpenCL layer and the tests release in any order), and
// Vulkan objects must be destroyed before their VkDevice.
#pragma once

#include "instance.h"

#include <memory>
#include <volk.h>

namespace vulkan_target {

class DeviceHandle {
public:
  DeviceHandle(std::shared_ptr<Instance> instance, VkDevice device) : instance_(std::move(instance)), device_(device) {}
  ~DeviceHandle() {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
  DeviceHandle(const DeviceHandle &) = delete;
  DeviceHandle &operator=(const DeviceHandle &) = delete;
  VkDevice get() const { return device_; }

private:
  std::shared_ptr<Instance> instance_; // the instance outlives the device
  VkDevice device_;
};

using SharedDevice = std::shared_ptr<const DeviceHandle>;

} // namespace vulkan_target
