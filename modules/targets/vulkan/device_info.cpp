#include "device_info.h"

#include "compiler/cpu_capabilities.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

namespace vulkan_target {
namespace {

constexpr uint64_t kMiB = 1024 * 1024;

/// OpenCL's device type of a Vulkan device. Vulkan's CPU type means the
/// implementation runs shaders on the host's CPU (lavapipe, SwiftShader):
/// reporting CL_DEVICE_TYPE_GPU would send applications that look for an
/// accelerator to a device slower than the host target, so it is CPU.
/// Every real GPU type (integrated, discrete, virtual) is a GPU; OTHER is an
/// accelerator.
mux::DeviceType deviceType(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return mux::DeviceType::CPU;
  case VK_PHYSICAL_DEVICE_TYPE_OTHER:
    return mux::DeviceType::Accelerator;
  default:
    return mux::DeviceType::GPU;
  }
}

/// Vulkan has no compute-unit count. Where the driver says (NVIDIA SMs, AMD
/// CUs) that is it; a CPU implementation runs work-groups on one thread
/// per core; otherwise 1, the one number that is never an overstatement.
uint32_t computeUnits(const PhysicalDevice &facts) {
  if (facts.reportedComputeUnits)
    return facts.reportedComputeUnits;
  if (facts.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
    return std::max(1u, std::thread::hardware_concurrency());
  return 1;
}

/// PCI vendor IDs and Khronos vendor IDs of the usual Vulkan vendors; the
/// driver's name otherwise.
std::string vendorName(const PhysicalDevice &facts) {
  switch (facts.properties.vendorID) {
  case 0x10DE:
    return "NVIDIA Corporation";
  case 0x1002:
    return "Advanced Micro Devices, Inc.";
  case 0x8086:
    return "Intel Corporation";
  case 0x13B5:
    return "ARM";
  case 0x5143:
    return "Qualcomm";
  case VK_VENDOR_ID_MESA:
    return "Mesa";
  default:
    return facts.properties12.driverName[0] ? facts.properties12.driverName : "Vulkan";
  }
}

std::string driverVersionText(const PhysicalDevice &facts) {
  std::string text = "0.1.0 (";
  text += facts.properties12.driverName;
  if (facts.properties12.driverInfo[0]) {
    text += " ";
    text += facts.properties12.driverInfo;
  }
  text += ")";
  return text;
}

bool hostUnified(const PhysicalDevice &facts, uint32_t heap) {
  // Integrated GPUs and CPU implementations put device memory in host RAM;
  // a discrete GPU's host-visible VRAM window is not unified memory.
  if (facts.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
    return false;
  constexpr VkMemoryPropertyFlags unified = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  for (uint32_t i = 0; i < facts.memory.memoryTypeCount; ++i)
    if (facts.memory.memoryTypes[i].heapIndex == heap &&
        (facts.memory.memoryTypes[i].propertyFlags & unified) == unified)
      return true;
  return false;
}

void describeArithmetic(const PhysicalDevice &facts, mux::DeviceInfo &info) {
  const VkPhysicalDeviceVulkan12Properties &controls = facts.properties12;
  // Vulkan's add, subtract and multiply are correctly rounded to nearest
  // and keep infinities and NaNs; denormals only where the device can be
  // asked to keep them (kernels then declare DenormPreserve). For float only
  // OpenCL's minimum is claimed: no directed rounding modes, fma or
  // correctly rounded divide/sqrt.
  info.singleFp.roundToNearest = true;
  info.singleFp.infNan = true;
  info.singleFp.denorms = controls.shaderDenormPreserveFloat32;
  info.int64 = true;
  info.fp64 = facts.fp64Usable();
  if (info.fp64) {
    info.doubleFp.roundToNearest = true;
    info.doubleFp.infNan = true;
    info.doubleFp.denorms = true;
    // Fused where measured (fp64_probe.h), otherwise computed in integers.
    info.doubleFp.fma = true;
    // OpenCL C reaches directed rounding only through the conversions with
    // an explicit mode (convert_*_rtz, ...; no rounding pragma since 1.1),
    // which the compiler computes exactly in integer and round-to-nearest
    // arithmetic (LowerExactBuiltins) on every device: both directed modes
    // are supported as OpenCL defines them. (The CTS's test_bruteforce
    // requires them for double, as OpenCL 1.2's minimum did.)
    info.doubleFp.roundToZero = true;
    info.doubleFp.roundToInf = true;
  }
  // half as a storage format (vload_half, ...) works without the extension.
  // Half arithmetic is computed in double and rounded once to half (an fma
  // rounded to odd in double first): correctly rounded, fused fma.
  info.fp16 = compiler::kVulkanHalfMath && facts.fp16Usable() && facts.features.features.shaderFloat64;
  if (info.fp16) {
    info.halfFp.roundToNearest = true;
    info.halfFp.infNan = true;
    info.halfFp.fma = true;
    info.halfFp.denorms = controls.shaderDenormPreserveFloat16;
  }
  // cl_khr_int64_base_atomics covers __local memory too: a kernel with
  // 64-bit __local atomics keeps its __local memory in 64-bit words.
  info.atomics64 = facts.atomicInt64Usable();
  info.preferredVectorWidth = {1, 1, 1, 1, 1, info.fp64 ? 1u : 0u, info.fp16 ? 1u : 0u};
  info.nativeVectorWidth = info.preferredVectorWidth;
}

void describeSubgroups(const PhysicalDevice &facts, mux::DeviceInfo &info) {
  if (!facts.subgroupsUsable())
    return;
  const uint32_t size = facts.properties11.subgroupSize;
  info.subGroupSizes = {size};
  // A full work-group runs as ceil(items / size) sub-groups whatever
  // maxComputeWorkgroupSubgroups says (lavapipe 22.3 reports 32 beside 1,024
  // invocations in sub-groups of 8).
  const auto fullGroup = static_cast<uint32_t>((info.maxWorkGroupSize + size - 1) / size);
  info.maxNumSubGroups = std::max(facts.properties13.maxComputeWorkgroupSubgroups, fullGroup);
  // Vulkan promises no forward progress between invocations or sub-groups.
  info.subGroupIndependentForwardProgress = false;
}

void describeExtensions(const PhysicalDevice &facts, mux::DeviceInfo &info) {
  info.extensions = {
      "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",
      "cl_khr_device_uuid",
      "cl_polymux_sized_integers",
      "cl_polymux_kernel_exit",
  };
  if (facts.int8Usable())
    info.extensions.push_back("cl_khr_byte_addressable_store");
  if (info.atomics64) {
    info.extensions.push_back("cl_khr_int64_base_atomics");
    info.extensions.push_back("cl_khr_int64_extended_atomics");
  }
  if (info.fp64)
    info.extensions.push_back("cl_khr_fp64");
  if (info.fp16)
    info.extensions.push_back("cl_khr_fp16");
  // Work-group collectives: the shared LowerGroupBuiltinsPass, through a
  // __local scratch array and barriers.
  info.openclCFeatures = {"__opencl_c_program_scope_global_variables", "__opencl_c_work_group_collective_functions"};
  // Sub-groups as the OpenCL 3.0 feature only: the cl_khr_subgroups
  // extension requires independent forward progress of sub-groups, which
  // Vulkan does not promise (the CTS's test_subgroups ifp checks it).
  if (!info.subGroupSizes.empty())
    info.openclCFeatures.push_back("__opencl_c_subgroups");
  // Only the OpenCL 3.0 minimum of atomic orders and scopes: SPIR-V under
  // the Vulkan memory model has no sequentially consistent order.
  info.atomicMemoryCapabilities = mux::atomic_capability::MinimumMemory;
  info.atomicFenceCapabilities = mux::atomic_capability::MinimumFence;
  // Images as on the CPU targets: the builtins library's image functions
  // on a descriptor (compiler/abi/image_abi.h), texels in a buffer. They
  // load and store texels of 8- and 16-bit channels one channel at a time,
  // and every read_imagef may convert sRGB, whose pow() the library
  // computes in double.
  if (facts.int8Usable() && facts.int16Usable() && facts.features.features.shaderFloat64) {
    info.images = true;
    info.openclCFeatures.insert(info.openclCFeatures.end(),
                                {"__opencl_c_images", "__opencl_c_read_write_images", "__opencl_c_3d_image_writes"});
    info.extensions.push_back("cl_khr_3d_image_writes");
  }
}

} // namespace

uint32_t primaryHeap(const PhysicalDevice &facts) {
  uint32_t best = 0;
  bool found = false;
  for (uint32_t i = 0; i < facts.memory.memoryHeapCount; ++i) {
    const VkMemoryHeap &heap = facts.memory.memoryHeaps[i];
    if (!(heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT))
      continue;
    if (!found || heap.size > facts.memory.memoryHeaps[best].size)
      best = i;
    found = true;
  }
  return best;
}

mux::DeviceInfo describeDevice(const PhysicalDevice &facts) {
  const VkPhysicalDeviceLimits &limits = facts.properties.limits;
  mux::DeviceInfo info;
  info.name = facts.properties.deviceName;
  info.vendor = vendorName(facts);
  info.vendorId = facts.properties.vendorID;
  info.driverVersion = driverVersionText(facts);
  info.targetName = "vulkan";
  info.type = deviceType(facts.properties.deviceType);
  // The Vulkan driver's own UUIDs: the vendor's OpenCL driver reports the
  // same deviceUUID for the same card (cl_khr_device_uuid's purpose).
  std::memcpy(info.uuid.data(), facts.properties11.deviceUUID, VK_UUID_SIZE);
  std::memcpy(info.underlyingDriverUuid.data(), facts.properties11.driverUUID, VK_UUID_SIZE);

  info.computeUnits = computeUnits(facts);
  info.maxClockMHz = 0; // Vulkan does not say
  info.maxWorkItemDimensions = 3;
  info.maxWorkGroupSize = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i)
    info.maxWorkItemSizes[i] = std::min<size_t>(limits.maxComputeWorkGroupSize[i], info.maxWorkGroupSize);
  info.preferredWorkGroupSizeMultiple = std::max(1u, facts.properties11.subgroupSize);
  describeSubgroups(facts, info);

  // Kernels address buffers through buffer device addresses, so
  // maxStorageBufferRange (a descriptor limit) does not bound a buffer;
  // one allocation and one VkBuffer do.
  const uint32_t heap = primaryHeap(facts);
  const uint64_t heapSize = facts.memory.memoryHeaps[heap].size;
  uint64_t maxAlloc = std::min<uint64_t>(facts.properties11.maxMemoryAllocationSize, heapSize);
  if (facts.properties13.maxBufferSize)
    maxAlloc = std::min<uint64_t>(maxAlloc, facts.properties13.maxBufferSize);
  info.maxMemAllocSize = maxAlloc;
  // OpenCL wants one allocation to reach a quarter of global memory.
  info.globalMemSize = std::min<uint64_t>(heapSize, maxAlloc * 4);
  info.globalMemCacheSize = 0; // not reported by Vulkan
  info.globalMemCachelineSize = static_cast<uint32_t>(std::max<VkDeviceSize>(64, limits.nonCoherentAtomSize));
  info.localMemSize = limits.maxComputeSharedMemorySize;
  info.localMemDedicated = facts.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
  info.maxConstantBufferSize = info.maxMemAllocSize; // __constant is a device address too
  info.maxConstantArgs = 16;
  info.maxParameterSize = 1024; // beyond the push constants, an argument buffer
  info.memBaseAddrAlign = static_cast<uint32_t>(
      std::max<VkDeviceSize>(128, std::max(limits.minStorageBufferOffsetAlignment, limits.minMemoryMapAlignment)));
  info.hostUnifiedMemory = hostUnified(facts, heap);
  info.printfBufferSize = 1 * kMiB;
  info.commandsAccessHostMemory = false; // commands run on the device
  info.maxGlobalVariableSize = std::min<uint64_t>(info.maxMemAllocSize, 64 * kMiB);
  info.globalVariablePreferredTotalSize = info.maxGlobalVariableSize;

  describeArithmetic(facts, info);
  describeExtensions(facts, info);
  info.profilingTimerResolutionNs =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(facts.properties.limits.timestampPeriod)));
  return info;
}

compiler::VulkanTargetConfig compilerConfig(const PhysicalDevice &facts, const mux::DeviceInfo &info) {
  compiler::VulkanTargetConfig config;
  config.name = "vulkan";
  config.deviceIdentity = std::string(facts.properties.deviceName) + "|" + info.driverVersion + "|" +
                          std::to_string(facts.properties.driverVersion) + "|";
  for (uint8_t byte : facts.properties.pipelineCacheUUID) {
    static const char digits[] = "0123456789abcdef";
    config.deviceIdentity += digits[byte >> 4];
    config.deviceIdentity += digits[byte & 15];
  }
  config.extensions = compiler::clExtensionsFor(info);
  config.builtinLibrary = compiler::vulkanBuiltinLibrary();
  config.maxClStd = 300;
  config.maxPushConstantsSize = facts.properties.limits.maxPushConstantsSize;
  config.subgroupSize = info.subGroupSizes.empty() ? 0 : info.subGroupSizes.front();
  config.maxWorkGroupSize = static_cast<uint32_t>(info.maxWorkGroupSize);
  config.fp64 = info.fp64;
  // Double arithmetic inside generated code (exact float fma, accurate
  // sqrt) needs only the feature, not OpenCL's full fp64 requirements.
  config.shaderFloat64 = facts.features.features.shaderFloat64;
  config.exactDoubleFma = facts.doubleFmaFused;
  config.fp16 = info.fp16;
  config.int8 = facts.int8Usable();
  config.int16 = facts.int16Usable();
  config.atomicInt64 = info.atomics64;
  config.denormPreserveFloat16 = facts.properties12.shaderDenormPreserveFloat16;
  config.denormPreserveFloat32 = facts.properties12.shaderDenormPreserveFloat32;
  config.denormPreserveFloat64 = facts.properties12.shaderDenormPreserveFloat64;
  config.roundingModeRTZFloat32 = facts.properties12.shaderRoundingModeRTZFloat32;
  // A CPU implementation runs shaders in the application's process.
  config.clampWordMemoryReads = facts.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return config;
}

} // namespace vulkan_target
