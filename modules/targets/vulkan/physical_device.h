// What Polymux needs to know about one VkPhysicalDevice: its properties,
// limits, features and memory, read once, and the features a Polymux device
// enables on it. Everything DeviceInfo, the compiler configuration and the
// runtime decide comes from this one struct.
#pragma once

#include "mux/status.h"

#include <cstdint>
#include <string>
#include <vector>
#include <volk.h>

namespace vulkan_target {

struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceVulkan11Properties properties11{};
  VkPhysicalDeviceVulkan12Properties properties12{};
  VkPhysicalDeviceVulkan13Properties properties13{};
  VkPhysicalDeviceMemoryProperties memory{};
  /// Streaming multiprocessors / compute units where the driver says
  /// (VK_NV_shader_sm_builtins, VK_AMD_shader_core_properties); 0 unknown.
  uint32_t reportedComputeUnits = 0;
  bool calibratedTimestamps = false; ///< VK_EXT_calibrated_timestamps with CLOCK_MONOTONIC
  /// VK_EXT_external_memory_host: the alignment of host pointers (and
  /// sizes) the device imports; 0 when it cannot import host memory.
  uint64_t hostImportAlignment = 0;

  /// The features Polymux enables: each is on only where the device has it.
  VkPhysicalDeviceFeatures2 features{};
  VkPhysicalDeviceVulkan11Features features11{};
  VkPhysicalDeviceVulkan12Features features12{};
  VkPhysicalDeviceVulkan13Features features13{};
  std::vector<const char *> enabledExtensions;

  uint32_t computeQueueFamily = 0;
  /// timestampValidBits of that family (0: no timestamps).
  uint32_t timestampValidBits = 0;

  /// Double arithmetic Vulkan does not promise, as measured on the device
  /// (fp64_probe.h) once it exists; false until then.
  bool doubleDenormalsMeasured = false; ///< kept without shaderDenormPreserveFloat64
  bool doubleFmaFused = false;          ///< GLSL.std.450 Fma rounds once

  /// Sub-group operations OpenCL's sub-group builtins need, in compute shaders.
  bool subgroupsUsable() const;
  /// True when the device supports fp64 with what OpenCL requires of it:
  /// IEEE denormals (promised, or measured) and a fused fma (measured).
  bool fp64Usable() const;
  bool fp16Usable() const;
  bool int8Usable() const;
  bool int16Usable() const;
  bool atomicInt64Usable() const;
};

/// Reads `handle`'s facts. Fails (Unsupported, naming every missing piece)
/// when the device lacks what Polymux requires: Vulkan 1.3, a compute
/// queue, bufferDeviceAddress, timelineSemaphore, synchronization2 and
/// shaderInt64.
llvm::Expected<PhysicalDevice> inspectPhysicalDevice(VkPhysicalDevice handle);

/// Links `facts`' feature structs into one pNext chain (after copying).
void chainFeatures(PhysicalDevice &facts);

} // namespace vulkan_target
