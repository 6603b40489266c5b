// The core of image access: texel addressing, channel
// types and orders, sampler addressing modes and filtering (OpenCL 3.0
// §8.2 "Image Addressing and Filtering"). The overloads kernels call are in
// image_read.cl, image_write.cl and image_query.cl.
#include "pmx_image.h"

#define PMX_ONE_FLOAT 0x3f800000u

static bool __pmx_is_integer_type(int type) {
  switch (type) {
  case CLK_SIGNED_INT8:
  case CLK_SIGNED_INT16:
  case CLK_SIGNED_INT32:
  case CLK_UNSIGNED_INT8:
  case CLK_UNSIGNED_INT16:
  case CLK_UNSIGNED_INT32:
    return true;
  default:
    return false;
  }
}

/// The bits of 1 in the channel type's read type (float or integer).
static uint __pmx_one(__pmx_img img) { return __pmx_is_integer_type(img->channel_type) ? 1u : PMX_ONE_FLOAT; }

static bool __pmx_has_alpha(int order) {
  switch (order) {
  case CLK_R:
  case CLK_RG:
  case CLK_RGB:
  case CLK_LUMINANCE:
  case CLK_Rx:
  case CLK_RGx:
  case CLK_RGBx:
    return false;
  default:
    return true;
  }
}

/// §8.3.1: the border colour of CLK_ADDRESS_CLAMP.
static uint4 __pmx_border(__pmx_img img) {
  return (uint4)(0, 0, 0, __pmx_has_alpha(img->channel_order) ? 0u : __pmx_one(img));
}

static float __pmx_srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f); }

static float __pmx_linear_to_srgb(float c) {
  if (isnan(c))
    return 0.0f;
  c = clamp(c, 0.0f, 1.0f);
  return c < 0.0031308f ? 12.92f * c : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

/// Stored channels (in memory order) to RGBA.
static uint4 __pmx_to_rgba(uint4 raw, int order, uint one) {
  switch (order) {
  case CLK_R:
  case CLK_Rx:
    return (uint4)(raw.x, 0, 0, one);
  case CLK_A:
    return (uint4)(0, 0, 0, raw.x);
  case CLK_RG:
  case CLK_RGx:
    return (uint4)(raw.x, raw.y, 0, one);
  case CLK_RA:
    return (uint4)(raw.x, 0, 0, raw.y);
  case CLK_BGRA:
  case CLK_sBGRA:
    return raw.zyxw;
  case CLK_ARGB:
    return raw.yzwx;
  case CLK_ABGR:
    return raw.wzyx;
  case CLK_INTENSITY:
    return raw.xxxx;
  case CLK_LUMINANCE:
    return (uint4)(raw.x, raw.x, raw.x, one);
  default: // RGBA, sRGBA
    return raw;
  }
}

/// RGBA to the channels stored, in memory order.
static uint4 __pmx_from_rgba(uint4 rgba, int order) {
  switch (order) {
  case CLK_A:
    return rgba.wwww;
  case CLK_RA:
    return rgba.xwxx;
  case CLK_BGRA:
  case CLK_sBGRA:
    return rgba.zyxw;
  case CLK_ARGB:
    return rgba.wxyz;
  case CLK_ABGR:
    return rgba.wzyx;
  default:
    return rgba;
  }
}

static bool __pmx_is_srgb(int order) { return order == CLK_sRGBA || order == CLK_sBGRA; }

static const __global uchar *__pmx_address(__pmx_img img, int4 c) {
  return (const __global uchar *)img->data + (ulong)c.x * img->element_size + (ulong)c.y * img->row_pitch +
         (ulong)c.z * img->slice_pitch;
}

static bool __pmx_inside(__pmx_img img, int4 c) {
  return c.x >= 0 && c.x < img->width && c.y >= 0 && c.y < img->height && c.z >= 0 && c.z < img->slices;
}

/// The texel at `c` (inside the image) as RGBA bits of its read type.
static uint4 __pmx_load(__pmx_img img, int4 c) {
  const __global uchar *p = __pmx_address(img, c);
  uint4 raw = (uint4)(0);
  const int type = img->channel_type;
  // Normalized channels multiply by the reciprocal instead of dividing: a
  // Vulkan device's division may be 2.5 ulp off (an NVIDIA H200 read 255 as
  // 0.99999994), where §8.3.1.1 asks for 1.5 ulp and exact ends (255 and
  // 65535 give 1.0, 127 and 32767 give 1.0, -127 and -32767 give -1.0).
  // Multiplication is correctly rounded everywhere; the product is within
  // 1.25 ulp of the quotient and exactly 1.0 at the ends (checked for every
  // value by ImageKernelTest.NormalizedReadsAreExactAtTheEnds).
  for (int i = 0; i < img->channels; ++i) {
    uint bits = 0;
    switch (type) {
    case CLK_UNORM_INT8:
      bits = as_uint(p[i] * (1.0f / 255.0f));
      break;
    case CLK_UNORM_INT16:
      bits = as_uint(((const __global ushort *)p)[i] * (1.0f / 65535.0f));
      break;
    case CLK_SNORM_INT8:
      bits = as_uint(fmax(((const __global char *)p)[i] * (1.0f / 127.0f), -1.0f));
      break;
    case CLK_SNORM_INT16:
      bits = as_uint(fmax(((const __global short *)p)[i] * (1.0f / 32767.0f), -1.0f));
      break;
    case CLK_HALF_FLOAT:
      bits = as_uint(vload_half(i, (const __global half *)p));
      break;
    case CLK_FLOAT:
    case CLK_SIGNED_INT32:
    case CLK_UNSIGNED_INT32:
      bits = ((const __global uint *)p)[i];
      break;
    case CLK_SIGNED_INT8:
      bits = (uint)(int)((const __global char *)p)[i];
      break;
    case CLK_SIGNED_INT16:
      bits = (uint)(int)((const __global short *)p)[i];
      break;
    case CLK_UNSIGNED_INT8:
      bits = p[i];
      break;
    case CLK_UNSIGNED_INT16:
      bits = ((const __global ushort *)p)[i];
      break;
    }
    raw[i] = bits;
  }
  if (__pmx_is_srgb(img->channel_order))
    for (int i = 0; i < 3; ++i)
      raw[i] = as_uint(__pmx_srgb_to_linear(as_float(raw[i])));
  return __pmx_to_rgba(raw, img->channel_order, __pmx_one(img));
}

/// The texel at `c`, or the border colour outside the image.
static uint4 __pmx_fetch(__pmx_img img, int4 c) {
  return __pmx_inside(img, c) ? __pmx_load(img, c) : __pmx_border(img);
}

/// `coord` with the layer (if any) rounded and clamped into the z place.
static int4 __pmx_with_layer(__pmx_img img, int4 c, float layer, int layer_at) {
  if (layer_at < 0)
    return c;
  int l = (int)rint(clamp(layer, 0.0f, (float)(img->array_size - 1)));
  c.z = l;
  if (layer_at == 1)
    c.y = 0;
  return c;
}

static int __pmx_extent(__pmx_img img, int d) { return d == 0 ? img->width : d == 1 ? img->height : img->depth; }

/// floor(u) as an int, safe for any float (NaN and huge values included).
static int __pmx_floor_int(float u) { return (int)floor(clamp(u, -1073741824.0f, 1073741824.0f)); }

/// Nearest filtering: the texel index for coordinate `s` on one axis.
static int __pmx_nearest(float s, int size, uint sampler) {
  const uint address = sampler & 0xE;
  const bool normalized = sampler & CLK_NORMALIZED_COORDS_TRUE;
  if (address == CLK_ADDRESS_REPEAT && normalized) {
    int i = __pmx_floor_int((s - floor(s)) * size);
    return i > size - 1 ? i - size : i < 0 ? 0 : i;
  }
  if (address == CLK_ADDRESS_MIRRORED_REPEAT && normalized) {
    float m = fabs(s - 2.0f * rint(0.5f * s));
    return min(__pmx_floor_int(m * size), size - 1);
  }
  int i = __pmx_floor_int(normalized ? s * size : s);
  if (address == CLK_ADDRESS_CLAMP_TO_EDGE || address == CLK_ADDRESS_NONE)
    i = clamp(i, 0, size - 1);
  return i; // CLK_ADDRESS_CLAMP: outside means the border colour
}

/// Linear filtering: the two texel indices around `s` and the weight of the
/// second.
static float __pmx_linear(float s, int size, uint sampler, int *i0, int *i1) {
  const uint address = sampler & 0xE;
  const bool normalized = sampler & CLK_NORMALIZED_COORDS_TRUE;
  float u;
  if (address == CLK_ADDRESS_REPEAT && normalized)
    u = (s - floor(s)) * size;
  else if (address == CLK_ADDRESS_MIRRORED_REPEAT && normalized)
    u = fabs(s - 2.0f * rint(0.5f * s)) * size;
  else
    u = normalized ? s * size : s;
  const float t = u - 0.5f;
  int a = __pmx_floor_int(t);
  int b = a + 1;
  if (address == CLK_ADDRESS_REPEAT && normalized) {
    if (a < 0)
      a += size;
    if (b > size - 1)
      b -= size;
  } else if (address == CLK_ADDRESS_MIRRORED_REPEAT && normalized) {
    a = max(a, 0);
    b = min(b, size - 1);
  } else if (address == CLK_ADDRESS_CLAMP_TO_EDGE || address == CLK_ADDRESS_NONE) {
    a = clamp(a, 0, size - 1);
    b = clamp(b, 0, size - 1);
  }
  *i0 = a;
  *i1 = b;
  return t - floor(clamp(t, -1073741824.0f, 1073741824.0f));
}

uint4 __pmx_read_sampled(__pmx_img img, uint sampler, float4 coord, int dims, int layer_at) {
  const float layer = layer_at >= 0 ? coord[layer_at] : 0.0f;
  if ((sampler & CLK_FILTER_LINEAR) && !__pmx_is_integer_type(img->channel_type)) {
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    float w[3] = {0.0f, 0.0f, 0.0f};
    for (int d = 0; d < dims; ++d)
      w[d] = __pmx_linear(coord[d], __pmx_extent(img, d), sampler, &lo[d], &hi[d]);
    float4 sum = (float4)(0.0f);
    for (int corner = 0; corner < (1 << dims); ++corner) {
      int4 c = (int4)(0);
      float weight = 1.0f;
      for (int d = 0; d < dims; ++d) {
        const bool upper = (corner >> d) & 1;
        c[d] = upper ? hi[d] : lo[d];
        weight *= upper ? w[d] : 1.0f - w[d];
      }
      sum += weight * as_float4(__pmx_fetch(img, __pmx_with_layer(img, c, layer, layer_at)));
    }
    return as_uint4(sum);
  }
  int4 c = (int4)(0);
  for (int d = 0; d < dims; ++d)
    c[d] = __pmx_nearest(coord[d], __pmx_extent(img, d), sampler);
  return __pmx_fetch(img, __pmx_with_layer(img, c, layer, layer_at));
}

uint4 __pmx_read_texel(__pmx_img img, int4 coord, int layer_at) {
  int4 c = coord;
  if (layer_at == 1)
    c = (int4)(coord.x, 0, coord.y, 0);
  return __pmx_fetch(img, c);
}

void __pmx_write_texel(__pmx_img img, int4 coord, int layer_at, uint4 color) {
  int4 c = coord;
  if (layer_at == 1)
    c = (int4)(coord.x, 0, coord.y, 0);
  if (!__pmx_inside(img, c))
    return;
  __global uchar *p = (__global uchar *)__pmx_address(img, c);
  if (__pmx_is_srgb(img->channel_order))
    for (int i = 0; i < 3; ++i)
      color[i] = as_uint(__pmx_linear_to_srgb(as_float(color[i])));
  const uint4 raw = __pmx_from_rgba(color, img->channel_order);
  for (int i = 0; i < img->channels; ++i) {
    const float f = as_float(raw[i]);
    const int s = (int)raw[i];
    const uint u = raw[i];
    switch (img->channel_type) {
    case CLK_UNORM_INT8:
      p[i] = convert_uchar_sat_rte(f * 255.0f);
      break;
    case CLK_UNORM_INT16:
      ((__global ushort *)p)[i] = convert_ushort_sat_rte(f * 65535.0f);
      break;
    case CLK_SNORM_INT8:
      ((__global char *)p)[i] = convert_char_sat_rte(f * 127.0f);
      break;
    case CLK_SNORM_INT16:
      ((__global short *)p)[i] = convert_short_sat_rte(f * 32767.0f);
      break;
    case CLK_HALF_FLOAT:
      vstore_half_rte(f, i, (__global half *)p);
      break;
    case CLK_FLOAT:
    case CLK_SIGNED_INT32:
    case CLK_UNSIGNED_INT32:
      ((__global uint *)p)[i] = u;
      break;
    case CLK_SIGNED_INT8:
      ((__global char *)p)[i] = convert_char_sat(s);
      break;
    case CLK_SIGNED_INT16:
      ((__global short *)p)[i] = convert_short_sat(s);
      break;
    case CLK_UNSIGNED_INT8:
      p[i] = convert_uchar_sat(u);
      break;
    case CLK_UNSIGNED_INT16:
      ((__global ushort *)p)[i] = convert_ushort_sat(u);
      break;
    }
  }
}
