// Helpers shared by the bit-level and special math builtins (misc.cl,
// remainder.cl, special.cl): exponent access and the macros that give a
// scalar double function its float twin and its vector widths.
#ifndef POLYMUX_MISC_H
#define POLYMUX_MISC_H

#include "pmx_math.h"

/// |a| = m 2^*e with m an integer in [2^52, 2^53), for a finite nonzero.
/// Without branches: the vulkan compiler inlines the integer fma, which
/// calls it three times, wherever a kernel needs an exact fma.
static inline ulong __pmx_int_mantissa(double a, int *e) {
  ulong bits = as_ulong(a);
  int field = (int)(bits >> 52) & 0x7ff;
  ulong fraction = bits & 0xfffffffffffffUL;
  int shift = (int)clz(fraction) - 11; // a denormal's top bit to bit 52
  *e = (field != 0 ? field : 1 - shift) - 1075;
  return field != 0 ? fraction | (1UL << 52) : fraction << shift;
}

/// The unbiased exponent of a finite nonzero x (denormals included):
/// x = m * 2^e with 1 <= |m| < 2.
static inline int __pmx_exponent(double x) {
  ulong bits = as_ulong(x) & 0x7fffffffffffffffUL;
  int e = (int)(bits >> 52);
  if (e == 0) // denormal: bits * 2^-1074
    return 63 - (int)__builtin_clzl(bits) - 1074;
  return e - 1023;
}

/// x * 2^n rounded once (exact unless the result is denormal or overflows).
static inline double __pmx_ldexp(double x, int n) {
  if (x == 0.0 || !__pmx_isfinite(x) || n == 0)
    return x;
  ulong bits = as_ulong(x);
  ulong sign = bits & 0x8000000000000000UL;
  bits ^= sign;
  int e = (int)(bits >> 52);
  if (e == 0) { // denormal: normalise exactly, the exponent goes below 1
    bits = as_ulong(as_double(bits) * 0x1p54);
    e = (int)(bits >> 52) - 54;
  }
  ulong mant = bits & 0xfffffffffffffUL;
  n = n > 2200 ? 2200 : (n < -2200 ? -2200 : n);
  int r = e + n; // biased exponent of the result
  if (r >= 0x7ff)
    return as_double(sign | 0x7ff0000000000000UL);
  if (r >= 1)
    return as_double(sign | ((ulong)r << 52) | mant);
  if (r < -53) // below half the smallest denormal
    return as_double(sign);
  // Denormal result: one rounding, in the multiplication.
  double m = as_double(((ulong)(r + 1000) << 52) | mant) * 0x1p-1000;
  return as_double(sign | as_ulong(m));
}

/// Vector widths (all address spaces of the pointer forms) of scalar
/// functions already defined for float and double.
#define PMX_MISC_VEC_1(F)                                                                                              \
  PMX_LANEWISE_1(float, F, float)                                                                                      \
  PMX_LANEWISE_1(double, F, double)
#define PMX_MISC_VEC_2(F)                                                                                              \
  PMX_LANEWISE_2(float, F, float, float)                                                                               \
  PMX_LANEWISE_2(double, F, double, double)

/// A float function computed by its double twin and rounded once.
#define PMX_FLOAT_VIA_DOUBLE_1(F)                                                                                      \
  PMX_OVERLOAD float F(float x) { return (float)F((double)x); }
#define PMX_FLOAT_VIA_DOUBLE_2(F)                                                                                      \
  PMX_OVERLOAD float F(float x, float y) { return (float)F((double)x, (double)y); }

#endif // POLYMUX_MISC_H
