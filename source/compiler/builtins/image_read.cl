// read_imagef / read_imagei / read_imageui: with a sampler (integer or float
// coordinates) on read_only images, and without one on read_only and
// read_write images (OpenCL 3.0 §6.15.15.2-3).
#include "pmx_image.h"

// Widens a coordinate (scalar, 2- or 4-vector) to 4 lanes.
#define PMX_WIDEN_(T, c) ((T##4)(c, (T)0, (T)0, (T)0))
#define PMX_WIDEN_2(T, c) ((T##4)(c, (T)0, (T)0))
#define PMX_WIDEN_4(T, c) (c)
#define PMX_WIDEN(W, T, c) PMX_WIDEN_##W(T, c)
#define PMX_WIDEN_CAT(W, T, c) PMX_WIDEN(W, T, c)

#define PMX_READ_SAMPLED(ACCESS, SHAPE, NAME, R)                                                                       \
  PMX_OVERLOAD R##4 NAME(ACCESS image##SHAPE##_t image, sampler_t sampler, PMX_COORD(float, SHAPE) coord) {            \
    return as_##R##4(__pmx_read_sampled(__pmx_desc_##ACCESS##_##SHAPE(image), __pmx_sampler(sampler),                  \
                                        PMX_WIDEN_CAT(PMX_CW_##SHAPE, float, coord), PMX_DIMS_##SHAPE,                 \
                                        PMX_LAYER_##SHAPE));                                                           \
  }                                                                                                                    \
  PMX_OVERLOAD R##4 NAME(ACCESS image##SHAPE##_t image, sampler_t sampler, PMX_COORD(int, SHAPE) coord) {              \
    return as_##R##4(__pmx_read_sampled(__pmx_desc_##ACCESS##_##SHAPE(image), __pmx_sampler(sampler),                  \
                                        convert_float4(PMX_WIDEN_CAT(PMX_CW_##SHAPE, int, coord)), PMX_DIMS_##SHAPE,   \
                                        PMX_LAYER_##SHAPE));                                                           \
  }

#define PMX_READ_PLAIN(ACCESS, SHAPE, NAME, R)                                                                         \
  PMX_OVERLOAD R##4 NAME(ACCESS image##SHAPE##_t image, PMX_COORD(int, SHAPE) coord) {                                 \
    return as_##R##4(__pmx_read_texel(__pmx_desc_##ACCESS##_##SHAPE(image), PMX_WIDEN_CAT(PMX_CW_##SHAPE, int, coord), \
                                      PMX_LAYER_##SHAPE));                                                             \
  }

#define PMX_READS_SAMPLED(NAME, R)                                                                                     \
  PMX_READ_SAMPLED(read_only, 1d, NAME, R)                                                                             \
  PMX_READ_SAMPLED(read_only, 1d_array, NAME, R)                                                                       \
  PMX_READ_SAMPLED(read_only, 2d, NAME, R)                                                                             \
  PMX_READ_SAMPLED(read_only, 2d_array, NAME, R)                                                                       \
  PMX_READ_SAMPLED(read_only, 3d, NAME, R)

PMX_READS_SAMPLED(read_imagef, float)
PMX_READS_SAMPLED(read_imagei, int)
PMX_READS_SAMPLED(read_imageui, uint)

PMX_FOR_IMAGE_TYPES(PMX_READ_PLAIN, read_only, read_imagef, float)
PMX_FOR_IMAGE_TYPES(PMX_READ_PLAIN, read_only, read_imagei, int)
PMX_FOR_IMAGE_TYPES(PMX_READ_PLAIN, read_only, read_imageui, uint)
PMX_FOR_IMAGE_TYPES(PMX_READ_PLAIN, read_write, read_imagef, float)
PMX_FOR_IMAGE_TYPES(PMX_READ_PLAIN, read_write, read_imagei, int)
PMX_FOR_IMAGE_TYPES(PMX_READ_PLAIN, read_write, read_imageui, uint)
