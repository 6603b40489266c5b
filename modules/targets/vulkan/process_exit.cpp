#include "process_exit.h"

#include <cstdlib>
#include <mutex>
#include <vector>

namespace vulkan_target {
namespace {

struct LiveDevices {
  std::mutex mutex;
  std::vector<std::weak_ptr<const DeviceHandle>> devices;
};

/// Never destroyed: the exit handler reads it after static destructors may
/// have begun.
LiveDevices &liveDevices() {
  static LiveDevices *live = new LiveDevices();
  return *live;
}

void abandonLiveDevices() {
  LiveDevices &live = liveDevices();
  std::lock_guard lock(live.mutex);
  for (const std::weak_ptr<const DeviceHandle> &weak : live.devices)
    if (SharedDevice device = weak.lock())
      device->abandon();
}

} // namespace

void abandonAtProcessExit(const SharedDevice &device) {
  LiveDevices &live = liveDevices();
  {
    std::lock_guard lock(live.mutex);
    std::erase_if(live.devices, [](const std::weak_ptr<const DeviceHandle> &weak) { return weak.expired(); });
    live.devices.push_back(device);
  }
  // Once per device: a driver loaded for a later device registered its own
  // exit handlers after ours, and must find its devices abandoned as well.
  std::atexit(abandonLiveDevices);
}

} // namespace vulkan_target
