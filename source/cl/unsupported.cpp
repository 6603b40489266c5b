// Entry points of optional OpenCL 3.0 features no Polymux device reports:
// pipes, shared virtual memory and device-side queues. (Images and samplers
// are in image*.cpp and sampler.cpp.)
//
// Each validates the arguments the specification checks before the feature
// (bad context, bad queue, malformed flags...) and then returns the error the
// specification names for a device without the feature, so applications that
// probe for a feature see the same answer as from the device queries
// (CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_SVM_CAPABILITIES and
// CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES are all false or zero).
#include "context.h"
#include "device.h"
#include "kernel.h"
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

/// SVM commands: a bad queue first, then the missing feature.
cl_int queueFeatureError(cl_command_queue queue) {
  return CommandQueue::fromHandle(queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
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

// ------------------------------------------------- Shared virtual memory --

// clSVMAlloc reports failure by returning NULL; no device supports SVM.
void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  return nullptr;
}

// Only NULL or pointers from clSVMAlloc may be passed, and clSVMAlloc never
// returns one, so there is nothing to free.
void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                                    void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                                     void *svm_pointers[], void *user_data),
                                    void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                    cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
                                      const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
                                       size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                                   void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list, cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes, cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                          cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value) {
  if (!Kernel::fromHandle(kernel))
    return CL_INVALID_KERNEL;
  return CL_INVALID_OPERATION; // no device in the kernel's context supports SVM
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                       const void *param_value) {
  if (!Kernel::fromHandle(kernel))
    return CL_INVALID_KERNEL;
  // Every exec-info parameter OpenCL 3.0 defines is about SVM, and no device
  // in the kernel's context supports SVM: the spec's CL_INVALID_OPERATION
  // comes before any check of the parameter itself.
  (void)param_name, (void)param_value_size, (void)param_value;
  return CL_INVALID_OPERATION;
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
