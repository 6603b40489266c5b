// clGetKernelWorkGroupInfo and clGetKernelSubGroupInfo(KHR): per-device
// facts about a kernel, answered from its mux::Kernel and the device info.
#include "kernel.h"

#include "device.h"
#include "info.h"
#include "program.h"
#include "program_impl.h"

#include <algorithm>
#include <limits>

using namespace polymux::cl;

namespace {

/// Resolves the device argument of the kernel queries: NULL means the only
/// device of the program. The device must have an executable of the kernel.
cl_int resolveDevice(Kernel &kernel, cl_device_id handle, Device *&device) {
  Program &program = kernel.program();
  if (!handle) {
    if (program.devices().size() != 1)
      return CL_INVALID_DEVICE;
    device = program.devices().front();
  } else {
    device = Device::fromHandle(handle);
    if (!device)
      return CL_INVALID_DEVICE;
    auto devices = program.devices();
    if (std::find(devices.begin(), devices.end(), device) == devices.end())
      return CL_INVALID_DEVICE;
  }
  if (!program.hasExecutable(*device))
    return CL_INVALID_DEVICE; // the kernel does not exist on this device
  return CL_SUCCESS;
}

/// The kernel a work-group or sub-group query names, and its device.
cl_int resolveKernelAndDevice(cl_kernel kernelHandle, cl_device_id deviceHandle, Kernel *&kernel, Device *&device) {
  kernel = Kernel::fromHandle(kernelHandle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  return resolveDevice(*kernel, deviceHandle, device);
}

cl_int muxKernelFor(Kernel &kernel, Device &device, mux::Kernel *&muxKernel) {
  auto result = kernel.muxKernel(device);
  if (!result) {
    std::string ignored;
    return errorCodeFor(takeStatusAndMessage(result.takeError(), ignored), CL_OUT_OF_RESOURCES);
  }
  muxKernel = *result;
  return CL_SUCCESS;
}

size_t maxWorkGroupSize(const mux::Kernel &muxKernel, const Device &device) {
  return std::min(muxKernel.maxWorkGroupSize(), device.info().maxWorkGroupSize);
}

/// The work-group size described by an input array of 1 to 3 size_t values.
bool localSizeFromInput(size_t inputSize, const void *input, size_t &localSize) {
  if (!input || inputSize == 0 || inputSize % sizeof(size_t) != 0 || inputSize / sizeof(size_t) > 3)
    return false;
  const auto *sizes = static_cast<const size_t *>(input);
  localSize = 1;
  for (size_t i = 0; i < inputSize / sizeof(size_t); ++i)
    localSize *= sizes[i];
  return true;
}

cl_int subGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name, size_t input_value_size,
                    const void *input_value, size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Kernel *k = nullptr;
  Device *d = nullptr;
  if (cl_int code = resolveKernelAndDevice(kernel, device, k, d); code != CL_SUCCESS)
    return code;
  if (!d->supportsSubGroups())
    return CL_INVALID_OPERATION;
  mux::Kernel *muxKernel = nullptr;
  if (cl_int code = muxKernelFor(*k, *d, muxKernel); code != CL_SUCCESS)
    return code;
  auto write = [&](size_t value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  const size_t maxSize = maxWorkGroupSize(*muxKernel, *d);

  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    size_t localSize;
    if (!localSizeFromInput(input_value_size, input_value, localSize))
      return CL_INVALID_VALUE;
    if (localSize == 0)
      return write(0);
    size_t subGroupSize = muxKernel->subGroupSize(localSize);
    if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
      return write(subGroupSize);
    return write(subGroupSize ? (localSize + subGroupSize - 1) / subGroupSize : 0);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!input_value || input_value_size != sizeof(size_t))
      return CL_INVALID_VALUE;
    size_t count = *static_cast<const size_t *>(input_value);
    // The result has as many dimensions as the caller gave room for.
    size_t dims = param_value_size / sizeof(size_t);
    if (param_value && (param_value_size % sizeof(size_t) != 0 || dims == 0 || dims > 3))
      return CL_INVALID_VALUE;
    if (!param_value)
      dims = 3;
    size_t local[3] = {0, 0, 0};
    for (uint32_t candidate : d->info().subGroupSizes) {
      size_t size = count * candidate;
      if (count && size <= maxSize && size <= d->info().maxWorkItemSizes[0] &&
          muxKernel->subGroupSize(size) == candidate) {
        local[0] = size;
        local[1] = local[2] = 1;
        break;
      }
    }
    return writeInfoBytes(param_value_size, param_value, param_value_size_ret, local, dims * sizeof(size_t));
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
    size_t subGroupSize = muxKernel->subGroupSize(maxSize);
    return write(subGroupSize ? (maxSize + subGroupSize - 1) / subGroupSize : 0);
  }
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    // Kernels cannot require a sub-group count (no intel_reqd_sub_group_size).
    return write(0);
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name, size_t param_value_size,
                                                         void *param_value, size_t *param_value_size_ret) {
  Kernel *k = nullptr;
  Device *d = nullptr;
  if (cl_int code = resolveKernelAndDevice(kernel, device, k, d); code != CL_SUCCESS)
    return code;
  auto write = [&](const auto &value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };

  if (param_name == CL_KERNEL_GLOBAL_WORK_SIZE) {
    // Only for custom devices or built-in kernels.
    if (d->info().type != mux::DeviceType::Custom)
      return CL_INVALID_VALUE;
    size_t limit =
        d->info().addressBits >= 64 ? std::numeric_limits<size_t>::max() : (size_t{1} << d->info().addressBits) - 1;
    size_t sizes[3] = {limit, limit, limit};
    return writeInfoBytes(param_value_size, param_value, param_value_size_ret, sizes, sizeof(sizes));
  }
  if (param_name == CL_KERNEL_COMPILE_WORK_GROUP_SIZE) {
    const auto &reqd = k->info().reqdWorkGroupSize;
    size_t sizes[3] = {reqd[0], reqd[1], reqd[2]};
    return writeInfoBytes(param_value_size, param_value, param_value_size_ret, sizes, sizeof(sizes));
  }

  mux::Kernel *muxKernel = nullptr;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
  case CL_KERNEL_LOCAL_MEM_SIZE:
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    if (cl_int code = muxKernelFor(*k, *d, muxKernel); code != CL_SUCCESS)
      return code;
    break;
  default:
    return CL_INVALID_VALUE;
  }
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return write(maxWorkGroupSize(*muxKernel, *d));
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return write(static_cast<cl_ulong>(muxKernel->localMemSize() + k->localArgBytes()));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return write(muxKernel->preferredWorkGroupSizeMultiple());
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return write(static_cast<cl_ulong>(muxKernel->privateMemSize()));
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                        const void *input_value, size_t param_value_size,
                                                        void *param_value, size_t *param_value_size_ret) {
  return subGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size, param_value,
                      param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
                                                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                           const void *input_value, size_t param_value_size,
                                                           void *param_value, size_t *param_value_size_ret) {
  return subGroupInfo(in_kernel, in_device, param_name, input_value_size, input_value, param_value_size, param_value,
                      param_value_size_ret);
}

} // extern "C"
