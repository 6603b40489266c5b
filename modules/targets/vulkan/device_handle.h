// The VkDevice, shared by the mux::Device and every object made from it:
// the HAL lets semaphores, buffers, command buffers and kernels outlive
// their device (the OpenCL layer and the tests release in any order), and
// Vulkan objects must be destroyed before their VkDevice.
//
// A device whose work never completes (a kernel that does not terminate on
// a driver without a watchdog) is *abandoned* when its queue is destroyed:
// from then on no object of it is destroyed (their memory may still be in
// use by that work) and the VkDevice is leaked, so that the process can go
// on or exit instead of hanging. Every device counts as abandoned once the
// process is exiting past the driver's own teardown (process_exit.h).
#pragma once

#include "instance.h"
#include "process_exit.h"

#include <atomic>
#include <memory>
#include <volk.h>

namespace vulkan_target {

class DeviceHandle {
public:
  DeviceHandle(std::shared_ptr<Instance> instance, VkDevice device) : instance_(std::move(instance)), device_(device) {}
  ~DeviceHandle() {
    if (abandoned())
      return;
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
  DeviceHandle(const DeviceHandle &) = delete;
  DeviceHandle &operator=(const DeviceHandle &) = delete;
  VkDevice get() const { return device_; }
  /// Also once the process is exiting past the driver's teardown
  /// (process_exit.h): no object of the device may be destroyed then.
  bool abandoned() const { return abandoned_.load(std::memory_order_acquire) || vulkanGoneAtExit(); }
  void abandon() const { abandoned_.store(true, std::memory_order_release); }
  /// How many objects a recorded command buffer may name (buffers,
  /// pipelines, query pools) were destroyed so far: a recording is
  /// replayed only while this count is the one it was made at, since a
  /// handle may be reused for a new object (command_tape.h).
  uint64_t destroyedObjects() const { return destroyedObjects_.load(std::memory_order_acquire); }
  void noteDestroyed() const { destroyedObjects_.fetch_add(1, std::memory_order_acq_rel); }
  /// Bytes of device memory allocated (not imported) now, counted here
  /// because memory may outlive its mux::Device.
  uint64_t allocatedBytes() const { return allocatedBytes_.load(std::memory_order_relaxed); }
  void noteAllocated(uint64_t bytes) const { allocatedBytes_.fetch_add(bytes, std::memory_order_relaxed); }
  void noteFreed(uint64_t bytes) const { allocatedBytes_.fetch_sub(bytes, std::memory_order_relaxed); }

private:
  mutable std::atomic<bool> abandoned_{false};
  mutable std::atomic<uint64_t> destroyedObjects_{0};
  mutable std::atomic<uint64_t> allocatedBytes_{0};
  std::shared_ptr<Instance> instance_; // the instance outlives the device
  VkDevice device_;
};

using SharedDevice = std::shared_ptr<const DeviceHandle>;

} // namespace vulkan_target
