#include "vulkan_result.h"

#include <string>

namespace vulkan_target {

mux::Status statusOf(VkResult result) {
  switch (result) {
  case VK_SUCCESS:
    return mux::Status::Success;
  case VK_TIMEOUT:
  case VK_NOT_READY:
    return mux::Status::Timeout;
  case VK_ERROR_OUT_OF_HOST_MEMORY:
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
  case VK_ERROR_OUT_OF_POOL_MEMORY:
  case VK_ERROR_FRAGMENTED_POOL:
  case VK_ERROR_FRAGMENTATION:
    return mux::Status::OutOfMemory;
  case VK_ERROR_TOO_MANY_OBJECTS:
    return mux::Status::OutOfResources;
  case VK_ERROR_DEVICE_LOST:
    return mux::Status::DeviceLost;
  case VK_ERROR_FEATURE_NOT_PRESENT:
  case VK_ERROR_EXTENSION_NOT_PRESENT:
  case VK_ERROR_LAYER_NOT_PRESENT:
  case VK_ERROR_INCOMPATIBLE_DRIVER:
  case VK_ERROR_FORMAT_NOT_SUPPORTED:
    return mux::Status::Unsupported;
  default:
    return mux::Status::Failure;
  }
}

const char *resultName(VkResult result) {
  switch (result) {
#define POLYMUX_VK_RESULT(name)                                                                                        \
  case name:                                                                                                           \
    return #name;
    POLYMUX_VK_RESULT(VK_SUCCESS)
    POLYMUX_VK_RESULT(VK_NOT_READY)
    POLYMUX_VK_RESULT(VK_TIMEOUT)
    POLYMUX_VK_RESULT(VK_INCOMPLETE)
    POLYMUX_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    POLYMUX_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    POLYMUX_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    POLYMUX_VK_RESULT(VK_ERROR_DEVICE_LOST)
    POLYMUX_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    POLYMUX_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    POLYMUX_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    POLYMUX_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    POLYMUX_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    POLYMUX_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    POLYMUX_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    POLYMUX_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    POLYMUX_VK_RESULT(VK_ERROR_UNKNOWN)
    POLYMUX_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    POLYMUX_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    POLYMUX_VK_RESULT(VK_ERROR_FRAGMENTATION)
    POLYMUX_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    POLYMUX_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
#undef POLYMUX_VK_RESULT
  default:
    return "VkResult (unnamed)";
  }
}

llvm::Error check(VkResult result, std::string_view what) {
  if (result == VK_SUCCESS)
    return llvm::Error::success();
  std::string message(what);
  message += " failed: ";
  message += resultName(result);
  return mux::makeError(statusOf(result), std::move(message));
}

} // namespace vulkan_target
