// Internal exponential and logarithm kernels shared by the exp/log, pow and
// hyperbolic builtins (and any other math file that needs them). The
// double-double ones are defined once in math/exp_log.cl and declared here;
// the plain-double kernels of the float functions (__pmx_expf_*,
// __pmx_logf_*) are small enough to be inline here.
//
// Accuracy: __pmx_log_dd and __pmx_log1p_dd return the logarithm as a
// double-double with a relative error below about 2^-70; __pmx_exp_core
// returns exp(hi + lo) = (m.hi + m.lo) * 2^k with m within about 2^-59 of the
// exact value (relative), m.hi being m rounded to double.
#ifndef POLYMUX_EXP_LOG_H
#define POLYMUX_EXP_LOG_H

#include "pmx_math.h"

// ln(2), 1/ln(2), ln(10), 1/ln(10), log10(2) as double-doubles (computed
// with mpmath at 300 bits, hi = the value rounded to double, lo = the rest).
#define PMX_LN2_HI 0x1.62e42fefa39efp-1
#define PMX_LN2_LO 0x1.abc9e3b39803fp-56
#define PMX_INV_LN2_HI 0x1.71547652b82fep+0
#define PMX_INV_LN2_LO 0x1.777d0ffda0d24p-56
#define PMX_LN10_HI 0x1.26bb1bbb55516p+1
#define PMX_LN10_LO -0x1.f48ad494ea3e9p-53
#define PMX_INV_LN10_HI 0x1.bcb7b1526e50ep-2
#define PMX_INV_LN10_LO 0x1.95355baaafad3p-57
#define PMX_LOG10_2_HI 0x1.34413509f79ffp-2
#define PMX_LOG10_2_LO -0x1.9dc1da994fd21p-59

/// exp(hi + lo) = (m.hi + m.lo) * 2^*k for finite |hi| <= 1100 (|lo| <=
/// ulp(hi)); m is in about [0.7, 1.42] and m.hi is m rounded to double.
__pmx_dd __pmx_exp_core(double hi, double lo, __private int *k);

/// exp(hi + lo) rounded to double, with overflow to +inf and gradual
/// underflow to +0; NaN in, NaN out.
double __pmx_exp_dd(double hi, double lo);

/// exp(x) - 1 as a double-double, for -40 <= x <= 709.
__pmx_dd __pmx_expm1_dd(double x);

/// log(x) as a double-double, for finite x > 0 (denormals included).
__pmx_dd __pmx_log_dd(double x);

/// log(1 + u) as a double-double, for a finite double-double u > -1.
__pmx_dd __pmx_log1p_dd(__pmx_dd u);

/// sqrt(a) as a double-double, for a > 0.
static inline __pmx_dd __pmx_dd_sqrt(__pmx_dd a) {
  double s = __builtin_sqrt(a.hi);
  // a.hi - s*s is exact in one fma (the square root's residual).
  double r = PMX_FMA_EXACT(-s, s, a.hi) + a.lo;
  return __pmx_fast_two_sum(s, r / (2.0 * s));
}

// Plain-double exponential for the float functions (float_exp_log.cl,
// pow.cl, special.cl): relative error below 2^-41, no double-double.

// 2^k * exp(r) for |r| <= 0.35 and an integer k in [-1000, 1000]: exp(r)
// is the Taylor series to r^10/10! (truncation below 2^-41.5 relative).
static inline double __pmx_expf_reduced(double r, double k) {
  double p = 1.0 / 3628800.0;
  p = __builtin_fma(p, r, 1.0 / 362880.0);
  p = __builtin_fma(p, r, 1.0 / 40320.0);
  p = __builtin_fma(p, r, 1.0 / 5040.0);
  p = __builtin_fma(p, r, 1.0 / 720.0);
  p = __builtin_fma(p, r, 1.0 / 120.0);
  p = __builtin_fma(p, r, 1.0 / 24.0);
  p = __builtin_fma(p, r, 1.0 / 6.0);
  p = __builtin_fma(p, r, 0.5);
  p = __builtin_fma(p, r, 1.0);
  p = __builtin_fma(p, r, 1.0);
  return p * as_double((ulong)((long)k + 1023) << 52);
}

// r with y = *k * ln2 + r, *k = rint(y / ln2), for |y| <= 710.
static inline double __pmx_exp_reduce(double y, __private double *k) {
  *k = __builtin_rint(y * PMX_INV_LN2_HI);
  // ln2 in two parts: y - k*ln2_hi is one rounding (fma), k*ln2_lo is
  // below 2^-45 for |k| <= 1024.
  double r = PMX_FMA_EXACT(-*k, PMX_LN2_HI, y);
  return PMX_FMA_EXACT(-*k, PMX_LN2_LO, r);
}

// exp(y) for |y| <= 700.
static inline double __pmx_expf_kernel(double y) {
  double k;
  double r = __pmx_exp_reduce(y, &k);
  return __pmx_expf_reduced(r, k);
}

// Plain-double logarithm for the float functions: log(m) for m in
// [sqrt(1/2), sqrt(2)) as 2*atanh(s), s = (m-1)/(m+1), |s| < 0.172, the
// series to s^17 (truncation below 2^-50 relative).
static inline double __pmx_logf_mantissa(double m) {
  double s = (m - 1.0) / (m + 1.0);
  double z = s * s;
  double p = 1.0 / 17.0;
  p = __builtin_fma(p, z, 1.0 / 15.0);
  p = __builtin_fma(p, z, 1.0 / 13.0);
  p = __builtin_fma(p, z, 1.0 / 11.0);
  p = __builtin_fma(p, z, 1.0 / 9.0);
  p = __builtin_fma(p, z, 1.0 / 7.0);
  p = __builtin_fma(p, z, 1.0 / 5.0);
  p = __builtin_fma(p, z, 1.0 / 3.0);
  double twoS = 2.0 * s;
  return __builtin_fma(twoS * z, p, twoS);
}

// x = 2^*e * m, m in [sqrt(1/2), sqrt(2)), for a finite x > 0 that came
// from a float (so a normal double).
static inline double __pmx_logf_split(double x, __private double *e) {
  ulong bits = as_ulong(x);
  int ex = (int)(bits >> 52) - 1023;
  double m = as_double((bits & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
  if (m > 0x1.6a09e667f3bcdp+0) {
    m *= 0.5;
    ex += 1;
  }
  *e = (double)ex;
  return m;
}

#endif // POLYMUX_EXP_LOG_H
