// The vulkan target: one Polymux device per Vulkan 1.3 physical device that
// has what the runtime needs (physical_device.h). No loader, no instance or
// no such device: the target has no devices, and POLYMUX_LOG says why.
#include "device.h"

#include "mux/support/log.h"
#include "mux/target.h"
#include "llvm/ADT/StringExtras.h"

#include <memory>
#include <vector>

namespace vulkan_target {
namespace {

void logInfo(const std::string &message) { mux::support::log(mux::support::LogLevel::Info, "vulkan", message); }

/// One line of the facts that decide what the device reports (for
/// POLYMUX_LOG=debug).
std::string describeFacts(const PhysicalDevice &facts) {
  const VkPhysicalDeviceLimits &limits = facts.properties.limits;
  const VkPhysicalDeviceVulkan12Properties &p12 = facts.properties12;
  auto flag = [](bool value) { return value ? "1" : "0"; };
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a long
  // chain of std::string + char arrays.
  std::string text = "'";
  text += facts.properties.deviceName;
  text += "' (";
  text += p12.driverName;
  text += " ";
  text += p12.driverInfo;
  text += "): Vulkan " + std::to_string(VK_API_VERSION_MAJOR(facts.properties.apiVersion)) + "." +
          std::to_string(VK_API_VERSION_MINOR(facts.properties.apiVersion)) + "." +
          std::to_string(VK_API_VERSION_PATCH(facts.properties.apiVersion));
  text += ", invocations " + std::to_string(limits.maxComputeWorkGroupInvocations);
  text += ", shared " + std::to_string(limits.maxComputeSharedMemorySize);
  text += ", push " + std::to_string(limits.maxPushConstantsSize);
  text += ", groups " + std::to_string(limits.maxComputeWorkGroupCount[0]) + "x" +
          std::to_string(limits.maxComputeWorkGroupCount[1]) + "x" + std::to_string(limits.maxComputeWorkGroupCount[2]);
  text += ", subgroup " + std::to_string(facts.properties11.subgroupSize) + " (ops 0x" +
          llvm::utohexstr(facts.properties11.subgroupSupportedOperations) + ", " +
          std::to_string(facts.properties13.minSubgroupSize) + ".." +
          std::to_string(facts.properties13.maxSubgroupSize) + ")";
  text += ", maxAlloc " + std::to_string(facts.properties11.maxMemoryAllocationSize);
  text += ", timestampPeriod " + std::to_string(limits.timestampPeriod) + " bits " +
          std::to_string(facts.timestampValidBits);
  text += ", float64 " + std::string(flag(facts.features.features.shaderFloat64));
  text += ", denormPreserve16/32/64 " + std::string(flag(p12.shaderDenormPreserveFloat16)) +
          flag(p12.shaderDenormPreserveFloat32) + flag(p12.shaderDenormPreserveFloat64);
  text += ", RTE32/64 " + std::string(flag(p12.shaderRoundingModeRTEFloat32)) + flag(p12.shaderRoundingModeRTEFloat64);
  text += ", RTZ32/64 " + std::string(flag(p12.shaderRoundingModeRTZFloat32)) + flag(p12.shaderRoundingModeRTZFloat64);
  text += ", calibrated " + std::string(flag(facts.calibratedTimestamps));
  return text;
}

class Target final : public mux::Target {
public:
  Target() {
    auto instance = Instance::acquire();
    if (!instance) {
      missing_.push_back(llvm::toString(instance.takeError()));
      logInfo("no devices: " + missing_.back());
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
        missing_.push_back(llvm::toString(facts.takeError()));
        logInfo("skipped a device: " + missing_.back());
        continue;
      }
      std::string name = facts->properties.deviceName;
      if (mux::support::logEnabled(mux::support::LogLevel::Debug, "vulkan"))
        mux::support::log(mux::support::LogLevel::Debug, "vulkan", describeFacts(*facts));
      auto device = Device::create(*instance, std::move(*facts));
      if (!device) {
        missing_.push_back("'" + name + "': " + llvm::toString(device.takeError()));
        logInfo("skipped " + missing_.back());
        continue;
      }
      devices_.push_back(std::move(*device));
      pointers_.push_back(devices_.back().get());
    }
    if (physicalDevices.empty())
      missing_.push_back("the Vulkan loader found no physical device");
    if (devices_.empty())
      logInfo(physicalDevices.empty() ? "no devices: the Vulkan loader found no physical device"
                                      : "no devices: no physical device has what Polymux needs");
  }
  std::string_view name() const override { return "vulkan"; }
  std::span<mux::Device *const> devices() override { return pointers_; }
  std::span<const std::string> missingDevices() const override { return missing_; }

private:
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<mux::Device *> pointers_;
  std::vector<std::string> missing_;
};

} // namespace
} // namespace vulkan_target

std::unique_ptr<mux::Target> polymux_create_target_vulkan() { return std::make_unique<vulkan_target::Target>(); }
