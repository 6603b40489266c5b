// Image objects (ImageObject) and the image entry points that are not
// commands: clCreateImage*, clGetSupportedImageFormats, clGetImageInfo, and
// the image arguments of kernels. The clEnqueue*Image commands are in
// enqueue_image.cpp.
#include "image.h"

#include "context.h"
#include "device.h"
#include "image_format.h"
#include "image_limits.h"
#include "info.h"
#include "mem_flags.h"
#include "staging_buffer.h"

#include "compiler/abi/image_abi.h"

#include <cstring>

namespace polymux::cl {

ImageObject::ImageObject(Context &context, cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
                         Ref<BufferObject> pixels, std::vector<cl_mem_properties> properties)
    : flags_(flags), format_(format), desc_(desc), elementSize_(image_format::elementSize(format)),
      pixels_(std::move(pixels)), properties_(std::move(properties)) {
  (void)context;
  if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
    buffer_ = MemObject::fromHandle(desc.buffer);
  else
    hostPtr_ = pixels_->hostPtr();
}

ImageObject *ImageObject::fromHandle(cl_mem handle) {
  MemObject *object = MemObject::fromHandle(handle);
  return object ? dynamic_cast<ImageObject *>(object) : nullptr;
}

std::array<size_t, 3> ImageObject::extent() const {
  switch (desc_.image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return {desc_.image_width, desc_.image_array_size, 1};
  case CL_MEM_OBJECT_IMAGE2D:
    return {desc_.image_width, desc_.image_height, 1};
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return {desc_.image_width, desc_.image_height, desc_.image_array_size};
  case CL_MEM_OBJECT_IMAGE3D:
    return {desc_.image_width, desc_.image_height, desc_.image_depth};
  default:
    return {desc_.image_width, 1, 1};
  }
}

llvm::Expected<mux::Buffer *> ImageObject::descriptor(Device &device) {
  std::lock_guard lock(mutex_);
  for (auto &[owner, staging] : descriptors_)
    if (owner == &device)
      return &staging->buffer();
  auto binding = pixels_->binding(device);
  if (!binding)
    return binding.takeError();
  auto staging =
      StagingBuffer::create(device.mux(), sizeof(compiler::abi::ImageDescriptor), StagingBuffer::HostAccess::Write);
  if (!staging)
    return staging.takeError();
  const bool array = desc_.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || desc_.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  const std::array<size_t, 3> size = extent();
  compiler::abi::ImageDescriptor d{};
  d.data = binding->buffer->deviceAddress() + binding->offset;
  d.rowPitch = desc_.image_row_pitch;
  d.slicePitch = desc_.image_slice_pitch;
  d.width = static_cast<int32_t>(desc_.image_width);
  const bool oneDimensional = desc_.image_type == CL_MEM_OBJECT_IMAGE1D ||
                              desc_.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                              desc_.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  d.height = oneDimensional ? 1 : static_cast<int32_t>(desc_.image_height);
  d.depth = desc_.image_type == CL_MEM_OBJECT_IMAGE3D ? static_cast<int32_t>(desc_.image_depth) : 1;
  d.arraySize = array ? static_cast<int32_t>(desc_.image_array_size) : 0;
  d.slices =
      desc_.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? static_cast<int32_t>(size[1]) : static_cast<int32_t>(size[2]);
  d.channelOrder = static_cast<int32_t>(format_.image_channel_order);
  d.channelType = static_cast<int32_t>(format_.image_channel_data_type);
  d.elementSize = static_cast<int32_t>(elementSize_);
  d.channels = static_cast<int32_t>(image_format::channelCount(format_.image_channel_order));
  d.imageType = static_cast<int32_t>(desc_.image_type);
  std::memcpy((*staging)->view(), &d, sizeof(d));
  (*staging)->hostWrote(sizeof(d));
  descriptors_.emplace_back(&device, std::move(*staging));
  return &descriptors_.back().second->buffer();
}

void ImageObject::destroy() {
  descriptors_.clear();
  pixels_.reset();
  buffer_.reset();
  runDestructorCallbacks();
  delete this;
}

cl_int validateImageArg(Context &context, cl_mem handle, compiler::AccessQualifier access) {
  ImageObject *image = ImageObject::fromHandle(handle);
  if (!image || &image->context() != &context)
    return CL_INVALID_MEM_OBJECT;
  const cl_mem_flags flags = image->flags();
  if ((access == compiler::AccessQualifier::ReadOnly && (flags & CL_MEM_WRITE_ONLY)) ||
      (access == compiler::AccessQualifier::WriteOnly && (flags & CL_MEM_READ_ONLY)) ||
      (access == compiler::AccessQualifier::ReadWrite && (flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))))
    return CL_INVALID_ARG_VALUE;
  return CL_SUCCESS;
}

cl_int imageKernelArg(Device &device, cl_mem handle, compiler::AccessQualifier access, mux::KernelArg &arg,
                      Command &launch) {
  // Released since clSetKernelArg: the handle is poisoned.
  ImageObject *image = ImageObject::fromHandle(handle);
  if (!image)
    return CL_INVALID_KERNEL_ARGS;
  auto descriptor = image->descriptor(device);
  if (!descriptor)
    return allocationError(descriptor.takeError());
  auto texels = image->binding(device);
  if (!texels)
    return allocationError(texels.takeError());
  arg.kind = mux::KernelArg::Kind::Buffer;
  arg.buffer = *descriptor;
  arg.offset = 0;
  arg.texels = texels->buffer;
  launch.keepAlive.push_back(Ref<ObjectBase>(image));
  image->addUse(launch, 0, image->size(),
                access == compiler::AccessQualifier::ReadOnly ? ContentAccess::Read : ContentAccess::Update);
  return CL_SUCCESS;
}

} // namespace polymux::cl
