// VkResult -> mux::Status, and the llvm::Error for a failed Vulkan call.
#pragma once

#include "mux/status.h"

#include <string_view>
#include <volk.h>

namespace vulkan_target {

/// The HAL status a failed Vulkan call stands for (OutOfMemory for the
/// out-of-memory results, DeviceLost for VK_ERROR_DEVICE_LOST, ...).
mux::Status statusOf(VkResult result);

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on.
const char *resultName(VkResult result);

/// Success for VK_SUCCESS, else an error "<what> failed: <result name>".
llvm::Error check(VkResult result, std::string_view what);

} // namespace vulkan_target
