// Contexts and the context entry points.
#include "context.h"

#include "device.h"
#include "info.h"
#include "platform.h"
#include "queue.h"
#include "svm_allocations.h"

#include "CL/cl_ext_polymux.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>

namespace polymux::cl {

Context::Context(std::vector<Device *> devices, std::vector<cl_context_properties> properties, NotifyFn notify,
                 void *userData)
    : devices_(std::move(devices)), properties_(std::move(properties)), notify_(notify), notifyUserData_(userData),
      svmAllocations_(std::make_unique<SvmAllocations>()) {
  for (size_t i = 0; i + 1 < properties_.size(); i += 2)
    if (properties_[i] == CL_CONTEXT_ERROR_MODEL_POLYMUX)
      poisonErrorModel_ = properties_[i + 1] == CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX;
}

Context::~Context() = default;

bool Context::hasDevice(const Device *device) const {
  return device && std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

size_t Context::deviceIndex(const Device &device) const {
  auto it = std::find(devices_.begin(), devices_.end(), &device);
  assert(it != devices_.end() && "device not in the context");
  return it - devices_.begin();
}

CommandQueue &Context::transferQueue(Device &device) {
  if (transferQueues_.empty())
    transferQueues_.resize(devices_.size());
  Ref<CommandQueue> &queue = transferQueues_[deviceIndex(device)];
  if (!queue)
    queue = CommandQueue::createTransferQueue(*this, device);
  return *queue;
}

void Context::notify(const std::string &message) const {
  if (notify_)
    notify_(message.c_str(), nullptr, 0, notifyUserData_);
}

void Context::addDestructorCallback(void(CL_CALLBACK *fn)(cl_context, void *), void *userData) {
  std::lock_guard<std::mutex> lock(mutex_);
  destructorCallbacks_.emplace_back(fn, userData);
}

void Context::destroy() {
  // The last reference is gone, so no other thread can register more.
  // Callbacks run most recently registered first, as the spec requires.
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(handle(), it->second);
  transferQueues_.clear();
  delete this;
}

namespace {

/// Checks a context property list. On success `copy` holds the list with its
/// terminator (empty for a NULL list).
cl_int validateProperties(const cl_context_properties *properties, std::vector<cl_context_properties> &copy) {
  copy.clear();
  if (!properties)
    return CL_SUCCESS;
  bool seenPlatform = false, seenInteropSync = false, seenErrorModel = false;
  for (const cl_context_properties *p = properties; *p != 0; p += 2) {
    cl_context_properties name = p[0], value = p[1];
    switch (name) {
    case CL_CONTEXT_PLATFORM:
      if (seenPlatform)
        return CL_INVALID_PROPERTY;
      seenPlatform = true;
      if (!Platform::fromHandle(reinterpret_cast<cl_platform_id>(value)))
        return CL_INVALID_PLATFORM;
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (seenInteropSync)
        return CL_INVALID_PROPERTY;
      seenInteropSync = true;
      if (value != CL_TRUE && value != CL_FALSE)
        return CL_INVALID_PROPERTY;
      break;
    case CL_CONTEXT_ERROR_MODEL_POLYMUX: // cl_polymux_async_error_model
      if (seenErrorModel)
        return CL_INVALID_PROPERTY;
      seenErrorModel = true;
      if (value != CL_CONTEXT_ERROR_MODEL_SPECIFICATION_POLYMUX && value != CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX)
        return CL_INVALID_PROPERTY;
      break;
    default:
      return CL_INVALID_PROPERTY;
    }
    copy.push_back(name);
    copy.push_back(value);
  }
  copy.push_back(0);
  return CL_SUCCESS;
}

cl_context makeContext(std::vector<Device *> devices, std::vector<cl_context_properties> properties,
                       Context::NotifyFn notify, void *userData, cl_int *errcodeRet) {
  Context *context;
  try {
    context = new Context(std::move(devices), std::move(properties), notify, userData);
  } catch (const std::bad_alloc &) {
    if (errcodeRet)
      *errcodeRet = CL_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
  if (errcodeRet)
    *errcodeRet = CL_SUCCESS;
  return context->handle();
}

cl_context fail(cl_int error, cl_int *errcodeRet) {
  if (errcodeRet)
    *errcodeRet = error;
  return nullptr;
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  std::vector<cl_context_properties> propertyCopy;
  if (cl_int error = validateProperties(properties, propertyCopy))
    return fail(error, errcode_ret);
  if (!devices || num_devices == 0 || (!pfn_notify && user_data))
    return fail(CL_INVALID_VALUE, errcode_ret);
  std::vector<Device *> contextDevices;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device *device = Device::fromHandle(devices[i]);
    if (!device)
      return fail(CL_INVALID_DEVICE, errcode_ret);
    // Duplicates are ignored (OpenCL 3.0, clCreateContext).
    if (std::find(contextDevices.begin(), contextDevices.end(), device) == contextDevices.end())
      contextDevices.push_back(device);
  }
  return makeContext(std::move(contextDevices), std::move(propertyCopy), pfn_notify, user_data, errcode_ret);
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                                               void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t,
                                                                             void *),
                                               void *user_data, cl_int *errcode_ret) {
  std::vector<cl_context_properties> propertyCopy;
  if (cl_int error = validateProperties(properties, propertyCopy))
    return fail(error, errcode_ret);
  if (!pfn_notify && user_data)
    return fail(CL_INVALID_VALUE, errcode_ret);
  if (!Platform::isValidDeviceType(device_type))
    return fail(CL_INVALID_DEVICE_TYPE, errcode_ret);
  llvm::SmallVector<Device *, 4> matches = Platform::get().devicesOfType(device_type);
  if (matches.empty())
    return fail(CL_DEVICE_NOT_FOUND, errcode_ret);
  return makeContext(std::vector<Device *>(matches.begin(), matches.end()), std::move(propertyCopy), pfn_notify,
                     user_data, errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  ctx->retain();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  ctx->release();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return writeInfo(param_value_size, param_value, param_value_size_ret, cl_uint(ctx->refCount()));
  case CL_CONTEXT_NUM_DEVICES:
    return writeInfo(param_value_size, param_value, param_value_size_ret, cl_uint(ctx->devices().size()));
  case CL_CONTEXT_DEVICES: {
    llvm::SmallVector<cl_device_id, 4> handles;
    for (Device *device : ctx->devices())
      handles.push_back(device->handle());
    return writeInfoArray(param_value_size, param_value, param_value_size_ret, std::span<const cl_device_id>(handles));
  }
  case CL_CONTEXT_PROPERTIES:
    return writeInfoArray(param_value_size, param_value, param_value_size_ret, ctx->properties());
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context, void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                                  void *user_data) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  try {
    ctx->addDestructorCallback(pfn_notify, user_data);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  return CL_SUCCESS;
}

} // extern "C"
