// What a Vulkan physical device reports to clGetDeviceInfo, and the compiler
// configuration made from the same facts, so that the two always agree.
#pragma once

#include "physical_device.h"

#include "compiler/spirv/vulkan_target.h"
#include "mux/device_info.h"

namespace vulkan_target {

mux::DeviceInfo describeDevice(const PhysicalDevice &facts);

/// The SPIR-V compiler's view of the device: its extensions and OpenCL C
/// features (those of `info`), push-constant size, sub-group size and the
/// arithmetic the generated code may use.
compiler::VulkanTargetConfig compilerConfig(const PhysicalDevice &facts, const mux::DeviceInfo &info);

/// The heap kernels' buffers live in: the largest device-local one.
uint32_t primaryHeap(const PhysicalDevice &facts);

} // namespace vulkan_target
