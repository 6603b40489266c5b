// The vulkan target: one Polymux device per Vulkan 1.3 physical device that
// has what the runtime needs (physical_device.h). No loader, no instance or
// no such device: the target has no devices, and POLYMUX_LOG says why.
#include "device.h"

#include "mux/support/log.h"
#include "mux/target.h"

#include <memory>
#include <vector>

namespace vulkan_target {
namespace {

void logInfo(const std::string &message) { mux::support::log(mux::support::LogLevel::Info, "vulkan", message); }

class Target final : public mux::Target {
public:
  Target() {
    auto instance = Instance::acquire();
    if (!instance) {
      logInfo("no devices: " + llvm::toString(instance.takeError()));
      return;
    }
    uint32_t count = 0;
    vkEnumeratePhysicalDevices((*instance)->handle(), &count, nullptr);
    std::vector<VkPhysicalDevice> physicalDevices(count);
    vkEnumeratePhysicalDevices((*instance)->handle(), &count, physicalDevices.data());
    physicalDevices.resize(count);
    for (VkPhysicalDevice physicalDevice : physicalDevices) {
      auto facts = inspectPhysicalDevice(physicalDevice);
      if (!facts) {
        logInfo("skipped a device: " + llvm::toString(facts.takeError()));
        continue;
      }
      std::string name = facts->properties.deviceName;
      auto device = Device::create(*instance, std::move(*facts));
      if (!device) {
        logInfo("skipped '" + name + "': " + llvm::toString(device.takeError()));
        continue;
      }
      devices_.push_back(std::move(*device));
      pointers_.push_back(devices_.back().get());
    }
    if (devices_.empty())
      logInfo(physicalDevices.empty() ? "no devices: the Vulkan loader found no physical device"
                                      : "no devices: no physical device has what Polymux needs");
  }
  std::string_view name() const override { return "vulkan"; }
  std::span<mux::Device *const> devices() override { return pointers_; }

private:
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<mux::Device *> pointers_;
};

} // namespace
} // namespace vulkan_target

std::unique_ptr<mux::Target> polymux_create_target_vulkan() { return std::make_unique<vulkan_target::Target>(); }
