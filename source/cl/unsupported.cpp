// Entry points of optional OpenCL 3.0 features no Polymux device reports:
// pipes and device-side queues. (Images and samplers are in image*.cpp and
// sampler.cpp, shared virtual memory in svm.cpp.)
//
// Each validates the arguments the specification checks before the feature
// (bad context, bad queue, malformed flags...) and then returns the error the
// specification names for a device without the feature, so applications that
// probe for a feature see the same answer as from the device queries
// (CL_DEVICE_PIPE_SUPPORT and CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES are false
// or zero).
#include "context.h"
#include "device.h"
#include "mem_flags.h"
#include "memory.h"
#include "queue.h"

namespace polymux::cl {
namespace {

template <class T> T *fail(cl_int error, cl_int *errcodeRet) {
  if (errcodeRet)
    *errcodeRet = error;
  return nullptr;
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

// ----------------------------------------------------------------- Pipes --

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties *properties, cl_int *errcode_ret) {
  if (!Context::fromHandle(context))
    return fail<_cl_mem>(CL_INVALID_CONTEXT, errcode_ret);
  constexpr cl_mem_flags allowed = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;
  if ((flags & ~allowed) || (properties && properties[0] != 0))
    return fail<_cl_mem>(CL_INVALID_VALUE, errcode_ret);
  return fail<_cl_mem>(CL_INVALID_OPERATION, errcode_ret); // no device supports pipes
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret) {
  // No device supports pipes, so clCreatePipe never succeeds and no memory
  // object is a pipe object.
  (void)param_name, (void)param_value_size, (void)param_value, (void)param_value_size_ret;
  (void)pipe;
  return CL_INVALID_MEM_OBJECT;
}

// ----------------------------------------------------- Device-side queues --

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  Device *dev = Device::fromHandle(device);
  if (!dev || !ctx->hasDevice(dev))
    return CL_INVALID_DEVICE;
  // CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0: no on-device queues at all.
  return CL_INVALID_OPERATION;
}

} // extern "C"
