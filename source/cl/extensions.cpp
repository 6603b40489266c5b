// clGetExtensionFunctionAddress[ForPlatform]: the extension entry points an
// application can look up by name.
#include "command_buffer_entry_points.h"
#include "platform.h"

#include "CL/cl_ext_polymux.h"

#include <string_view>

namespace {

struct ExtensionFunction {
  std::string_view name;
  void *address;
};

// Functions of extensions this implementation provides. The KHR aliases of
// core functions are listed so that code written against the extension works.
const ExtensionFunction extensionFunctions[] = {
    {"clIcdGetPlatformIDsKHR", reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR)},
    {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void *>(&clGetKernelSubGroupInfoKHR)},
    {"clCreateProgramWithILKHR", reinterpret_cast<void *>(&clCreateProgramWithILKHR)},
    {"clModifyMemoryFlagsPOLYMUX", reinterpret_cast<void *>(&clModifyMemoryFlagsPOLYMUX)},
    {"clSetKernelArgConstPOLYMUX", reinterpret_cast<void *>(&clSetKernelArgConstPOLYMUX)},
    {"clGetKernelExecutionStatusPOLYMUX", reinterpret_cast<void *>(&clGetKernelExecutionStatusPOLYMUX)},
    {"clRegisterProgramErrorMessagePOLYMUX", reinterpret_cast<void *>(&clRegisterProgramErrorMessagePOLYMUX)},
    {"clRegisterKernelErrorMessagePOLYMUX", reinterpret_cast<void *>(&clRegisterKernelErrorMessagePOLYMUX)},
    // cl_polymux_kernel_arg_entities
    {"clGetEntityInfoPOLYMUX", reinterpret_cast<void *>(&clGetEntityInfoPOLYMUX)},
    {"clNumMemberEntitiesPOLYMUX", reinterpret_cast<void *>(&clNumMemberEntitiesPOLYMUX)},
    {"clGetEntityMemberInfoPOLYMUX", reinterpret_cast<void *>(&clGetEntityMemberInfoPOLYMUX)},
    // cl_polymux_async_error_model
    {"clCheckEventExecutionPOLYMUX", reinterpret_cast<void *>(&clCheckEventExecutionPOLYMUX)},
    // cl_polymux_device_status
    {"clGetDeviceStatusInfoPOLYMUX", reinterpret_cast<void *>(&clGetDeviceStatusInfoPOLYMUX)},
    // cl_khr_command_buffer (its image commands fail: no device has images;
    // its SVM commands, where the device has no SVM)
    {"clCreateCommandBufferKHR", reinterpret_cast<void *>(&clCreateCommandBufferKHR)},
    {"clFinalizeCommandBufferKHR", reinterpret_cast<void *>(&clFinalizeCommandBufferKHR)},
    {"clRetainCommandBufferKHR", reinterpret_cast<void *>(&clRetainCommandBufferKHR)},
    {"clReleaseCommandBufferKHR", reinterpret_cast<void *>(&clReleaseCommandBufferKHR)},
    {"clEnqueueCommandBufferKHR", reinterpret_cast<void *>(&clEnqueueCommandBufferKHR)},
    {"clCommandBarrierWithWaitListKHR", reinterpret_cast<void *>(&polymux::cl::commandBarrierWithWaitListKHR)},
    {"clCommandCopyBufferKHR", reinterpret_cast<void *>(&polymux::cl::commandCopyBufferKHR)},
    {"clCommandCopyBufferRectKHR", reinterpret_cast<void *>(&polymux::cl::commandCopyBufferRectKHR)},
    {"clCommandFillBufferKHR", reinterpret_cast<void *>(&polymux::cl::commandFillBufferKHR)},
    {"clCommandCopyBufferToImageKHR", reinterpret_cast<void *>(&polymux::cl::commandCopyBufferToImageKHR)},
    {"clCommandCopyImageKHR", reinterpret_cast<void *>(&polymux::cl::commandCopyImageKHR)},
    {"clCommandCopyImageToBufferKHR", reinterpret_cast<void *>(&polymux::cl::commandCopyImageToBufferKHR)},
    {"clCommandFillImageKHR", reinterpret_cast<void *>(&polymux::cl::commandFillImageKHR)},
    {"clCommandNDRangeKernelKHR", reinterpret_cast<void *>(&polymux::cl::commandNDRangeKernelKHR)},
    {"clCommandSVMMemcpyKHR", reinterpret_cast<void *>(&polymux::cl::commandSVMMemcpyKHR)},
    {"clCommandSVMMemFillKHR", reinterpret_cast<void *>(&polymux::cl::commandSVMMemFillKHR)},
    {"clGetCommandBufferInfoKHR", reinterpret_cast<void *>(&clGetCommandBufferInfoKHR)},
    // cl_khr_command_buffer_mutable_dispatch
    {"clUpdateMutableCommandsKHR", reinterpret_cast<void *>(&polymux::cl::updateMutableCommandsKHR)},
    {"clGetMutableCommandInfoKHR", reinterpret_cast<void *>(&clGetMutableCommandInfoKHR)},
};

void *lookUp(const char *name) {
  if (!name)
    return nullptr;
  for (const ExtensionFunction &function : extensionFunctions)
    if (function.name == name)
      return function.address;
  return nullptr;
}

} // namespace

using namespace polymux::cl;

extern "C" {

POLYMUX_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                          const char *func_name) {
  if (!Platform::fromHandle(platform))
    return nullptr;
  return lookUp(func_name);
}

POLYMUX_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) { return lookUp(func_name); }

} // extern "C"
