// The float exponentials, logarithms and sinh/cosh/tanh, scalar and vector.
//
// The double versions (exp_log.cl, hyperbolic.cl) carry double-double
// arithmetic so that a double result is rounded once; a float result does
// not need that. Here every float function but exp, log and tanh (float
// arithmetic, below) is one evaluation in plain double with a relative
// error below 2^-40 (at most 2^-16 float ulp), rounded once to float:
// within about 0.5 ulp, against the specification's 3 ulp (exp, log
// families) and 4 (sinh, cosh), at a fraction of the cost of the
// double-double path. The double range also makes every float
// overflow and underflow come out of the final conversion, denormals
// included: a float denormal is a normal double.
//
// exp(y) = 2^k * exp(r), r = y - k*ln2 (|r| <= ln2/2 + 2^-40), exp(r) the
// Taylor series to r^10/10! (truncation below 2^-41.5 relative).
// log(x) = e*ln2 + 2*atanh(s), x = 2^e * m, m in [sqrt(1/2), sqrt(2)),
// s = (m-1)/(m+1), |s| < 0.172, the atanh series to s^17 (truncation below
// 2^-50 relative). The sum is never a cancellation: for e != 0 the series
// term is below half of |e*ln2|. Both kernels are in pmx_exp_log.h, shared
// with the float pow (pow.cl) and erf (special.cl).
#include "pmx_builtins.h"
#include "pmx_exp_log.h"

// ln2 for float arithmetic in two parts: 15 significant bits, so that
// k * PMX_LN2F_HI is exact for |k| <= 255, then the rest rounded to float.
#define PMX_LN2F_HI 0x1.62e4p-1f
#define PMX_LN2F_LO 0x1.7f7d1cp-20f

// NaN, zero, negative and +inf arguments of the logarithms; returns true
// and sets *r when x is one of them.
static inline bool __pmx_logf_special(float x, __private float *r) {
  if (x > 0.0f && x < __builtin_inff())
    return false;
  if (x != x || x == __builtin_inff())
    *r = x;
  else if (x == 0.0f)
    *r = -__builtin_inff();
  else
    *r = __builtin_nanf("");
  return true;
}

// exp(r) for |r| <= 0.347: the Taylor series to r^7/7! (truncation below
// 2^-27 relative) in Horner form, in mad (an fma where the device has one;
// the bound holds with two roundings per step as well), whose last steps
// carry the rounding: below 1.5 ulp.
static inline float __pmx_expf_taylor(float r) {
  float p = 1.0f / 5040.0f;
  p = mad(p, r, 1.0f / 720.0f);
  p = mad(p, r, 1.0f / 120.0f);
  p = mad(p, r, 1.0f / 24.0f);
  p = mad(p, r, 1.0f / 6.0f);
  p = mad(p, r, 0.5f);
  p = mad(p, r, 1.0f);
  return mad(p, r, 1.0f);
}

// exp(x) for -104 <= x <= 89 in float arithmetic, unlike the other
// functions here: a GPU runs double at a fraction of its float speed (an
// H100 at half, most at 1/32 or less). x = k ln2 + r, k = rint(x log2(e)),
// ln2 in two parts, the first of 15 bits so that k ln2_hi (|k| <= 150) and
// x - k ln2_hi are exact; exp(r), |r| <= 0.347, as above. 2^k is applied
// in two factors, so that neither overflows and a denormal result is
// rounded once more, by the last product.
static inline float __pmx_expf_float(float x) {
  float k = __builtin_rintf(x * 0x1.715476p+0f);
  float r = mad(-k, PMX_LN2F_LO, mad(-k, PMX_LN2F_HI, x));
  float p = __pmx_expf_taylor(r);
  int ki = (int)k, k1 = ki >> 1, k2 = ki - k1;
  return (p * as_float((k1 + 127) << 23)) * as_float((k2 + 127) << 23);
}

PMX_OVERLOAD float exp(float x) {
  if (x != x)
    return x;
  if (x > 89.0f)
    return __builtin_inff();
  if (x < -104.0f)
    return 0.0f; // exp(-104) is below half the smallest denormal
  return __pmx_expf_float(x); // below 1.5 ulp against the 3 allowed
}

PMX_OVERLOAD float exp2(float x) {
  if (x != x)
    return x;
  if (x > 129.0f)
    return __builtin_inff();
  if (x < -151.0f)
    return 0.0f;
  double k = __builtin_rint((double)x);
  // x - k is exact; the product's rounding is 2^-53 relative.
  return (float)__pmx_expf_reduced(((double)x - k) * PMX_LN2_HI, k);
}

PMX_OVERLOAD float exp10(float x) {
  if (x != x)
    return x;
  if (x > 39.0f)
    return __builtin_inff();
  if (x < -46.0f)
    return 0.0f;
  // |x*ln10| <= 106: the product's rounding error is below 2^-46 absolute.
  return (float)__pmx_expf_kernel((double)x * PMX_LN10_HI);
}

PMX_OVERLOAD float expm1(float x) {
  if (x != x || x == 0.0f)
    return x; // NaN and signed zeros
  if (x > 89.0f)
    return __builtin_inff();
  if (x < -18.0f)
    return -1.0f; // exp(x) < 2^-25: -1 + exp(x) rounds to -1
  double d = (double)x;
  if (__builtin_fabs(d) > 0.35)
    return (float)(__pmx_expf_kernel(d) - 1.0); // >= 0.29 in magnitude: no cancellation
  // The Taylor series without its constant term: relative truncation below
  // 0.35^11/12! = 2^-45.
  double p = 1.0 / 39916800.0;
  p = __builtin_fma(p, d, 1.0 / 3628800.0);
  p = __builtin_fma(p, d, 1.0 / 362880.0);
  p = __builtin_fma(p, d, 1.0 / 40320.0);
  p = __builtin_fma(p, d, 1.0 / 5040.0);
  p = __builtin_fma(p, d, 1.0 / 720.0);
  p = __builtin_fma(p, d, 1.0 / 120.0);
  p = __builtin_fma(p, d, 1.0 / 24.0);
  p = __builtin_fma(p, d, 1.0 / 6.0);
  p = __builtin_fma(p, d, 0.5);
  return (float)__builtin_fma(d * d, p, d);
}

// log in float arithmetic, as exp above (GPUs with slow double): x =
// 2^e (1 + f), sqrt(1/2) <= 1 + f < sqrt(2), taken apart in integers so
// that a denormal x needs no float operation a device may flush;
// s = f / (2 + f), z = s^2, log(1 + f) = f - (f^2/2 - s (f^2/2 + R)),
// R = 2 (z/3 + z^2/5 + z^3/7 + z^4/9) (the next term is below 2^-27 of
// the result); ln2 in two parts, the first of 15 bits so that e ln2_hi is
// exact. Only the last subtraction from f and e ln2_hi rounds at the
// result's scale: about 1 ulp against the 3 allowed.
PMX_OVERLOAD float log(float x) {
  float special;
  if (__pmx_logf_special(x, &special))
    return special;
  uint bits = as_uint(x);
  uint mantissa = bits & 0x7fffffu;
  int e = (int)(bits >> 23) - 127;
  if ((bits >> 23) == 0) {
    // A denormal: its leading one to bit 23.
    int shift = (int)__builtin_clz(mantissa) - 8;
    mantissa = (mantissa << shift) & 0x7fffffu;
    e = -126 - shift;
  }
  float m = as_float(mantissa | 0x3f800000u);
  if (m > 0x1.6a09e6p+0f) {
    m *= 0.5f;
    e += 1;
  }
  float f = m - 1.0f; // exact (Sterbenz)
  float s = f / (2.0f + f);
  float z = s * s;
  float r = z * (2.0f / 3.0f + z * (2.0f / 5.0f + z * (2.0f / 7.0f + z * (2.0f / 9.0f))));
  float hfsq = 0.5f * f * f;
  float k = (float)e;
  return k * PMX_LN2F_HI - ((hfsq - (s * (hfsq + r) + k * PMX_LN2F_LO)) - f);
}

PMX_OVERLOAD float log2(float x) {
  float special;
  if (__pmx_logf_special(x, &special))
    return special;
  double e;
  double m = __pmx_logf_split(__pmx_float_exact(x), &e);
  return (float)__builtin_fma(__pmx_logf_mantissa(m), PMX_INV_LN2_HI, e);
}

PMX_OVERLOAD float log10(float x) {
  float special;
  if (__pmx_logf_special(x, &special))
    return special;
  double e;
  double m = __pmx_logf_split(__pmx_float_exact(x), &e);
  return (float)__builtin_fma(e, PMX_LOG10_2_HI, __pmx_logf_mantissa(m) * PMX_INV_LN10_HI);
}

PMX_OVERLOAD float log1p(float x) {
  if (x != x || x == __builtin_inff() || x == 0.0f)
    return x; // NaN, +inf and signed zeros
  if (x == -1.0f)
    return -__builtin_inff();
  if (x < -1.0f)
    return __builtin_nanf("");
  double d = (double)x;
  if (__builtin_fabs(d) < 0x1p-28)
    return (float)__builtin_fma(-0.5 * d, d, d); // x^3/3 is below 2^-56 relative
  // 1 + x is exact in double for a float |x| >= 2^-29, and log(1 + x) is a
  // relative-accurate log of it: e = 0 near 1, where the result is small.
  double e;
  double m = __pmx_logf_split(1.0 + d, &e);
  return (float)__builtin_fma(e, PMX_LN2_HI, __pmx_logf_mantissa(m));
}

// sinh, cosh. Below 0.25 (sinh) the odd Taylor series, above it exp:
// e - 1/e loses at most a factor 4 of the 2^-41 relative error of e there.
PMX_OVERLOAD float sinh(float x) {
  double d = (double)x, ad = __builtin_fabs(d);
  if (x != x || x == 0.0f)
    return x; // NaN and signed zeros
  if (ad > 90.0)
    return __builtin_copysign(__builtin_inff(), x); // sinh(89.5) > FLT_MAX
  if (ad < 0.25) {
    // x + x^3/3! + ... + x^11/11!: truncation 0.25^12/13! = 2^-56.6.
    double z = d * d;
    double p = 1.0 / 39916800.0;
    p = __builtin_fma(p, z, 1.0 / 362880.0);
    p = __builtin_fma(p, z, 1.0 / 5040.0);
    p = __builtin_fma(p, z, 1.0 / 120.0);
    p = __builtin_fma(p, z, 1.0 / 6.0);
    return (float)__builtin_fma(d * z, p, d);
  }
  double e = __pmx_expf_kernel(ad);
  return (float)__builtin_copysign(0.5 * (e - 1.0 / e), d);
}

PMX_OVERLOAD float cosh(float x) {
  double ad = __builtin_fabs((double)x);
  if (x != x)
    return x;
  if (ad > 90.0)
    return __builtin_inff();
  double e = __pmx_expf_kernel(ad);
  return (float)(0.5 * (e + 1.0 / e));
}

// tanh in float arithmetic, as exp, for the same reason, and because
// CPUs run twice the lanes of float: on [0, 0.55) the odd Taylor series
// a + a^3 P(a^2) to a^17 (truncation 0.55^18 * 0.00024 = 2^-27.6
// relative), on [0.55, 10] 1 - 2 / (exp(2a) + 1). There q = 2 / (e + 1)
// <= 0.4995 carries the errors of exp (1.5 ulp), the sum and the quotient
// (0.5 each) relative to q, at most 2.5 ulp of q, which is 1.25 ulp of the
// result (>= 0.5005) before the last subtraction rounds: below 2 ulp
// against the 5 allowed. Beyond 10, 1 - tanh|x| < 2^-27 rounds to 1, so
// |x| is clamped to 10 there.
//
// Written for the vectoriser, which runs every path a vector's lanes take:
// one branch (the sign and NaN are applied after it, zero takes the series
// path), polynomials in mad (an fma where the device has one; the bounds
// hold with two roundings per step as well), and exp(2a) = 2^k exp(r) with
// k <= 29 applied in one exact product.
PMX_OVERLOAD float tanh(float x) {
  float a = __builtin_fabsf(x), y;
  if (a < 0.55f) {
    float z = a * a;
    float p = 6404582.0f / 10854718875.0f;
    p = mad(p, z, -929569.0f / 638512875.0f);
    p = mad(p, z, 21844.0f / 6081075.0f);
    p = mad(p, z, -1382.0f / 155925.0f);
    p = mad(p, z, 62.0f / 2835.0f);
    p = mad(p, z, -17.0f / 315.0f);
    p = mad(p, z, 2.0f / 15.0f);
    p = mad(p, z, -1.0f / 3.0f);
    y = mad(a * z, p, a); // +0 for a zero: the sign comes last
  } else {
    // fmin also turns a NaN into 10; its result is replaced below.
    float t = 2.0f * __builtin_fminf(a, 10.0f);
    float k = __builtin_rintf(t * 0x1.715476p+0f); // 2 <= k <= 29
    // k * PMX_LN2F_HI is exact, and so is t minus it.
    float r = mad(-k, PMX_LN2F_LO, mad(-k, PMX_LN2F_HI, t));
    float p = __pmx_expf_taylor(r);
    float e = p * as_float(((int)k + 127) << 23);
    y = 1.0f - 2.0f / (e + 1.0f);
  }
  return x != x ? x : __builtin_copysignf(y, x);
}

PMX_LANEWISE_1(float, exp, float)
PMX_LANEWISE_1(float, exp2, float)
PMX_LANEWISE_1(float, exp10, float)
PMX_LANEWISE_1(float, expm1, float)
PMX_LANEWISE_1(float, log, float)
PMX_LANEWISE_1(float, log2, float)
PMX_LANEWISE_1(float, log10, float)
PMX_LANEWISE_1(float, log1p, float)
PMX_LANEWISE_1(float, sinh, float)
PMX_LANEWISE_1(float, cosh, float)
PMX_LANEWISE_1(float, tanh, float)
