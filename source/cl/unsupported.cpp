// Entry points of optional OpenCL 3.0 features no Polymux device reports:
// images, samplers, pipes and device-side queues.
//
// Each validates the arguments the specification checks before the feature
// (bad context, bad queue, malformed flags...) and then returns the error the
// specification names for a device without the feature, so applications that
// probe for a feature see the same answer as from the device queries
// (CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_PIPE_SUPPORT and
// CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES are all false or zero). Shared
// virtual memory is in svm.cpp.
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

/// The cl_mem_flags rules of buffers (mem_flags.h); images may also be
/// CL_MEM_KERNEL_READ_AND_WRITE.
bool validMemFlags(cl_mem_flags flags) { return memflags::validCombination(flags & ~CL_MEM_KERNEL_READ_AND_WRITE); }

bool validImageType(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

/// The checks every image-creating entry point makes before it finds that no
/// device in the context supports images.
cl_int imageCreationError(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                          bool descriptorMissing) {
  if (!Context::fromHandle(context))
    return CL_INVALID_CONTEXT;
  if (!validMemFlags(flags))
    return CL_INVALID_VALUE;
  if (!format)
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  if (descriptorMissing)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  return CL_INVALID_OPERATION; // no device in the context supports images
}

/// Image commands: a bad queue first, then the missing feature.
cl_int queueFeatureError(cl_command_queue queue) {
  return CommandQueue::fromHandle(queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

bool validAddressingMode(cl_addressing_mode mode) {
  switch (mode) {
  case CL_ADDRESS_NONE:
  case CL_ADDRESS_CLAMP_TO_EDGE:
  case CL_ADDRESS_CLAMP:
  case CL_ADDRESS_REPEAT:
  case CL_ADDRESS_MIRRORED_REPEAT:
    return true;
  default:
    return false;
  }
}

bool validFilterMode(cl_filter_mode mode) { return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR; }

bool validBool(cl_ulong value) { return value == CL_TRUE || value == CL_FALSE; }

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

// ---------------------------------------------------------------- Images --

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                                 const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret) {
  return fail<_cl_mem>(imageCreationError(context, flags, image_format, !image_desc), errcode_ret);
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                                               cl_mem_flags flags, const cl_image_format *image_format,
                                               const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret) {
  if (!Context::fromHandle(context))
    return fail<_cl_mem>(CL_INVALID_CONTEXT, errcode_ret);
  // OpenCL 3.0 defines no image properties, so any named property is unknown.
  if (properties && properties[0] != 0)
    return fail<_cl_mem>(CL_INVALID_PROPERTY, errcode_ret);
  return fail<_cl_mem>(imageCreationError(context, flags, image_format, !image_desc), errcode_ret);
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                                   size_t image_width, size_t image_height, size_t image_row_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  return fail<_cl_mem>(imageCreationError(context, flags, image_format, false), errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                                   size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  return fail<_cl_mem>(imageCreationError(context, flags, image_format, false), errcode_ret);
}

// Not an error: a context without image support has no formats to list.
cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                              cl_uint num_entries, cl_image_format *image_formats,
                                              cl_uint *num_image_formats) {
  if (!Context::fromHandle(context))
    return CL_INVALID_CONTEXT;
  if (!validMemFlags(flags) || !validImageType(image_type) || (num_entries == 0 && image_formats))
    return CL_INVALID_VALUE;
  if (num_image_formats)
    *num_image_formats = 0;
  return CL_SUCCESS;
}

// No image object can exist, so every handle is "not a valid image object".
cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret) {
  return CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                      const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch,
                                      void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                                       const size_t *origin, const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                                      const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                      const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                                              const size_t *src_origin, const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event) {
  return queueFeatureError(command_queue);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                                              size_t src_offset, const size_t *dst_origin, const size_t *region,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event) {
  return queueFeatureError(command_queue);
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                    cl_map_flags map_flags, const size_t *origin, const size_t *region,
                                    size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event, cl_int *errcode_ret) {
  return fail<void>(queueFeatureError(command_queue), errcode_ret);
}

// -------------------------------------------------------------- Samplers --

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                       cl_int *errcode_ret) {
  if (!Context::fromHandle(context))
    return fail<_cl_sampler>(CL_INVALID_CONTEXT, errcode_ret);
  if (!validBool(normalized_coords) || !validAddressingMode(addressing_mode) || !validFilterMode(filter_mode))
    return fail<_cl_sampler>(CL_INVALID_VALUE, errcode_ret);
  return fail<_cl_sampler>(CL_INVALID_OPERATION, errcode_ret); // no device supports images
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *properties,
                                                     cl_int *errcode_ret) {
  if (!Context::fromHandle(context))
    return fail<_cl_sampler>(CL_INVALID_CONTEXT, errcode_ret);
  bool seenNormalized = false, seenAddressing = false, seenFilter = false;
  for (const cl_sampler_properties *p = properties; p && *p != 0; p += 2) {
    bool *seen;
    bool valid;
    switch (p[0]) {
    case CL_SAMPLER_NORMALIZED_COORDS:
      seen = &seenNormalized;
      valid = validBool(p[1]);
      break;
    case CL_SAMPLER_ADDRESSING_MODE:
      seen = &seenAddressing;
      valid = validAddressingMode(cl_addressing_mode(p[1]));
      break;
    case CL_SAMPLER_FILTER_MODE:
      seen = &seenFilter;
      valid = validFilterMode(cl_filter_mode(p[1]));
      break;
    default:
      return fail<_cl_sampler>(CL_INVALID_VALUE, errcode_ret);
    }
    if (*seen || !valid)
      return fail<_cl_sampler>(CL_INVALID_VALUE, errcode_ret);
    *seen = true;
  }
  return fail<_cl_sampler>(CL_INVALID_OPERATION, errcode_ret); // no device supports images
}

// No sampler object can exist, so every handle is invalid.
cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) { return CL_INVALID_SAMPLER; }

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) { return CL_INVALID_SAMPLER; }

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  return CL_INVALID_SAMPLER;
}

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
