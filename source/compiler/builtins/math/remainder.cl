// fmod, remainder and remquo (OpenCL C 3.0, 6.15.2), float and double,
// scalars and vectors, remquo's quotient pointer in every address space.
//
// Method: exact long division on the integer mantissas. With |x| = mx 2^ex
// and |y| = my 2^ey (mx, my in [2^52, 2^53)), |x| mod |y| = (mx 2^(ex-ey)
// mod my) 2^ey; the dividend is shifted in 11 bits at a time so that every
// step is one 64-bit integer division, and the quotient's low bits are kept
// along the way (remquo returns the low 7). remainder then rounds the
// quotient to nearest, ties to even. The result is a multiple of 2^ey smaller
// than |y|, so it is representable and every function is exact. float
// arguments are exact in double and the double result fits in float.
#include "pmx_misc.h"

/// |x| mod |y| (nearest = false) or |x| rem |y| (nearest = true), with the
/// sign of x, and the signed low 7 bits of the quotient in *quo.
static inline double __pmx_remainder_core(double x, double y, bool nearest, int *quo) {
  *quo = 0;
  if (__pmx_isnan(x) || __pmx_isnan(y) || __pmx_isinf(x) || y == 0.0)
    return __builtin_nan("");
  if (__pmx_isinf(y) || x == 0.0)
    return x;
  double a = __builtin_fabs(x), b = __builtin_fabs(y);
  uint q = 0;
  double m;
  bool flip = false; // the result is b - r rather than r
  if (a < b) {
    m = a;
    // 2a may overflow to inf only when a > b / 2 anyway.
    if (nearest && 2.0 * a > b) {
      m = b - a; // exact: b / 2 < a < b
      flip = true;
      q = 1;
    }
  } else {
    int ea, eb;
    ulong ma = __pmx_int_mantissa(a, &ea);
    ulong mb = __pmx_int_mantissa(b, &eb);
    ulong r = ma;
    if (r >= mb) {
      r -= mb;
      q = 1;
    }
    for (int d = ea - eb; d > 0;) {
      int k = d < 11 ? d : 11;
      r <<= k; // < 2^64: r < mb < 2^53
      ulong t = r / mb;
      r -= t * mb;
      q = (q << k) + (uint)t;
      d -= k;
    }
    if (nearest && (2 * r > mb || (2 * r == mb && (q & 1)))) {
      r = mb - r;
      flip = true;
      ++q;
    }
    m = __pmx_ldexp((double)r, eb);
  }
  int qs = (int)(q & 0x7f);
  *quo = (x < 0.0) != (y < 0.0) ? -qs : qs;
  if (flip)
    m = -m;
  return x < 0.0 ? -m : m;
}

PMX_OVERLOAD double fmod(double x, double y) {
  int q;
  return __pmx_remainder_core(x, y, false, &q);
}
PMX_OVERLOAD double remainder(double x, double y) {
  int q;
  return __pmx_remainder_core(x, y, true, &q);
}
PMX_OVERLOAD double remquo(double x, double y, __generic int *quo) {
  int q;
  double r = __pmx_remainder_core(x, y, true, &q);
  *quo = q;
  return r;
}
PMX_OVERLOAD float fmod(float x, float y) {
  int q;
  return (float)__pmx_remainder_core(__pmx_float_exact(x), __pmx_float_exact(y), false, &q);
}
PMX_OVERLOAD float remainder(float x, float y) {
  int q;
  return (float)__pmx_remainder_core(__pmx_float_exact(x), __pmx_float_exact(y), true, &q);
}
PMX_OVERLOAD float remquo(float x, float y, __generic int *quo) {
  int q;
  float r = (float)__pmx_remainder_core(__pmx_float_exact(x), __pmx_float_exact(y), true, &q);
  *quo = q;
  return r;
}

PMX_MISC_VEC_2(fmod)
PMX_MISC_VEC_2(remainder)
PMX_FORWARD_2P(float, remquo, float, float, int)
PMX_FORWARD_2P(double, remquo, double, double, int)
PMX_LANEWISE_2P(float, remquo, float, float, int)
PMX_LANEWISE_2P(double, remquo, double, double, int)
