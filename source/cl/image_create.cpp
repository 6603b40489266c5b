// clCreateImage, clCreateImageWithProperties, clCreateImage2D/3D (OpenCL
// 1.x), clGetSupportedImageFormats and clGetImageInfo.
#include "image.h"

#include "context.h"
#include "device.h"
#include "image_format.h"
#include "image_limits.h"
#include "info.h"
#include "mem_flags.h"

namespace polymux::cl {
namespace {

cl_mem failImage(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
  return nullptr;
}

/// The cl_mem_flags rules of buffers (mem_flags.h); images may also be
/// CL_MEM_KERNEL_READ_AND_WRITE.
bool validImageFlags(cl_mem_flags flags) { return memflags::validCombination(flags & ~CL_MEM_KERNEL_READ_AND_WRITE); }

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

bool contextSupportsImages(const Context &context) {
  for (Device *device : context.devices())
    if (device->info().images)
      return true;
  return false;
}

/// Rows per slice and slices of the image (pitches aside).
size_t rowsOf(const cl_image_desc &desc) {
  switch (desc.image_type) {
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return desc.image_height;
  default:
    return 1;
  }
}

size_t slicesOf(const cl_image_desc &desc) {
  switch (desc.image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return desc.image_array_size;
  case CL_MEM_OBJECT_IMAGE3D:
    return desc.image_depth;
  default:
    return 1;
  }
}

/// The size checks of §5.3.1 against the image limits
/// (CL_INVALID_IMAGE_SIZE), after the descriptor is known to be valid.
bool withinLimits(const cl_image_desc &desc) {
  using namespace image_limits;
  switch (desc.image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return desc.image_width <= kImage2DMaxWidth;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return desc.image_width <= kMaxBufferSize;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return desc.image_width <= kImage2DMaxWidth && desc.image_array_size <= kMaxArraySize;
  case CL_MEM_OBJECT_IMAGE2D:
    return desc.image_width <= kImage2DMaxWidth && desc.image_height <= kImage2DMaxHeight;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return desc.image_width <= kImage2DMaxWidth && desc.image_height <= kImage2DMaxHeight &&
           desc.image_array_size <= kMaxArraySize;
  default:
    return desc.image_width <= kImage3DMaxSize && desc.image_height <= kImage3DMaxSize &&
           desc.image_depth <= kImage3DMaxSize;
  }
}

/// Checks `in` (§5.3.1.2) and resolves its pitches into `out`; the error is
/// CL_INVALID_IMAGE_DESCRIPTOR unless stated.
cl_int resolveDescriptor(const cl_image_desc &in, size_t elementSize, const void *hostPtr, cl_image_desc &out) {
  out = in;
  if (!validImageType(in.image_type) || in.num_mip_levels != 0 || in.num_samples != 0)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  const bool array = in.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || in.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (in.image_width == 0 || (rowsOf(in) == 0) || (slicesOf(in) == 0) || (array && in.image_array_size == 0))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  // No device creates a 2D image from a buffer (cl_khr_image2d_from_buffer).
  if (in.mem_object && in.image_type == CL_MEM_OBJECT_IMAGE2D)
    return CL_INVALID_OPERATION;
  if (in.mem_object && in.image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (in.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !BufferObject::fromHandle(in.mem_object))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!withinLimits(in))
    return CL_INVALID_IMAGE_SIZE;
  // Pitches are given only with a host pointer or a buffer to view.
  if (!hostPtr && !in.mem_object && (in.image_row_pitch != 0 || in.image_slice_pitch != 0))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  const size_t minRow = in.image_width * elementSize;
  const bool hasRows = in.image_type != CL_MEM_OBJECT_IMAGE1D && in.image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER &&
                       in.image_type != CL_MEM_OBJECT_IMAGE1D_ARRAY;
  size_t rowPitch = in.image_row_pitch ? in.image_row_pitch : minRow;
  if (rowPitch < minRow || rowPitch % elementSize != 0)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  const bool hasSlices = in.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || in.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         in.image_type == CL_MEM_OBJECT_IMAGE3D;
  const size_t minSlice = rowPitch * (hasRows ? in.image_height : 1);
  size_t slicePitch = in.image_slice_pitch ? in.image_slice_pitch : minSlice;
  if (hasSlices && (slicePitch < minSlice || slicePitch % rowPitch != 0))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!hasSlices)
    slicePitch = hasRows ? minSlice : 0;
  if (!hasRows)
    rowPitch = in.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch : minRow;
  // 1D arrays: the slice pitch is the size of each 1D image (row pitch).
  if (in.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY && !in.image_slice_pitch)
    slicePitch = rowPitch;
  out.image_row_pitch = rowPitch;
  out.image_slice_pitch = slicePitch;
  return CL_SUCCESS;
}

/// Bytes of the image's texels with its resolved pitches.
size_t imageBytes(const cl_image_desc &desc) {
  switch (desc.image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return desc.image_slice_pitch * slicesOf(desc);
  default:
    return desc.image_row_pitch * rowsOf(desc);
  }
}

/// The flags of a 1D buffer image: access flags not given come from the
/// buffer; given ones must not widen it (§5.3.1). False: CL_INVALID_VALUE.
bool resolveBufferImageFlags(cl_mem_flags bufferFlags, cl_mem_flags &flags) {
  if (flags & memflags::allocation)
    return false;
  const cl_mem_flags kernelRW = CL_MEM_KERNEL_READ_AND_WRITE;
  if (!memflags::allowedUnderParent(bufferFlags, flags & ~kernelRW))
    return false;
  flags = memflags::resolveForSubBuffer(bufferFlags, flags & ~kernelRW) | (flags & kernelRW);
  return true;
}

cl_mem createImage(cl_context contextHandle, const cl_mem_properties *properties, bool withProperties,
                   cl_mem_flags flags, const cl_image_format *format, const cl_image_desc *descIn, void *hostPtr,
                   cl_int *errcodeRet) {
  Context *context = Context::fromHandle(contextHandle);
  if (!context)
    return failImage(errcodeRet, CL_INVALID_CONTEXT);
  std::vector<cl_mem_properties> propertyList;
  if (withProperties && properties) {
    // OpenCL 3.0 defines no image properties, so any named property is unknown.
    if (properties[0] != 0)
      return failImage(errcodeRet, CL_INVALID_PROPERTY);
    propertyList.push_back(0);
  }
  if (!validImageFlags(flags))
    return failImage(errcodeRet, CL_INVALID_VALUE);
  if (!format || !image_format::wellFormed(*format))
    return failImage(errcodeRet, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  if (!descIn)
    return failImage(errcodeRet, CL_INVALID_IMAGE_DESCRIPTOR);
  if (!contextSupportsImages(*context))
    return failImage(errcodeRet, CL_INVALID_OPERATION);
  const size_t elementSize = image_format::elementSize(*format);
  cl_image_desc desc;
  if (cl_int code = resolveDescriptor(*descIn, elementSize ? elementSize : 1, hostPtr, desc))
    return failImage(errcodeRet, code);
  const bool needsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needsHostPtr != (hostPtr != nullptr))
    return failImage(errcodeRet, CL_INVALID_HOST_PTR);

  Ref<BufferObject> pixels;
  if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    BufferObject *buffer = BufferObject::fromHandle(desc.buffer);
    if (&buffer->context() != context)
      return failImage(errcodeRet, CL_INVALID_IMAGE_DESCRIPTOR);
    if (!resolveBufferImageFlags(buffer->flags(), flags))
      return failImage(errcodeRet, CL_INVALID_VALUE);
    if (!image_format::supported(*format, flags))
      return failImage(errcodeRet, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    if (desc.image_width * elementSize > buffer->size())
      return failImage(errcodeRet, CL_INVALID_IMAGE_SIZE);
    pixels = buffer;
  } else {
    if (!image_format::supported(*format, flags))
      return failImage(errcodeRet, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    const size_t bytes = imageBytes(desc);
    bool fitsSomeDevice = false;
    for (Device *device : context->devices())
      fitsSomeDevice |= device->info().images && bytes <= device->info().maxMemAllocSize;
    if (!fitsSomeDevice)
      return failImage(errcodeRet, CL_INVALID_IMAGE_SIZE);
    auto *buffer = new BufferObject(*context, flags & ~CL_MEM_KERNEL_READ_AND_WRITE, bytes, hostPtr, {});
    pixels = adopt(buffer);
    if (cl_int code = buffer->allocateEagerly(); code != CL_SUCCESS)
      return failImage(errcodeRet, code);
  }
  auto *image = new ImageObject(*context, flags, *format, desc, std::move(pixels), std::move(propertyList));
  if (errcodeRet)
    *errcodeRet = CL_SUCCESS;
  return image->handle();
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                              const cl_image_format *image_format, const cl_image_desc *image_desc,
                                              void *host_ptr, cl_int *errcode_ret) {
  return createImage(context, nullptr, false, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                                                            cl_mem_flags flags, const cl_image_format *image_format,
                                                            const cl_image_desc *image_desc, void *host_ptr,
                                                            cl_int *errcode_ret) {
  return createImage(context, properties, true, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = image_width;
  desc.image_height = image_height;
  desc.image_row_pitch = image_row_pitch;
  // The 1.x forms report zero sizes as CL_INVALID_IMAGE_SIZE.
  if (Context::fromHandle(context) && validImageFlags(flags) && image_format &&
      image_format::wellFormed(*image_format) && (image_width == 0 || image_height == 0) &&
      contextSupportsImages(*Context::fromHandle(context)))
    return failImage(errcode_ret, CL_INVALID_IMAGE_SIZE);
  return createImage(context, nullptr, false, flags, image_format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = image_width;
  desc.image_height = image_height;
  desc.image_depth = image_depth;
  desc.image_row_pitch = image_row_pitch;
  desc.image_slice_pitch = image_slice_pitch;
  if (Context::fromHandle(context) && validImageFlags(flags) && image_format &&
      image_format::wellFormed(*image_format) && (image_width == 0 || image_height == 0 || image_depth <= 1) &&
      contextSupportsImages(*Context::fromHandle(context)))
    return failImage(errcode_ret, CL_INVALID_IMAGE_SIZE);
  return createImage(context, nullptr, false, flags, image_format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type, cl_uint num_entries,
                                                           cl_image_format *image_formats, cl_uint *num_image_formats) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  if (!validImageFlags(flags) || !validImageType(image_type) || (num_entries == 0 && image_formats))
    return CL_INVALID_VALUE;
  // A context without image support has no formats to list (not an error).
  std::span<const cl_image_format> list;
  if (contextSupportsImages(*ctx))
    list = image_format::supportedList(flags);
  if (image_formats)
    for (size_t i = 0; i < list.size() && i < num_entries; ++i)
      image_formats[i] = list[i];
  if (num_image_formats)
    *num_image_formats = static_cast<cl_uint>(list.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem handle, cl_image_info param_name, size_t param_value_size,
                                               void *param_value, size_t *param_value_size_ret) {
  ImageObject *image = ImageObject::fromHandle(handle);
  if (!image)
    return CL_INVALID_MEM_OBJECT;
  auto answer = [&](const auto &value) {
    return writeInfo(param_value_size, param_value, param_value_size_ret, value);
  };
  const cl_image_desc &desc = image->desc();
  const cl_mem_object_type type = desc.image_type;
  const bool array = type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  switch (param_name) {
  case CL_IMAGE_FORMAT:
    return answer(image->format());
  case CL_IMAGE_ELEMENT_SIZE:
    return answer(image->elementSize());
  case CL_IMAGE_ROW_PITCH:
    return answer(desc.image_row_pitch);
  case CL_IMAGE_SLICE_PITCH:
    // 0 for images without slices (1D, 1D buffer, 2D).
    return answer(array || type == CL_MEM_OBJECT_IMAGE3D ? desc.image_slice_pitch : size_t{0});
  case CL_IMAGE_WIDTH:
    return answer(desc.image_width);
  case CL_IMAGE_HEIGHT:
    return answer(type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D
                      ? desc.image_height
                      : size_t{0});
  case CL_IMAGE_DEPTH:
    return answer(type == CL_MEM_OBJECT_IMAGE3D ? desc.image_depth : size_t{0});
  case CL_IMAGE_ARRAY_SIZE:
    return answer(array ? desc.image_array_size : size_t{0});
  case CL_IMAGE_BUFFER:
    return answer(type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? desc.buffer : cl_mem{nullptr});
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return answer(cl_uint{0});
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
