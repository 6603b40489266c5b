// sin, cos, tan, sincos, sinpi, cospi, tanpi (OpenCL C 3.0 6.15.2) for float
// and double, scalar and vector.
//
// double: x = q * pi/2 + r with r a double-double (pmx_trig.h: Cody-Waite
// below 2^20, Payne-Hanek above, exact for every finite x), then the sin/cos
// kernels on [-pi/4, pi/4] (Taylor, ~2^-60 relative) chosen and signed by the
// quadrant; tan divides the two double-double kernels. Error ~0.55 ulp (tan
// ~1 ulp) against the spec's 4 (tan 5).
// The *pi variants reduce exactly in binary: x = k/2 + t with k = rint(2x)
// and |t| <= 1/4 exact, then pi * t as a double-double feeds the same
// kernels (spec bounds 4, tanpi 6). Exact cases (sinpi(n) = +-0,
// cospi(n + 1/2) = +0, tanpi poles and zeros) are returned directly.
// float: computed in double and rounded once (~0.5 ulp); sin, cos, tan and
// sincos below 2^20, and the *pi variants, in plain double (see below).
#include "pmx_trig.h"

/// sin(q * pi/2 + r).
static inline __pmx_dd __pmx_sin_quadrant(__pmx_dd r, int q) {
  __pmx_dd v = (q & 1) ? __pmx_cos_kernel(r) : __pmx_sin_kernel(r);
  if (q & 2) {
    v.hi = -v.hi;
    v.lo = -v.lo;
  }
  return v;
}

/// tan(q * pi/2 + r).
static inline double __pmx_tan_quadrant(__pmx_dd r, int q) {
  __pmx_dd s = __pmx_sin_kernel(r), c = __pmx_cos_kernel(r);
  if (q & 1)
    return -__pmx_dd_div_round(c, s);
  return __pmx_dd_div_round(s, c);
}

PMX_OVERLOAD double sin(double x) {
  double ax = __builtin_fabs(x);
  if (ax < 0x1p-26) // sin(x) = x to within x^3/6 < ulp(x)/2; keeps +-0
    return x;
  if (!(ax < __builtin_inf()))
    return x - x; // nan for inf and nan
  __pmx_trig_reduced red = __pmx_trig_reduce(x);
  __pmx_dd v = __pmx_sin_quadrant(red.r, red.q);
  return v.hi + v.lo;
}

PMX_OVERLOAD double cos(double x) {
  double ax = __builtin_fabs(x);
  if (ax < 0x1p-27)
    return 1.0;
  if (!(ax < __builtin_inf()))
    return x - x;
  __pmx_trig_reduced red = __pmx_trig_reduce(x);
  __pmx_dd v = __pmx_sin_quadrant(red.r, red.q + 1);
  return v.hi + v.lo;
}

PMX_OVERLOAD double tan(double x) {
  double ax = __builtin_fabs(x);
  if (ax < 0x1p-27) // tan(x) = x to within x^3/3 < ulp(x)/2
    return x;
  if (!(ax < __builtin_inf()))
    return x - x;
  __pmx_trig_reduced red = __pmx_trig_reduce(x);
  return __pmx_tan_quadrant(red.r, red.q);
}

PMX_OVERLOAD double sincos(double x, __generic double *cosval) {
  double ax = __builtin_fabs(x);
  if (ax < 0x1p-27) {
    *cosval = 1.0;
    return x;
  }
  if (!(ax < __builtin_inf())) {
    *cosval = x - x;
    return x - x;
  }
  __pmx_trig_reduced red = __pmx_trig_reduce(x);
  __pmx_dd s = __pmx_sin_quadrant(red.r, red.q);
  __pmx_dd c = __pmx_sin_quadrant(red.r, red.q + 1);
  *cosval = c.hi + c.lo;
  return s.hi + s.lo;
}

/// x = k/2 + t exactly (|x| < 2^53), r = pi * t as a double-double.
typedef struct {
  __pmx_dd r;
  double t;
  int q; // k mod 4
} __pmx_pi_reduced;

/// x = k/2 + *t exactly (|x| < 2^53, |*t| <= 1/4); returns k mod 4.
static inline int __pmx_pi_split(double x, __private double *t) {
  double k = __builtin_rint(2.0 * x);
  *t = x - 0.5 * k; // exact: x is near k/2
  // From 2^62 on every double is a multiple of 4 (and x an even integer);
  // converting such k to long would overflow, whose result differs between
  // CPUs (x86-64 gives LONG_MIN, RISC-V saturates).
  return __builtin_fabs(k) < 0x1p62 ? (int)((long)k & 3) : 0;
}

static inline __pmx_pi_reduced __pmx_pi_reduce(double x) {
  double t;
  int q = __pmx_pi_split(x, &t);
  __pmx_dd p = __pmx_two_prod(t, PMX_PI_HI);
  p = __pmx_fast_two_sum(p.hi, p.lo + t * PMX_PI_LO);
  __pmx_pi_reduced out = {p, t, q};
  return out;
}

// The exact results at x = k/2 (t == 0), q = k mod 4, shared by the float
// and double *pi functions.
static inline double __pmx_sinpi_exact(double x, int q) {
  if (q & 1)
    return q == 1 ? 1.0 : -1.0;
  return __builtin_copysign(0.0, x); // sinpi(n) = +-0 with the sign of n
}

static inline double __pmx_cospi_exact(int q) {
  if (q & 1)
    return 0.0; // cospi(n + 1/2) = +0
  return q == 0 ? 1.0 : -1.0;
}

static inline double __pmx_tanpi_exact(double x, int q) {
  switch (q) {
  case 0: // even n: copysign(0, n)
    return __builtin_copysign(0.0, x);
  case 2: // odd n: copysign(0, -n)
    return __builtin_copysign(0.0, -x);
  case 1: // n + 1/2, n even
    return __builtin_inf();
  default: // n + 1/2, n odd
    return -__builtin_inf();
  }
}

PMX_OVERLOAD double sinpi(double x) {
  double ax = __builtin_fabs(x);
  if (!(ax < __builtin_inf()))
    return x - x;
  if (ax >= 0x1p53) // an even integer
    return __builtin_copysign(0.0, x);
  __pmx_pi_reduced red = __pmx_pi_reduce(x);
  if (red.t == 0.0)
    return __pmx_sinpi_exact(x, red.q);
  __pmx_dd v = __pmx_sin_quadrant(red.r, red.q);
  return v.hi + v.lo;
}

PMX_OVERLOAD double cospi(double x) {
  double ax = __builtin_fabs(x);
  if (!(ax < __builtin_inf()))
    return x - x;
  if (ax >= 0x1p53)
    return 1.0;
  __pmx_pi_reduced red = __pmx_pi_reduce(x);
  if (red.t == 0.0)
    return __pmx_cospi_exact(red.q);
  __pmx_dd v = __pmx_sin_quadrant(red.r, red.q + 1);
  return v.hi + v.lo;
}

PMX_OVERLOAD double tanpi(double x) {
  double ax = __builtin_fabs(x);
  if (!(ax < __builtin_inf()))
    return x - x;
  if (ax >= 0x1p53) // an even integer
    return __builtin_copysign(0.0, x);
  __pmx_pi_reduced red = __pmx_pi_reduce(x);
  if (red.t == 0.0)
    return __pmx_tanpi_exact(x, red.q);
  return __pmx_tan_quadrant(red.r, red.q);
}

// float sin, cos, tan, sincos: below 2^20 in plain double, no double-double.
// x = q * pi/2 + r by Cody-Waite steps that need no fma (below),
// with r rounded to double (relative error 2^-52 as long as no float below
// 2^20 lies within about 2^-40 of a multiple of pi/2), then the Taylor series to
// r^13/13! and r^14/14! (truncation below 2^-45 relative for |r| <= pi/4).
// From 2^20 on, and for infinities and NaNs, the double functions (exact
// Payne-Hanek reduction). Either way one rounding to float.

// pi/2 as P1 + P2 + P3 with P1 and P2 of at most 32 significant bits, so
// that k * P1 and k * P2 are exact in double for every k below 2^20 without
// an fma (Vulkan lets GLSL.std.450 Fma round twice, and lavapipe's does),
// P3 the nearest double to what remains (checked against pi to 80 digits).
#define PMX_PIO2_F1 0x1.921fb544p+0
#define PMX_PIO2_F2 0x1.0b4611a6p-34
#define PMX_PIO2_F3 0x1.3198a2e037073p-69

// x = q * pi/2 + r for a float |x| < 2^20, with no fma: x - k * P1 is exact
// (both are multiples of x's float ulp or finer, and the difference is below
// pi/4 + ulp), then two subtractions each rounded once: a relative error of
// about 2^-52 in r, far below a float's ulp.
static inline double __pmx_cody_waite_float(double x, __private int *q) {
  double k = __builtin_rint(x * PMX_TWO_OVER_PI);
  double r = x - k * PMX_PIO2_F1;
  r = r - k * PMX_PIO2_F2;
  r = r - k * PMX_PIO2_F3;
  *q = (int)k & 3;
  return r;
}

static inline double __pmx_sinf_kernel(double r) {
  double z = r * r;
  double p = 1.0 / 6227020800.0;
  p = __builtin_fma(p, -z, 1.0 / 39916800.0);
  p = __builtin_fma(p, -z, 1.0 / 362880.0);
  p = __builtin_fma(p, -z, 1.0 / 5040.0);
  p = __builtin_fma(p, -z, 1.0 / 120.0);
  p = __builtin_fma(p, -z, 1.0 / 6.0);
  return __builtin_fma(-(r * z), p, r);
}

static inline double __pmx_cosf_kernel(double r) {
  double z = r * r;
  double p = 1.0 / 87178291200.0;
  p = __builtin_fma(p, -z, 1.0 / 479001600.0);
  p = __builtin_fma(p, -z, 1.0 / 3628800.0);
  p = __builtin_fma(p, -z, 1.0 / 40320.0);
  p = __builtin_fma(p, -z, 1.0 / 720.0);
  p = __builtin_fma(p, -z, 1.0 / 24.0);
  return __builtin_fma(z * z, p, 1.0 - 0.5 * z);
}

// sin(q * pi/2 + r).
static inline double __pmx_sinf_quadrant(double r, int q) {
  double v = (q & 1) ? __pmx_cosf_kernel(r) : __pmx_sinf_kernel(r);
  return (q & 2) ? -v : v;
}

// tan(q * pi/2 + r).
static inline double __pmx_tanf_quadrant(double r, int q) {
  double s = __pmx_sinf_kernel(r), c = __pmx_cosf_kernel(r);
  return (q & 1) ? -c / s : s / c;
}

PMX_OVERLOAD float sin(float x) {
  if (!(__builtin_fabs(x) < 0x1p20f))
    return (float)sin((double)x);
  if (x == 0.0f)
    return x; // keeps the sign of zero
  int q;
  double r = __pmx_cody_waite_float((double)x, &q);
  return (float)__pmx_sinf_quadrant(r, q);
}

PMX_OVERLOAD float cos(float x) {
  if (!(__builtin_fabs(x) < 0x1p20f))
    return (float)cos((double)x);
  int q;
  double r = __pmx_cody_waite_float((double)x, &q);
  return (float)__pmx_sinf_quadrant(r, q + 1);
}

PMX_OVERLOAD float tan(float x) {
  if (!(__builtin_fabs(x) < 0x1p20f))
    return (float)tan((double)x);
  if (x == 0.0f)
    return x;
  int q;
  double r = __pmx_cody_waite_float((double)x, &q);
  return (float)__pmx_tanf_quadrant(r, q);
}
// float sinpi, cospi, tanpi in plain double: x = k/2 + t exactly (|t| <=
// 1/4), pi * t rounded to double (relative error 2^-53), then the kernels
// above. The exact cases (t == 0) as in the double functions; infinities
// and NaNs through them.
PMX_OVERLOAD float sinpi(float x) {
  double d = (double)x, t;
  if (!(__builtin_fabs(d) < __builtin_inf()))
    return x - x;
  int q = __pmx_pi_split(d, &t);
  if (t == 0.0)
    return (float)__pmx_sinpi_exact(d, q);
  return (float)__pmx_sinf_quadrant(t * PMX_PI_HI, q);
}

PMX_OVERLOAD float cospi(float x) {
  double d = (double)x, t;
  if (!(__builtin_fabs(d) < __builtin_inf()))
    return x - x;
  int q = __pmx_pi_split(d, &t);
  if (t == 0.0)
    return (float)__pmx_cospi_exact(q);
  return (float)__pmx_sinf_quadrant(t * PMX_PI_HI, q + 1);
}

PMX_OVERLOAD float tanpi(float x) {
  double d = (double)x, t;
  if (!(__builtin_fabs(d) < __builtin_inf()))
    return x - x;
  int q = __pmx_pi_split(d, &t);
  if (t == 0.0)
    return (float)__pmx_tanpi_exact(d, q);
  return (float)__pmx_tanf_quadrant(t * PMX_PI_HI, q);
}

PMX_OVERLOAD float sincos(float x, __generic float *cosval) {
  if (!(__builtin_fabs(x) < 0x1p20f) || x == 0.0f) {
    double c;
    double s = sincos((double)x, &c);
    *cosval = (float)c;
    return (float)s;
  }
  int q;
  double r = __pmx_cody_waite_float((double)x, &q);
  *cosval = (float)__pmx_sinf_quadrant(r, q + 1);
  return (float)__pmx_sinf_quadrant(r, q);
}

PMX_FORWARD_1P(float, sincos, float, float)
PMX_FORWARD_1P(double, sincos, double, double)

PMX_LANEWISE_1(float, sin, float)
PMX_LANEWISE_1(double, sin, double)
PMX_LANEWISE_1(float, cos, float)
PMX_LANEWISE_1(double, cos, double)
PMX_LANEWISE_1(float, tan, float)
PMX_LANEWISE_1(double, tan, double)
PMX_LANEWISE_1(float, sinpi, float)
PMX_LANEWISE_1(double, sinpi, double)
PMX_LANEWISE_1(float, cospi, float)
PMX_LANEWISE_1(double, cospi, double)
PMX_LANEWISE_1(float, tanpi, float)
PMX_LANEWISE_1(double, tanpi, double)
PMX_LANEWISE_1P(float, sincos, float, float)
PMX_LANEWISE_1P(double, sincos, double, double)
