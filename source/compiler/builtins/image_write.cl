// write_imagef / write_imagei / write_imageui on write_only and read_write
// images (OpenCL 3.0 §6.15.15.4).
#include "pmx_image.h"

#define PMX_WIDEN_(c) ((int4)(c, 0, 0, 0))
#define PMX_WIDEN_2(c) ((int4)(c, 0, 0))
#define PMX_WIDEN_4(c) (c)
#define PMX_WIDEN(W, c) PMX_WIDEN_##W(c)
#define PMX_WIDEN_CAT(W, c) PMX_WIDEN(W, c)

#define PMX_WRITE(ACCESS, SHAPE, NAME, T)                                                                              \
  PMX_OVERLOAD void NAME(ACCESS image##SHAPE##_t image, PMX_COORD(int, SHAPE) coord, T##4 color) {                     \
    __pmx_write_texel(__pmx_desc_##ACCESS##_##SHAPE(image), PMX_WIDEN_CAT(PMX_CW_##SHAPE, coord), PMX_LAYER_##SHAPE,   \
                      as_uint4(color));                                                                                \
  }

PMX_FOR_IMAGE_TYPES(PMX_WRITE, write_only, write_imagef, float)
PMX_FOR_IMAGE_TYPES(PMX_WRITE, write_only, write_imagei, int)
PMX_FOR_IMAGE_TYPES(PMX_WRITE, write_only, write_imageui, uint)
PMX_FOR_IMAGE_TYPES(PMX_WRITE, read_write, write_imagef, float)
PMX_FOR_IMAGE_TYPES(PMX_WRITE, read_write, write_imagei, int)
PMX_FOR_IMAGE_TYPES(PMX_WRITE, read_write, write_imageui, uint)
