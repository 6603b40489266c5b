// Conversions between IEEE binary16 bit patterns (held in a ushort) and
// float/double, done on the bits so that no fp16 arithmetic (cl_khr_fp16)
// and no runtime library (__extendhfsf2, __truncdfhf2) is needed.
//
// half -> float is exact. double -> half rounds once, in the rounding mode
// asked for; float -> half goes through double, which is exact, so it also
// rounds once (no double rounding).
#ifndef POLYMUX_HALF_H
#define POLYMUX_HALF_H

#include "pmx_builtins.h"

#define PMX_RTE 0
#define PMX_RTZ 1
#define PMX_RTP 2
#define PMX_RTN 3

/// The float a binary16 bit pattern stands for (exact; NaN payloads kept).
static inline float __pmx_half_bits_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16;
  uint exponent = (h >> 10) & 0x1f;
  uint mantissa = h & 0x3ff;
  if (exponent == 0x1f)
    return as_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    // Zero or a denormal, mantissa * 2^-24: exact, and normal as a float.
    float magnitude = (float)mantissa * 0x1p-24f;
    return as_float(sign | as_uint(magnitude));
  }
  return as_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/// `x` rounded to binary16 in `mode` (PMX_RTE/RTZ/RTP/RTN), as its bits.
static inline ushort __pmx_double_to_half_bits(double x, int mode) {
  ulong bits = as_ulong(x);
  uint sign = (uint)(bits >> 48) & 0x8000;
  int biased = (int)((bits >> 52) & 0x7ff);
  ulong mantissa = bits & 0xfffffffffffffUL;
  if (biased == 0x7ff) {
    if (mantissa == 0)
      return (ushort)(sign | 0x7c00);
    // A quiet NaN keeping the top of the payload.
    return (ushort)(sign | 0x7e00 | (uint)(mantissa >> 42));
  }
  int exponent = biased - 1023; // x = 1.m * 2^exponent for normal doubles
  if (exponent < -30) {
    // |x| < 2^-30 (zero, tiny or a double denormal): far below half of the
    // smallest half denormal (2^-24), so only directed rounding away from
    // zero gives it.
    bool nonzero = (bits << 1) != 0;
    bool up = nonzero && ((mode == PMX_RTP && !sign) || (mode == PMX_RTN && sign));
    return (ushort)(sign | (up ? 1u : 0u));
  }
  // Overflow: infinity, or the largest finite half when rounding towards
  // zero.
  bool toInfinity = mode == PMX_RTE || (mode == PMX_RTP && !sign) || (mode == PMX_RTN && sign);
  uint overflow = sign | (toInfinity ? 0x7c00u : 0x7bffu);
  if (exponent >= 16)
    return (ushort)overflow;
  // x = significand * 2^(exponent - 52), significand of 53 bits. The result
  // has quantum 2^q: 10 bits below the leading one, at least 2^-24.
  ulong significand = mantissa | (1UL << 52);
  int q = max(exponent - 10, -24);
  int shift = q - exponent + 52; // 42 .. 58
  ulong kept = significand >> shift;
  ulong rest = significand & ((1UL << shift) - 1);
  ulong halfway = 1UL << (shift - 1);
  bool increment;
  switch (mode) {
  case PMX_RTZ:
    increment = false;
    break;
  case PMX_RTP:
    increment = rest != 0 && !sign;
    break;
  case PMX_RTN:
    increment = rest != 0 && sign;
    break;
  default:
    increment = rest > halfway || (rest == halfway && (kept & 1));
    break;
  }
  kept += increment ? 1 : 0;
  // Denormals have biased exponent 0 and no implicit bit; a carry out of
  // the significand moves into the exponent field, as it must.
  uint result = ((uint)(q + 24) << 10) + (uint)kept;
  if (result >= 0x7c00)
    return (ushort)overflow;
  return (ushort)(sign | result);
}

#endif // POLYMUX_HALF_H
