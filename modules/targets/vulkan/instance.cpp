#include "instance.h"

#include "process_exit.h"
#include "vulkan_result.h"

#include <mutex>

namespace vulkan_target {

llvm::Expected<std::shared_ptr<Instance>> Instance::acquire() {
  // One instance at a time: volk keeps the instance-level entry points in
  // globals, which stay valid while any device uses them.
  static std::mutex mutex;
  static std::weak_ptr<Instance> live;
  std::lock_guard lock(mutex);
  if (std::shared_ptr<Instance> instance = live.lock())
    return instance;
  watchProcessExit(); // before the loader and the driver are loaded
  if (volkInitialize() != VK_SUCCESS)
    return mux::makeError(mux::Status::Unsupported, "no Vulkan loader (libvulkan.so.1) could be opened");
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion)
    vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_3)
    return mux::makeError(mux::Status::Unsupported,
                          "the Vulkan loader offers version " + std::to_string(VK_API_VERSION_MAJOR(loaderVersion)) +
                              "." + std::to_string(VK_API_VERSION_MINOR(loaderVersion)) + ", 1.3 is needed");
  VkApplicationInfo application{};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = "polymux";
  application.pEngineName = "polymux";
  application.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo createInfo{};
  createInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  createInfo.pApplicationInfo = &application;
  VkInstance handle = VK_NULL_HANDLE;
  const VkResult result = vkCreateInstance(&createInfo, nullptr, &handle);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return mux::makeError(mux::Status::Unsupported, "the Vulkan loader found no driver (ICD) it could load");
  if (llvm::Error error = check(result, "vkCreateInstance"))
    return error;
  // Device-level entry points are taken through the instance: the loader's
  // trampolines dispatch on the device handle, so several devices (of
  // several drivers) share one table.
  volkLoadInstance(handle);
  std::shared_ptr<Instance> instance(new Instance(handle));
  live = instance;
  return instance;
}

Instance::~Instance() {
  if (!vulkanGoneAtExit())
    vkDestroyInstance(instance_, nullptr);
}

} // namespace vulkan_target
