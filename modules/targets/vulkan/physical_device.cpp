#include "physical_device.h"

#include "memory.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace vulkan_target {
namespace {

bool hasExtension(const std::vector<VkExtensionProperties> &extensions, std::string_view name) {
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties &e) { return name == e.extensionName; });
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice handle) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(handle, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(handle, nullptr, &count, extensions.data());
  extensions.resize(count);
  return extensions;
}

void readProperties(PhysicalDevice &facts, const std::vector<VkExtensionProperties> &extensions) {
  facts.properties11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
  facts.properties12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
  facts.properties13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
  facts.properties11.pNext = &facts.properties12;
  facts.properties12.pNext = &facts.properties13;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nvidia{};
  nvidia.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
  VkPhysicalDeviceShaderCorePropertiesAMD amd{};
  amd.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
  const bool hasNvidia = hasExtension(extensions, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  const bool hasAmd = hasExtension(extensions, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
  if (hasNvidia) {
    nvidia.pNext = facts.properties13.pNext;
    facts.properties13.pNext = &nvidia;
  }
  if (hasAmd) {
    amd.pNext = facts.properties13.pNext;
    facts.properties13.pNext = &amd;
  }
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &facts.properties11;
  vkGetPhysicalDeviceProperties2(facts.handle, &properties);
  facts.properties = properties.properties;
  // The chain pointed into this stack frame: never follow it later.
  facts.properties11.pNext = facts.properties12.pNext = facts.properties13.pNext = nullptr;
  if (hasNvidia)
    facts.reportedComputeUnits = nvidia.shaderSMCount;
  else if (hasAmd)
    facts.reportedComputeUnits =
        amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;
  vkGetPhysicalDeviceMemoryProperties(facts.handle, &facts.memory);
}

/// Reads the supported features into `facts` and keeps only those Polymux
/// uses, so that the structs are the exact set to enable.
void selectFeatures(PhysicalDevice &facts) {
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features features11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  features.pNext = &features11;
  features11.pNext = &features12;
  features12.pNext = &features13;
  vkGetPhysicalDeviceFeatures2(facts.handle, &features);

  facts.features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  facts.features11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  facts.features12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  facts.features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures &core = facts.features.features;
  core.shaderInt64 = features.features.shaderInt64;
  core.shaderInt16 = features.features.shaderInt16;
  core.shaderFloat64 = features.features.shaderFloat64;
  facts.features11.storageBuffer16BitAccess = features11.storageBuffer16BitAccess;
  facts.features11.variablePointersStorageBuffer = features11.variablePointersStorageBuffer;
  facts.features11.variablePointers = features11.variablePointers;
  facts.features12.bufferDeviceAddress = features12.bufferDeviceAddress;
  facts.features12.timelineSemaphore = features12.timelineSemaphore;
  facts.features12.shaderInt8 = features12.shaderInt8;
  facts.features12.shaderFloat16 = features12.shaderFloat16;
  facts.features12.storageBuffer8BitAccess = features12.storageBuffer8BitAccess;
  facts.features12.vulkanMemoryModel = features12.vulkanMemoryModel;
  facts.features12.vulkanMemoryModelDeviceScope = features12.vulkanMemoryModelDeviceScope;
  facts.features12.shaderBufferInt64Atomics = features12.shaderBufferInt64Atomics;
  facts.features12.shaderSharedInt64Atomics = features12.shaderSharedInt64Atomics;
  facts.features12.scalarBlockLayout = features12.scalarBlockLayout;
  facts.features12.hostQueryReset = features12.hostQueryReset;
  facts.features13.synchronization2 = features13.synchronization2;
  facts.features13.subgroupSizeControl = features13.subgroupSizeControl;
  facts.features13.computeFullSubgroups = features13.computeFullSubgroups;
  facts.features13.maintenance4 = features13.maintenance4;
}

bool findComputeQueue(PhysicalDevice &facts) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(facts.handle, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(facts.handle, &count, families.data());
  // Prefer a family with compute but no graphics (a dedicated compute
  // engine on GPUs that have one), else any with compute.
  int chosen = -1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
      continue;
    bool dedicated = !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
    if (chosen < 0 || (dedicated && (families[chosen].queueFlags & VK_QUEUE_GRAPHICS_BIT)))
      chosen = static_cast<int>(i);
  }
  if (chosen < 0)
    return false;
  facts.computeQueueFamily = static_cast<uint32_t>(chosen);
  facts.timestampValidBits = families[chosen].timestampValidBits;
  return true;
}

bool hasMonotonicCalibration(VkPhysicalDevice handle) {
  if (!vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)
    return false;
  uint32_t count = 0;
  vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(handle, &count, nullptr);
  std::vector<VkTimeDomainEXT> domains(count);
  vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(handle, &count, domains.data());
  auto has = [&](VkTimeDomainEXT domain) { return std::find(domains.begin(), domains.end(), domain) != domains.end(); };
  return has(VK_TIME_DOMAIN_DEVICE_EXT) && has(VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
}

/// Whether buffers with our usage can be bound to imported host memory.
bool hostBuffersImportable(VkPhysicalDevice handle) {
  VkPhysicalDeviceExternalBufferInfo bufferInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  bufferInfo.usage = kBufferUsage;
  bufferInfo.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkExternalBufferProperties properties{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(handle, &bufferInfo, &properties);
  return properties.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
}

} // namespace

bool PhysicalDevice::subgroupsUsable() const {
  // OpenCL's sub_group_* builtins: any/all (vote), broadcast (ballot),
  // reduce and scans (arithmetic), barriers (basic).
  constexpr VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                            VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
  return (properties11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
         (properties11.subgroupSupportedOperations & needed) == needed && properties11.subgroupSize > 0;
}

bool PhysicalDevice::fp64Usable() const {
  // cl_khr_fp64's minimum double configuration has denormals and fma.
  // Without shaderDenormPreserveFloat64 a Vulkan driver may flush double
  // denormals; where Vulkan promises nothing the device's behaviour is
  // measured (fp64_probe.h: NVIDIA's driver and lavapipe 22.3 keep them).
  // GLSL.std.450 Fma may round twice on any driver (lavapipe's does): then
  // fma is computed in integer arithmetic (doubleFmaFused false).
  return features.features.shaderFloat64 && (properties12.shaderDenormPreserveFloat64 || doubleDenormalsMeasured);
}

bool PhysicalDevice::fp16Usable() const {
  return features12.shaderFloat16 && features11.storageBuffer16BitAccess && features.features.shaderInt16;
}

bool PhysicalDevice::int8Usable() const { return features12.shaderInt8 && features12.storageBuffer8BitAccess; }

bool PhysicalDevice::int16Usable() const {
  return features.features.shaderInt16 && features11.storageBuffer16BitAccess;
}

bool PhysicalDevice::atomicInt64Usable() const {
  return features12.shaderBufferInt64Atomics && features12.shaderSharedInt64Atomics;
}

llvm::Expected<PhysicalDevice> inspectPhysicalDevice(VkPhysicalDevice handle) {
  PhysicalDevice facts;
  facts.handle = handle;
  const std::vector<VkExtensionProperties> extensions = deviceExtensions(handle);
  readProperties(facts, extensions);
  std::string missing;
  auto require = [&](bool present, const char *what) {
    if (present)
      return;
    if (!missing.empty())
      missing += ", ";
    missing += what;
  };
  require(facts.properties.apiVersion >= VK_API_VERSION_1_3, "Vulkan 1.3");
  if (facts.properties.apiVersion >= VK_API_VERSION_1_3) {
    selectFeatures(facts);
    require(facts.features12.bufferDeviceAddress, "bufferDeviceAddress");
    require(facts.features12.timelineSemaphore, "timelineSemaphore");
    require(facts.features13.synchronization2, "synchronization2");
    require(facts.features.features.shaderInt64, "shaderInt64");
  }
  require(findComputeQueue(facts), "a compute queue");
  if (!missing.empty())
    return mux::makeError(mux::Status::Unsupported,
                          std::string("'") + facts.properties.deviceName + "' lacks " + missing);
  if (hasExtension(extensions, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) && hostBuffersImportable(handle)) {
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT hostProperties{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &hostProperties;
    vkGetPhysicalDeviceProperties2(handle, &properties);
    facts.hostImportAlignment = hostProperties.minImportedHostPointerAlignment;
    facts.enabledExtensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  }
  if (hasExtension(extensions, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) && hasMonotonicCalibration(handle)) {
    facts.calibratedTimestamps = true;
    facts.enabledExtensions.push_back(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
  }
  return facts;
}

void chainFeatures(PhysicalDevice &facts) {
  facts.features.pNext = &facts.features11;
  facts.features11.pNext = &facts.features12;
  facts.features12.pNext = &facts.features13;
  facts.features13.pNext = nullptr;
}

} // namespace vulkan_target
