// Images and samplers in the builtins library (host, riscv_sim, vulkan).
//
// A kernel's image argument is a pointer to a __pmx_image descriptor the
// OpenCL layer writes into device memory (compiler/abi/image_abi.h is the
// same layout in C++); a sampler is a pointer-sized value holding the CLK_*
// bits of the sampler (constant samplers come from
// __translate_sampler_initializer). OpenCL C cannot cast image or sampler
// types, so the casts are functions declared here under one asm label per
// purpose and defined once, on plain pointers, in image_handles.cl: Clang
// lowers every image type and sampler_t to a plain pointer on CPU triples.
// On the SPIR-V triple the vulkan compiler replaces the calls instead
// (spirv/passes/lower_image_handles.cpp).
#ifndef POLYMUX_IMAGE_H
#define POLYMUX_IMAGE_H

#include "pmx_builtins.h"

typedef struct {
  ulong data;        ///< device address of texel (0, 0, 0)
  ulong row_pitch;   ///< bytes between rows
  ulong slice_pitch; ///< bytes between 3D slices or array layers
  int width;
  int height;     ///< 1 for 1D images and 1D arrays
  int depth;      ///< 1 unless 3D
  int array_size; ///< 0 unless an array
  int slices;     ///< the z extent: depth (3D), array size (arrays), else 1
  int channel_order;
  int channel_type;
  int element_size; ///< bytes per texel
  int channels;     ///< channels stored per texel
  int image_type;   ///< CL_MEM_OBJECT_IMAGE*
} __pmx_image;

typedef const __global __pmx_image *__pmx_img;

/// The texel bits (as float, int or uint per the channel type) of a read
/// with `sampler` at `coord`: `dims` filtered coordinates, the layer (when
/// `layer_at` >= 0) in coord[layer_at].
uint4 __pmx_read_sampled(__pmx_img img, uint sampler, float4 coord, int dims, int layer_at);
/// A read without a sampler at integer coordinates (layer as above).
uint4 __pmx_read_texel(__pmx_img img, int4 coord, int layer_at);
/// Writes `color` (bits of the channel type's write type: float, int or
/// uint); writes outside the image do nothing.
void __pmx_write_texel(__pmx_img img, int4 coord, int layer_at, uint4 color);

// Image access qualifier × type, with the macros each file applies:
// M(access, type-suffix, ...).
#define PMX_FOR_IMAGE_TYPES(M, ACCESS, ...)                                                                            \
  M(ACCESS, 1d, __VA_ARGS__)                                                                                           \
  M(ACCESS, 1d_buffer, __VA_ARGS__)                                                                                    \
  M(ACCESS, 1d_array, __VA_ARGS__)                                                                                     \
  M(ACCESS, 2d, __VA_ARGS__) M(ACCESS, 2d_array, __VA_ARGS__) M(ACCESS, 3d, __VA_ARGS__)

#define PMX_DESCRIPTOR_DECL(ACCESS, SHAPE, _)                                                                          \
  __pmx_img __pmx_desc_##ACCESS##_##SHAPE(ACCESS image##SHAPE##_t) __asm__("__pmx_image_descriptor");
PMX_FOR_IMAGE_TYPES(PMX_DESCRIPTOR_DECL, read_only, _)
PMX_FOR_IMAGE_TYPES(PMX_DESCRIPTOR_DECL, write_only, _)
PMX_FOR_IMAGE_TYPES(PMX_DESCRIPTOR_DECL, read_write, _)
#undef PMX_DESCRIPTOR_DECL

uint __pmx_sampler(sampler_t sampler) __asm__("__pmx_sampler_bits");

// Coordinates per image shape: how many are filtered, where the layer is.
#define PMX_DIMS_1d 1
#define PMX_DIMS_1d_buffer 1
#define PMX_DIMS_1d_array 1
#define PMX_DIMS_2d 2
#define PMX_DIMS_2d_array 2
#define PMX_DIMS_3d 3
#define PMX_LAYER_1d -1
#define PMX_LAYER_1d_buffer -1
#define PMX_LAYER_1d_array 1
#define PMX_LAYER_2d -1
#define PMX_LAYER_2d_array 2
#define PMX_LAYER_3d -1
// The coordinate vector type's width: int, int2 or int4.
#define PMX_CW_1d
#define PMX_CW_1d_buffer
#define PMX_CW_1d_array 2
#define PMX_CW_2d 2
#define PMX_CW_2d_array 4
#define PMX_CW_3d 4
/// The coordinate type of SHAPE with element type T.
#define PMX_COORD(T, SHAPE) PMX_COORD_(T, PMX_CW_##SHAPE)
#define PMX_COORD_(T, W) PMX_COORD__(T, W)
#define PMX_COORD__(T, W) T##W

#endif
