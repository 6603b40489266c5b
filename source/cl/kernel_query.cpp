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

/// The linear work-group size described by the input of the *_FOR_NDRANGE
/// queries: 1 to CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS non-zero size_t values
/// (the number of dimensions follows from the input's size). The product
/// saturates, so absurd sizes cannot wrap around to a small one.
bool localSizeFromInput(const Device &device, size_t inputSize, const void *input, size_t &localSize) {
  size_t dims = inputSize / sizeof(size_t);
  if (!input || inputSize % sizeof(size_t) != 0 || dims == 0 || dims > device.info().maxWorkItemDimensions)
    return false;
  const auto *sizes = static_cast<const size_t *>(input);
  localSize = 1;
  for (size_t i = 0; i < dims; ++i) {
    if (sizes[i] == 0)
      return false;
    localSize = sizes[i] > std::numeric_limits<size_t>::max() / localSize ? std::numeric_limits<size_t>::max()
                                                                          : localSize * sizes[i];
  }
  return true;
}

/// Sub-groups in a work-group of `localSize` work-items (the last may be
/// partial).
size_t subGroupCount(const mux::Kernel &kernel, size_t localSize) {
  size_t size = kernel.subGroupSize(localSize);
  return size ? localSize / size + (localSize % size != 0) : 0;
}

/// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: the largest 1-D local size the
/// kernel can run with that splits into exactly `count` whole sub-groups,
/// or 0 when there is none.
size_t localSizeForSubGroupCount(const mux::Kernel &kernel, size_t maxSize, size_t count) {
  if (count == 0 || count > maxSize) // at most one sub-group per work-item
    return 0;
  for (size_t localSize = maxSize; localSize > 0; --localSize) {
    size_t size = kernel.subGroupSize(localSize);
    if (size && localSize % size == 0 && localSize / size == count)
      return localSize;
  }
  return 0;
}

cl_int subGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name, size_t input_value_size,
                    const void *input_value, size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Kernel *k = nullptr;
  Device *d = nullptr;
  if (cl_int code = resolveKernelAndDevice(kernel, device, k, d); code != CL_SUCCESS)
    return code;
  if (!d->supportsSubGroups())
    return CL_INVALID_OPERATION;
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    break;
  default:
    return CL_INVALID_VALUE;
  }
  mux::Kernel *muxKernel = nullptr;
  if (cl_int code = muxKernelFor(*k, *d, muxKernel); code != CL_SUCCESS)
    return code;
  auto write = [&](size_t value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  const size_t maxSize = maxWorkGroupSize(*muxKernel, *d);

  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    size_t localSize;
    if (!localSizeFromInput(*d, input_value_size, input_value, localSize))
      return CL_INVALID_VALUE;
    if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
      return write(muxKernel->subGroupSize(localSize));
    return write(subGroupCount(*muxKernel, localSize));
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!input_value || input_value_size != sizeof(size_t))
      return CL_INVALID_VALUE;
    // The result has as many dimensions as the caller gave room for; the
    // other dimensions are 1.
    size_t dims = param_value_size / sizeof(size_t);
    bool validDims = param_value_size % sizeof(size_t) == 0 && dims >= 1 && dims <= d->info().maxWorkItemDimensions;
    if (param_value && !validDims)
      return CL_INVALID_VALUE;
    if (!validDims)
      dims = d->info().maxWorkItemDimensions;
    size_t localSize = localSizeForSubGroupCount(*muxKernel, std::min(maxSize, d->info().maxWorkItemSizes[0]),
                                                 *static_cast<const size_t *>(input_value));
    size_t local[3] = {localSize, localSize ? 1u : 0u, localSize ? 1u : 0u};
    return writeInfoBytes(param_value_size, param_value, param_value_size_ret, local, dims * sizeof(size_t));
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
    size_t most = 0;
    for (size_t localSize = 1; localSize <= maxSize; ++localSize)
      most = std::max(most, subGroupCount(*muxKernel, localSize));
    return write(most);
  }
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    // OpenCL C cannot require a sub-group count (no intel_reqd_sub_group_size).
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
