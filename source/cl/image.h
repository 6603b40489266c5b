// Image objects: the MemObject behind clCreateImage*. An image's texels live
// in a buffer (BufferObject: per-device storage, migration, host pointers
// and maps come from there) laid out with the image's row and slice
// pitches; a 1D buffer image uses the application's buffer itself. Kernels
// get a pointer to a descriptor (compiler/abi/image_abi.h) that the image
// keeps per device, holding that device's address of the texels.
#pragma once

#include "buffer.h"
#include "memory.h"

#include "compiler/kernel_info.h"

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <vector>

namespace polymux::cl {

class StagingBuffer;

class ImageObject final : public MemObject {
public:
  /// `desc` has its pitches resolved; `pixels` holds the texels.
  ImageObject(Context &context, cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
              Ref<BufferObject> pixels, std::vector<cl_mem_properties> properties);

  static ImageObject *fromHandle(cl_mem handle);

  Context &context() const override { return pixels_->context(); }
  cl_mem_object_type type() const override { return desc_.image_type; }
  cl_mem_flags flags() const override { return flags_; }
  size_t size() const override { return pixels_->size(); }
  llvm::Expected<BufferBinding> binding(Device &device) override { return pixels_->binding(device); }
  void addUse(Command &command, uint64_t offset, uint64_t size, ContentAccess access) override {
    pixels_->addUse(command, offset, size, access);
  }
  void *hostPtr() const override { return hostPtr_; }
  cl_uint mapCount() const override { return pixels_->mapCount(); }
  MemObject *associatedObject() const override { return buffer_.get(); }
  std::span<const cl_mem_properties> creationProperties() const override { return properties_; }

  const cl_image_format &format() const { return format_; }
  /// With image_row_pitch and image_slice_pitch resolved.
  const cl_image_desc &desc() const { return desc_; }
  size_t elementSize() const { return elementSize_; }
  /// The buffer of the texels (the 1D buffer image's own buffer).
  BufferObject &pixels() const { return *pixels_; }
  /// Width, height and depth (or array size) as a 3D region: unused
  /// dimensions are 1.
  std::array<size_t, 3> extent() const;

  /// The kernel-argument descriptor on `device` (created on first use).
  llvm::Expected<mux::Buffer *> descriptor(Device &device);

protected:
  void destroy() override;

private:
  cl_mem_flags flags_;
  cl_image_format format_;
  cl_image_desc desc_;
  size_t elementSize_;
  Ref<BufferObject> pixels_;
  Ref<MemObject> buffer_; ///< CL_MEM_ASSOCIATED_MEMOBJECT (1D buffer images)
  void *hostPtr_ = nullptr;
  std::vector<cl_mem_properties> properties_;
  std::mutex mutex_;
  std::vector<std::pair<Device *, std::shared_ptr<StagingBuffer>>> descriptors_;
};

/// clSetKernelArg of an image argument declared with `access`:
/// CL_INVALID_MEM_OBJECT or CL_INVALID_ARG_VALUE as the specification says.
cl_int validateImageArg(Context &context, cl_mem handle, compiler::AccessQualifier access);

/// A kernel launch's image argument on `device`: the descriptor, and the
/// texels' use by the launch.
cl_int imageKernelArg(Device &device, cl_mem handle, compiler::AccessQualifier access, mux::KernelArg &arg,
                      Command &launch);

} // namespace polymux::cl
