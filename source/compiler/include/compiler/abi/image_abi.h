// The image ABI of every target with images (host, riscv_sim, vulkan): a
// kernel's image argument is a pointer to an ImageDescriptor in device
// memory, and a sampler argument is a pointer-sized value holding its CLK_*
// bits. The builtins library reads both (builtins/include/pmx_image.h
// declares the same struct in OpenCL C; builtins/image_*.cl are the
// functions). The texels lie in a buffer of their own
// (mux::KernelArg::texels).
#pragma once

#include <cstddef>
#include <cstdint>

namespace compiler::abi {

/// Plain data; the layout is part of the ABI. Addresses are device
/// addresses (guest addresses on a simulator).
struct ImageDescriptor {
  uint64_t data;       ///< texel (0, 0, 0)
  uint64_t rowPitch;   ///< bytes between rows
  uint64_t slicePitch; ///< bytes between 3D slices or array layers
  int32_t width;
  int32_t height;    ///< 1 for 1D images and 1D arrays
  int32_t depth;     ///< 1 unless 3D
  int32_t arraySize; ///< 0 unless an array
  int32_t slices;    ///< z extent: depth (3D), array size (arrays), else 1
  int32_t channelOrder;
  int32_t channelType;
  int32_t elementSize; ///< bytes per texel
  int32_t channels;    ///< channels stored per texel
  int32_t imageType;   ///< CL_MEM_OBJECT_IMAGE*
};
static_assert(sizeof(ImageDescriptor) == 64 && offsetof(ImageDescriptor, width) == 24 &&
              offsetof(ImageDescriptor, imageType) == 60);

} // namespace compiler::abi
