#include "image_pixel.h"

#include "image_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace polymux::cl::image_pixel {
namespace {

/// Rounds to nearest even and saturates into [lo, hi]; NaN becomes 0.
int64_t roundSaturate(float value, int64_t lo, int64_t hi) {
  if (std::isnan(value))
    return 0;
  const double rounded = std::nearbyint(static_cast<double>(value)); // default mode: ties to even
  return static_cast<int64_t>(std::clamp<double>(rounded, static_cast<double>(lo), static_cast<double>(hi)));
}

float linearToSrgb(float c) {
  if (std::isnan(c))
    return 0.0f;
  c = std::clamp(c, 0.0f, 1.0f);
  return c < 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

/// RGBA to memory order (the inverse of the builtins' __pmx_to_rgba).
void toMemoryOrder(cl_channel_order order, const uint32_t rgba[4], uint32_t out[4]) {
  auto pick = [&](int a, int b, int c, int d) {
    out[0] = rgba[a];
    out[1] = rgba[b];
    out[2] = rgba[c];
    out[3] = rgba[d];
  };
  switch (order) {
  case CL_A:
    return pick(3, 3, 3, 3);
  case CL_RA:
    return pick(0, 3, 0, 0);
  case CL_BGRA:
  case CL_sBGRA:
    return pick(2, 1, 0, 3);
  case CL_ARGB:
    return pick(3, 0, 1, 2);
  case CL_ABGR:
    return pick(3, 2, 1, 0);
  default:
    return pick(0, 1, 2, 3);
  }
}

} // namespace

uint16_t floatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t exponent = (bits >> 23) & 0xffu;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) // Inf or NaN (keeping NaN quiet)
    return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u));
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31)
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {
    // Subnormal or zero: shift the full significand, round to nearest even.
    if (e < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const unsigned shift = static_cast<unsigned>(14 - e);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half; // may carry into the exponent, up to Inf: correct
  return static_cast<uint16_t>(sign | half);
}

void encode(const cl_image_format &format, const void *color, std::byte *out) {
  uint32_t rgba[4];
  std::memcpy(rgba, color, sizeof(rgba));
  const cl_channel_order order = format.image_channel_order;
  if (order == CL_sRGBA || order == CL_sBGRA)
    for (int i = 0; i < 3; ++i)
      rgba[i] = std::bit_cast<uint32_t>(linearToSrgb(std::bit_cast<float>(rgba[i])));
  uint32_t raw[4];
  toMemoryOrder(order, rgba, raw);
  const unsigned channels = image_format::channelCount(order);
  const unsigned size = image_format::channelSize(format.image_channel_data_type);
  for (unsigned i = 0; i < channels; ++i) {
    const float f = std::bit_cast<float>(raw[i]);
    const int32_t s = static_cast<int32_t>(raw[i]);
    const uint32_t u = raw[i];
    uint32_t value = 0;
    switch (format.image_channel_data_type) {
    case CL_UNORM_INT8:
      value = static_cast<uint32_t>(roundSaturate(f * 255.0f, 0, 255));
      break;
    case CL_UNORM_INT16:
      value = static_cast<uint32_t>(roundSaturate(f * 65535.0f, 0, 65535));
      break;
    case CL_SNORM_INT8:
      value = static_cast<uint32_t>(roundSaturate(f * 127.0f, -128, 127));
      break;
    case CL_SNORM_INT16:
      value = static_cast<uint32_t>(roundSaturate(f * 32767.0f, -32768, 32767));
      break;
    case CL_HALF_FLOAT:
      value = floatToHalf(f);
      break;
    case CL_SIGNED_INT8:
      value = static_cast<uint32_t>(std::clamp<int32_t>(s, -128, 127));
      break;
    case CL_SIGNED_INT16:
      value = static_cast<uint32_t>(std::clamp<int32_t>(s, -32768, 32767));
      break;
    case CL_UNSIGNED_INT8:
      value = std::min<uint32_t>(u, 255);
      break;
    case CL_UNSIGNED_INT16:
      value = std::min<uint32_t>(u, 65535);
      break;
    default: // 32-bit channels: the bits themselves
      value = u;
      break;
    }
    // Little-endian, like every device that supports images.
    std::memcpy(out + i * size, &value, size);
  }
}

} // namespace polymux::cl::image_pixel
