// read_imageh / write_imageh (OpenCL 3.0 §6.15.15, offered with cl_khr_fp16):
// the float functions rounded to half, and half colours written as floats.
// Every half is a float, so a write loses nothing, and the float read of a
// half texel converts back exactly.
#include "pmx_image.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define PMX_READH_SAMPLED(ACCESS, SHAPE)                                                                               \
  PMX_OVERLOAD half4 read_imageh(ACCESS image##SHAPE##_t image, sampler_t sampler, PMX_COORD(float, SHAPE) coord) {    \
    return convert_half4(read_imagef(image, sampler, coord));                                                          \
  }                                                                                                                    \
  PMX_OVERLOAD half4 read_imageh(ACCESS image##SHAPE##_t image, sampler_t sampler, PMX_COORD(int, SHAPE) coord) {      \
    return convert_half4(read_imagef(image, sampler, coord));                                                          \
  }

#define PMX_READH_PLAIN(ACCESS, SHAPE, _)                                                                              \
  PMX_OVERLOAD half4 read_imageh(ACCESS image##SHAPE##_t image, PMX_COORD(int, SHAPE) coord) {                         \
    return convert_half4(read_imagef(image, coord));                                                                   \
  }

#define PMX_WRITEH(ACCESS, SHAPE, _)                                                                                   \
  PMX_OVERLOAD void write_imageh(ACCESS image##SHAPE##_t image, PMX_COORD(int, SHAPE) coord, half4 color) {            \
    write_imagef(image, coord, convert_float4(color));                                                                 \
  }

PMX_READH_SAMPLED(read_only, 1d)
PMX_READH_SAMPLED(read_only, 1d_array)
PMX_READH_SAMPLED(read_only, 2d)
PMX_READH_SAMPLED(read_only, 2d_array)
PMX_READH_SAMPLED(read_only, 3d)

PMX_FOR_IMAGE_TYPES(PMX_READH_PLAIN, read_only, _)
PMX_FOR_IMAGE_TYPES(PMX_READH_PLAIN, read_write, _)
PMX_FOR_IMAGE_TYPES(PMX_WRITEH, write_only, _)
PMX_FOR_IMAGE_TYPES(PMX_WRITEH, read_write, _)
