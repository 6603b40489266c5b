// SPIR-V test module: every image type written (write_only) and then read
// and written again (read_write), with its size queries (il_program_test.cpp,
// IlProgramTest.EveryImageTypeWrittenAndReadWritten). Work-item i stands for
// texel (i % w, i / w % h, i / (w * h)) and writes (x, y, z, 7); the
// read_write kernels add (1, 10, 100, 1000). Work-item 0 writes the width,
// height, depth and array size (0 where the type has none) to q.
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable

#define TEXEL                                                                                                          \
  int i = get_global_id(0);                                                                                            \
  int x = i % w, y = i / w % h, z = i / (w * h);

#define QUERIES(height, depth, layers)                                                                                  \
  if (i == 0) {                                                                                                        \
    q[0] = get_image_width(img);                                                                                       \
    q[1] = height;                                                                                                     \
    q[2] = depth;                                                                                                      \
    q[3] = layers;                                                                                                     \
  }

#define KERNELS(name, type, coord, height, depth, layers)                                                              \
  __kernel void w_##name(write_only type img, int w, int h, __global int *q) {                                         \
    TEXEL                                                                                                              \
    write_imageui(img, coord, (uint4)(x, y, z, 7));                                                                    \
    QUERIES(height, depth, layers)                                                                                     \
  }                                                                                                                    \
  __kernel void rw_##name(read_write type img, int w, int h, __global int *q) {                                        \
    TEXEL                                                                                                              \
    write_imageui(img, coord, read_imageui(img, coord) + (uint4)(1, 10, 100, 1000));                                   \
    QUERIES(height, depth, layers)                                                                                     \
  }

KERNELS(image1d, image1d_t, x, 0, 0, 0)
KERNELS(image1d_buffer, image1d_buffer_t, x, 0, 0, 0)
KERNELS(image1d_array, image1d_array_t, (int2)(x, y), 0, 0, (int)get_image_array_size(img))
KERNELS(image2d, image2d_t, (int2)(x, y), get_image_height(img), 0, 0)
KERNELS(image2d_array, image2d_array_t, (int4)(x, y, z, 0), get_image_height(img), 0, (int)get_image_array_size(img))
KERNELS(image3d, image3d_t, (int4)(x, y, z, 0), get_image_height(img), get_image_depth(img), 0)
