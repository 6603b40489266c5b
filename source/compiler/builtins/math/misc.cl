// Bit-level and small math builtins (OpenCL C 3.0, 6.15.2): frexp, ldexp,
// ilogb, logb, modf, fract, nextafter, fdim, maxmag, minmag, nan, cbrt,
// hypot and rsqrt, for float and double, scalars and vectors.
//
// Methods:
//  - frexp, ldexp, ilogb, logb, nextafter, nan work on the representation
//    and are exact; ldexp rounds once, in a single multiplication, when the
//    result is denormal.
//  - modf, fract, fdim, maxmag, minmag are exact by construction.
//  - cbrt (double): exponent split e = 3k + r, a bit-trick first guess on the
//    reduced value in [1, 8), four Newton steps and a last step whose residual
//    y^3 - m is computed exactly with fma: < 1 ulp.
//  - hypot (double): both arguments scaled by the same power of two, the sum
//    of squares in double-double and one corrected square root: < 1 ulp, no
//    spurious overflow or underflow.
//  - rsqrt (double): reduced to [1, 4), 1/sqrt then one Newton step with an
//    fma residual: < 1 ulp.
//  - The float cbrt, hypot, rsqrt are computed in double and rounded once.
#include "pmx_misc.h"

// ldexp ----------------------------------------------------------------------

PMX_OVERLOAD double ldexp(double x, int n) { return __pmx_ldexp(x, n); }
PMX_OVERLOAD float ldexp(float x, int n) {
  // Exact in double for |n| <= 400, then rounded once to float.
  n = n > 400 ? 400 : (n < -400 ? -400 : n);
  return (float)__pmx_ldexp(__pmx_float_exact(x), n);
}
PMX_LANEWISE_2(float, ldexp, float, int)
PMX_LANEWISE_2(double, ldexp, double, int)
PMX_LANEWISE_2S(float, ldexp, float, int)
PMX_LANEWISE_2S(double, ldexp, double, int)

// frexp ----------------------------------------------------------------------

PMX_OVERLOAD double frexp(double x, __generic int *e) {
  if (x == 0.0 || !__pmx_isfinite(x)) {
    *e = 0;
    return x;
  }
  int k = __pmx_exponent(x) + 1;
  *e = k;
  return __pmx_ldexp(x, -k);
}
PMX_OVERLOAD float frexp(float x, __generic int *e) {
  double d = __pmx_float_exact(x); // a denormal x has a normal mantissa
  if (d == 0.0 || !__pmx_isfinite(d)) {
    *e = 0;
    return x;
  }
  int k = __pmx_exponent(d) + 1;
  *e = k;
  return (float)__pmx_ldexp(d, -k);
}
PMX_FORWARD_1P(double, frexp, double, int)
PMX_FORWARD_1P(float, frexp, float, int)
PMX_LANEWISE_1P(double, frexp, double, int)
PMX_LANEWISE_1P(float, frexp, float, int)

// ilogb, logb -----------------------------------------------------------------

PMX_OVERLOAD int ilogb(double x) {
  if (x == 0.0)
    return FP_ILOGB0;
  if (__pmx_isnan(x))
    return FP_ILOGBNAN;
  if (__pmx_isinf(x))
    return INT_MAX;
  return __pmx_exponent(x);
}
PMX_OVERLOAD int ilogb(float x) { return ilogb(__pmx_float_exact(x)); }
PMX_LANEWISE_1(int, ilogb, float)
PMX_LANEWISE_1(int, ilogb, double)

PMX_OVERLOAD double logb(double x) {
  if (x == 0.0)
    return -__builtin_inf();
  if (!__pmx_isfinite(x))
    return x * x; // +inf for +-inf, NaN for NaN
  return (double)__pmx_exponent(x);
}
PMX_OVERLOAD float logb(float x) { return (float)logb(__pmx_float_exact(x)); }
PMX_MISC_VEC_1(logb)

// modf, fract ------------------------------------------------------------------

#define PMX_MODF_FRACT(T, ONE_MINUS_ULP)                                                                               \
  PMX_OVERLOAD T modf(T x, __generic T *iptr) {                                                                        \
    T i = trunc(x);                                                                                                    \
    *iptr = i;                                                                                                         \
    if (__pmx_isinf(x))                                                                                                \
      return copysign((T)0, x);                                                                                        \
    return copysign(x - i, x); /* NaN stays NaN */                                                                     \
  }                                                                                                                    \
  PMX_OVERLOAD T fract(T x, __generic T *iptr) {                                                                       \
    if (__pmx_isnan(x)) {                                                                                              \
      *iptr = x;                                                                                                       \
      return x;                                                                                                        \
    }                                                                                                                  \
    T f = floor(x);                                                                                                    \
    *iptr = f;                                                                                                         \
    if (__pmx_isinf(x))                                                                                                \
      return copysign((T)0, x);                                                                                        \
    if (x == (T)0)                                                                                                     \
      return x;                        /* +-0 */                                                                       \
    return fmin(x - f, ONE_MINUS_ULP); /* +0 for other integers */                                                     \
  }                                                                                                                    \
  PMX_FORWARD_1P(T, modf, T, T)                                                                                        \
  PMX_FORWARD_1P(T, fract, T, T)                                                                                       \
  PMX_LANEWISE_1P(T, modf, T, T)                                                                                       \
  PMX_LANEWISE_1P(T, fract, T, T)

PMX_MODF_FRACT(double, 0x1.fffffffffffffp-1)

// The float forms in double on exact operands: fract(-denormal) is
// 0x1.fffffep-1, also on a device that flushes denormals in floor and
// subtraction (an H100 returned the operand).
PMX_OVERLOAD float modf(float x, __generic float *iptr) {
  double i;
  float r = (float)modf(__pmx_float_exact(x), &i);
  *iptr = (float)i;
  return r;
}
PMX_OVERLOAD float fract(float x, __generic float *iptr) {
  double d = __pmx_float_exact(x);
  if (__pmx_isnan(d)) {
    *iptr = x;
    return x;
  }
  double f = floor(d);
  *iptr = (float)f;
  if (__pmx_isinf(d))
    return copysign(0.0f, x);
  if (d == 0.0)
    return x; /* +-0 */
  return (float)fmin(d - f, 0x1.fffffep-1);
}
PMX_FORWARD_1P(float, modf, float, float)
PMX_FORWARD_1P(float, fract, float, float)
PMX_LANEWISE_1P(float, modf, float, float)
PMX_LANEWISE_1P(float, fract, float, float)

// nextafter, fdim, maxmag, minmag -------------------------------------------------

PMX_OVERLOAD double nextafter(double x, double y) {
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return x + y;
  if (x == y)
    return y;
  if (x == 0.0)
    return copysign(as_double(1UL), y);
  ulong b = as_ulong(x);
  // Away from zero when y is beyond x on x's side, else towards zero.
  b = ((x < y) == (x > 0.0)) ? b + 1 : b - 1;
  return as_double(b);
}
PMX_OVERLOAD float nextafter(float x, float y) {
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return x + y;
  // Compared exactly: a flushing device would see denormals as zeros.
  double dx = __pmx_float_exact(x), dy = __pmx_float_exact(y);
  if (dx == dy)
    return y;
  if (dx == 0.0)
    return copysign(as_float(1U), y);
  uint b = as_uint(x);
  b = ((dx < dy) == (dx > 0.0)) ? b + 1 : b - 1;
  return as_float(b);
}
PMX_MISC_VEC_2(nextafter)

#define PMX_FDIM_MAG(T)                                                                                                \
  PMX_OVERLOAD T fdim(T x, T y) {                                                                                      \
    if (__pmx_isnan(x) || __pmx_isnan(y))                                                                              \
      return x + y;                                                                                                    \
    return x > y ? x - y : (T)0;                                                                                       \
  }                                                                                                                    \
  PMX_OVERLOAD T maxmag(T x, T y) {                                                                                    \
    T ax = fabs(x), ay = fabs(y);                                                                                      \
    if (ax > ay)                                                                                                       \
      return x;                                                                                                        \
    if (ay > ax)                                                                                                       \
      return y;                                                                                                        \
    return fmax(x, y);                                                                                                 \
  }                                                                                                                    \
  PMX_OVERLOAD T minmag(T x, T y) {                                                                                    \
    T ax = fabs(x), ay = fabs(y);                                                                                      \
    if (ax < ay)                                                                                                       \
      return x;                                                                                                        \
    if (ay < ax)                                                                                                       \
      return y;                                                                                                        \
    return fmin(x, y);                                                                                                 \
  }

PMX_FDIM_MAG(double)

// The float forms compare exactly (a flushing device would see denormals as
// zeros) and return an operand's own bits.
PMX_OVERLOAD float fdim(float x, float y) { return (float)fdim(__pmx_float_exact(x), __pmx_float_exact(y)); }
// maxmag (`larger`) or minmag: the operand of the larger (smaller)
// magnitude, and for equal magnitudes the larger (smaller) value.
static inline float __pmx_float_by_magnitude(float x, float y, bool larger) {
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return __pmx_isnan(x) ? y : x;
  double dx = __pmx_float_exact(x), dy = __pmx_float_exact(y);
  double ax = __builtin_fabs(dx), ay = __builtin_fabs(dy);
  bool pickX = ax != ay ? (larger ? ax > ay : ax < ay) : (larger ? dx > dy : dx < dy);
  return pickX ? x : y;
}
PMX_OVERLOAD float maxmag(float x, float y) { return __pmx_float_by_magnitude(x, y, true); }
PMX_OVERLOAD float minmag(float x, float y) { return __pmx_float_by_magnitude(x, y, false); }
PMX_MISC_VEC_2(fdim)
PMX_MISC_VEC_2(maxmag)
PMX_MISC_VEC_2(minmag)

// nan --------------------------------------------------------------------------

PMX_OVERLOAD float nan(uint code) { return as_float(0x7fc00000U | code); }
PMX_OVERLOAD double nan(ulong code) { return as_double(0x7ff8000000000000UL | code); }
PMX_LANEWISE_1(float, nan, uint)
PMX_LANEWISE_1(double, nan, ulong)

// cbrt ---------------------------------------------------------------------------

PMX_OVERLOAD double cbrt(double x) {
  if (x == 0.0 || !__pmx_isfinite(x))
    return x + x; // +-0, +-inf, NaN
  double a = __builtin_fabs(x);
  int e = __pmx_exponent(a);
  int k = e >= 0 ? e / 3 : -((2 - e) / 3); // floor(e / 3)
  double m = __pmx_ldexp(a, -3 * k);       // in [1, 8)
  // First guess: a third of the exponent and mantissa bits (~6% error).
  double y = as_double(as_ulong(m) / 3 + 0x2aa0000000000000UL);
  for (int i = 0; i < 4; ++i)
    y = (2.0 * y + m / (y * y)) * (1.0 / 3.0);
  // Last Newton step with the residual y^3 - m computed exactly.
  __pmx_dd y2 = __pmx_two_prod(y, y);
  __pmx_dd y3 = __pmx_two_prod(y2.hi, y);
  double res = (y3.hi - m) + __builtin_fma(y2.lo, y, y3.lo);
  y -= res / (3.0 * y2.hi);
  return copysign(__pmx_ldexp(y, k), x);
}
PMX_FLOAT_VIA_DOUBLE_1(cbrt)
PMX_MISC_VEC_1(cbrt)

// hypot ---------------------------------------------------------------------------

PMX_OVERLOAD double hypot(double x, double y) {
  if (__pmx_isinf(x) || __pmx_isinf(y))
    return __builtin_inf();
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return x + y;
  double a = __builtin_fabs(x), b = __builtin_fabs(y);
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (b == 0.0)
    return a;
  int e = __pmx_exponent(a);
  if (e - __pmx_exponent(b) > 60)
    return a + b;         // b^2 is below half an ulp of a^2
  a = __pmx_ldexp(a, -e); // [1, 2)
  b = __pmx_ldexp(b, -e); // [2^-61, 2)
  __pmx_dd s = __pmx_dd_add(__pmx_two_prod(a, a), __pmx_two_prod(b, b));
  double r = __builtin_sqrt(s.hi);
  __pmx_dd rr = __pmx_two_prod(r, r);
  double d = (((s.hi - rr.hi) - rr.lo) + s.lo) / (2.0 * r);
  return __pmx_ldexp(r + d, e);
}
PMX_OVERLOAD float hypot(float x, float y) {
  if (__pmx_isinf(x) || __pmx_isinf(y))
    return __builtin_inff();
  double dx = x, dy = y; // the squares are exact in double
  return (float)__builtin_sqrt(dx * dx + dy * dy);
}
PMX_MISC_VEC_2(hypot)

// rsqrt ----------------------------------------------------------------------------

PMX_OVERLOAD double rsqrt(double x) {
  if (x == 0.0)
    return copysign(__builtin_inf(), x);
  if (!(x > 0.0))
    return __builtin_nan(""); // negative or NaN
  if (__pmx_isinf(x))
    return 0.0;
  int k = __pmx_exponent(x) >> 1;    // floor(e / 2)
  double m = __pmx_ldexp(x, -2 * k); // [1, 4)
  double y = 1.0 / __builtin_sqrt(m);
  // y += y (1 - m y^2) / 2, the residual from the exact square of y.
  __pmx_dd yy = __pmx_two_prod(y, y);
  double r = PMX_FMA_EXACT(-m, yy.hi, 1.0) - m * yy.lo;
  y = __builtin_fma(0.5 * y, r, y);
  return __pmx_ldexp(y, -k);
}
PMX_OVERLOAD float rsqrt(float x) {
  if (x < 0.0f)
    return __builtin_nanf("");
  return (float)(1.0 / __builtin_sqrt((double)x));
}
PMX_MISC_VEC_1(rsqrt)
