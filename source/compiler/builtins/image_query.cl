// get_image_width / height / depth / dim / array_size and
// get_image_channel_data_type / order (OpenCL 3.0 §6.15.15.5).
#include "pmx_image.h"

#define PMX_QUERY(ACCESS, SHAPE, NAME, R, EXPR)                                                                        \
  PMX_OVERLOAD R NAME(ACCESS image##SHAPE##_t image) {                                                                 \
    __pmx_img d = __pmx_desc_##ACCESS##_##SHAPE(image);                                                                \
    return EXPR;                                                                                                       \
  }
#define PMX_QUERY_ALL(ACCESS, SHAPE, _)                                                                                \
  PMX_QUERY(ACCESS, SHAPE, get_image_width, int, d->width)                                                             \
  PMX_QUERY(ACCESS, SHAPE, get_image_channel_data_type, int, d->channel_type)                                          \
  PMX_QUERY(ACCESS, SHAPE, get_image_channel_order, int, d->channel_order)
#define PMX_QUERY_2D(ACCESS, SHAPE)                                                                                    \
  PMX_QUERY(ACCESS, SHAPE, get_image_height, int, d->height)                                                           \
  PMX_QUERY(ACCESS, SHAPE, get_image_dim, int2, (int2)(d->width, d->height))
#define PMX_QUERIES(ACCESS)                                                                                            \
  PMX_FOR_IMAGE_TYPES(PMX_QUERY_ALL, ACCESS, _)                                                                        \
  PMX_QUERY_2D(ACCESS, 2d)                                                                                             \
  PMX_QUERY_2D(ACCESS, 2d_array)                                                                                       \
  PMX_QUERY(ACCESS, 3d, get_image_height, int, d->height)                                                              \
  PMX_QUERY(ACCESS, 3d, get_image_depth, int, d->depth)                                                                \
  PMX_QUERY(ACCESS, 3d, get_image_dim, int4, (int4)(d->width, d->height, d->depth, 0))                                 \
  PMX_QUERY(ACCESS, 1d_array, get_image_array_size, size_t, (size_t)d->array_size)                                     \
  PMX_QUERY(ACCESS, 2d_array, get_image_array_size, size_t, (size_t)d->array_size)

PMX_QUERIES(read_only)
PMX_QUERIES(write_only)
PMX_QUERIES(read_write)
