// erf, erfc, tgamma, lgamma and lgamma_r (OpenCL C 3.0, 6.15.2), float and
// double, scalars and vectors (lgamma_r's sign pointer in every address
// space). float is computed in double and rounded once: tgamma and lgamma
// through the double functions, erf and erfc in plain double of their own
// (below).
//
// Methods (double):
//  - erf, |x| < 1: the Taylor series x (2/sqrt(pi)) (1 + x^2 P(x^2)), with
//    P's coefficients (-1)^n / (n! (2n+1)) (22 terms, exact-rational values
//    rounded to double). erfc(x) = 1 - erf(x) there, the leading 1 - 2x/sqrt(pi)
//    in double-double so that the cancellation near x = 1 costs ~1 ulp.
//  - erfc, x >= 1: exp(-x^2) / sqrt(pi) times Laplace's continued fraction
//    1 / (x + (1/2) / (x + 1 / (x + (3/2) / ...))), evaluated bottom-up with a
//    depth chosen per range so that the truncation error is below 1e-17
//    (checked against mpmath). exp(-x^2) is taken of the exact double-double
//    square, so the large exponent does not amplify its rounding. erf(x) =
//    1 - erfc(x) there; negative arguments by symmetry.
//  - lgamma, x > 0: shifted up to z = x + n >= 12 by the recurrence (the
//    product x (x+1) ... in double-double), then Stirling's series
//    (z - 1/2) log z - z + log(2 pi) / 2 + sum B_2k / (2k (2k-1) z^(2k-1)),
//    with log in double-double (__pmx_log_dd, math/exp_log.cl).
//    Negative x by the reflection log(pi / |sin(pi x)|) - lgamma(1 - x),
//    sin(pi x) from sinpi (math/trig.cl, exact reduction).
//  - tgamma = +-exp(lgamma) with the exponential taken of the double-double
//    lgamma (__pmx_exp_dd, math/exp_log.cl): a few ulp.
#include "pmx_exp_log.h"
#include "pmx_misc.h"

#define PMX_2_SQRTPI_HI 0x1.20dd750429b6dp+0
#define PMX_2_SQRTPI_LO 0x1.1ae3a914fed80p-56
#define PMX_HALF_LOG_2PI_HI 0x1.d67f1c864beb5p-1
#define PMX_HALF_LOG_2PI_LO -0x1.65b5a1b7ff5dfp-55
#define PMX_LOG_PI_HI 0x1.250d048e7a1bdp+0
#define PMX_LOG_PI_LO 0x1.7abf2ad8d5088p-57
#define PMX_INV_SQRTPI 0x1.20dd750429b6dp-1

// (-1)^n / (n! (2n + 1)), n = 1..30: the double erf uses 21 of them (|x| <
// 1), the float one all 30 (|x| < 2).
__constant double __pmx_erf_coeffs[30] = {
    -0x1.5555555555555p-2,   0x1.999999999999ap-4,  -0x1.8618618618618p-6,  0x1.2f684bda12f68p-8,
    -0x1.8d3018d3018d3p-11,  0x1.c01c01c01c01cp-14, -0x1.bbd779334ef0bp-17, 0x1.87a00187a0018p-20,
    -0x1.3777c55568ccdp-23,  0x1.c2e3054870b38p-27, -0x1.2b67310aa9f3ap-30, 0x1.6f448e13e85e1p-34,
    -0x1.a289ee7e40f74p-38,  0x1.bd577e658d020p-42, -0x1.bc6250fb14231p-46, 0x1.a173a167fba4dp-50,
    -0x1.7271cbe5863ecp-54,  0x1.377c2110f2083p-58, -0x1.f1b4073b34a68p-63, 0x1.7abd72258fb6ep-67,
    -0x1.13246abce1bddp-71,  0x1.7e6b81382cd42p-76, -0x1.fd6bebd65107ap-81, 0x1.45c0a838efe59p-85,
    -0x1.909c9de3a31c5p-90,  0x1.da7460554e5dbp-95, -0x1.0eef30fa10d2cp-99, 0x1.2ac65385f79acp-104,
    -0x1.3e81bb5701ac5p-109, 0x1.4899fcdef0a8dp-114};

// B_2k / (2k (2k - 1)), k = 1..9: Stirling's series.
__constant double __pmx_stirling_coeffs[9] = {1.0 / 12.0,    -1.0 / 360.0,       1.0 / 1260.0,
                                              -1.0 / 1680.0, 1.0 / 1188.0,       -691.0 / 360360.0,
                                              1.0 / 156.0,   -3617.0 / 122400.0, 43867.0 / 244188.0};

static inline double __pmx_horner(__constant double *c, int n, double x) {
  double p = c[n - 1];
  for (int i = n - 2; i >= 0; --i)
    p = p * x + c[i];
  return p;
}

/// log(a.hi + a.lo) in double-double.
static inline __pmx_dd __pmx_log_of_dd(__pmx_dd a) { return __pmx_dd_add_d(__pmx_log_dd(a.hi), a.lo / a.hi); }

/// lgamma(x) in double-double for x > 0 given as a double-double.
static inline __pmx_dd __pmx_lgamma_pos(__pmx_dd x) {
  if (x.hi < 0x1p-60) { // lgamma(x) = -log(x) - gamma x + ...
    __pmx_dd l = __pmx_log_dd(x.hi);
    return __pmx_dd_make(-l.hi, -l.lo);
  }
  __pmx_dd z = x;
  __pmx_dd prod = __pmx_dd_make(1.0, 0.0);
  bool shifted = false;
  while (z.hi < 12.0) {
    prod = __pmx_dd_mul(prod, z);
    z = __pmx_dd_add_d(z, 1.0);
    shifted = true;
  }
  __pmx_dd lz = __pmx_log_of_dd(z);
  __pmx_dd r;
  if (z.hi >= 0x1p60) {
    // z (log z - 1): the other terms are below an ulp. Plain double, so
    // that an overflow gives inf rather than a double-double NaN.
    r = __pmx_dd_make(z.hi * ((lz.hi - 1.0) + lz.lo), 0.0);
  } else {
    double w = 1.0 / z.hi;
    double series = w * __pmx_horner(__pmx_stirling_coeffs, 9, w * w);
    r = __pmx_dd_mul(__pmx_dd_add_d(z, -0.5), lz);
    r = __pmx_dd_add(r, __pmx_dd_make(-z.hi, -z.lo));
    r = __pmx_dd_add(r, __pmx_dd_make(PMX_HALF_LOG_2PI_HI, PMX_HALF_LOG_2PI_LO));
    r = __pmx_dd_add_d(r, series);
  }
  if (shifted) {
    __pmx_dd lp = __pmx_log_of_dd(prod);
    r = __pmx_dd_add(r, __pmx_dd_make(-lp.hi, -lp.lo));
  }
  return r;
}

/// lgamma(x) in double-double with the sign of gamma(x) in *sign, for a
/// finite x that is not zero or a negative integer.
static inline __pmx_dd __pmx_lgamma_dd(double x, int *sign) {
  *sign = 1;
  if (x > 0.0)
    return __pmx_lgamma_pos(__pmx_dd_make(x, 0.0));
  if (x > -0x1p-60) {
    *sign = -1;
    __pmx_dd l = __pmx_log_dd(-x);
    return __pmx_dd_make(-l.hi, -l.lo);
  }
  // gamma(x) = pi / (sin(pi x) gamma(1 - x)).
  double s = sinpi(x);
  *sign = s < 0.0 ? -1 : 1;
  __pmx_dd lg = __pmx_lgamma_pos(__pmx_two_sum(1.0, -x));
  __pmx_dd ls = __pmx_log_dd(__builtin_fabs(s));
  __pmx_dd r = __pmx_dd_make(PMX_LOG_PI_HI, PMX_LOG_PI_LO);
  r = __pmx_dd_add(r, __pmx_dd_make(-ls.hi, -ls.lo));
  return __pmx_dd_add(r, __pmx_dd_make(-lg.hi, -lg.lo));
}

static inline bool __pmx_is_nonpositive_integer(double x) { return x <= 0.0 && __builtin_trunc(x) == x; }

// lgamma, lgamma_r ------------------------------------------------------------------

PMX_OVERLOAD double lgamma_r(double x, __generic int *signp) {
  if (__pmx_isnan(x)) {
    *signp = 0;
    return x;
  }
  if (__pmx_isinf(x)) {
    *signp = 1;
    return __builtin_inf();
  }
  if (x == 0.0) {
    *signp = as_ulong(x) >> 63 ? -1 : 1;
    return __builtin_inf();
  }
  if (__pmx_is_nonpositive_integer(x)) {
    *signp = 0;
    return __builtin_inf();
  }
  if (x == 1.0 || x == 2.0) { // C99 F.9.5.3: exactly +0
    *signp = 1;
    return 0.0;
  }
  int sign;
  __pmx_dd r = __pmx_lgamma_dd(x, &sign);
  *signp = sign;
  return r.hi + r.lo;
}
PMX_OVERLOAD float lgamma_r(float x, __generic int *signp) { return (float)lgamma_r((double)x, signp); }
PMX_OVERLOAD double lgamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}
PMX_OVERLOAD float lgamma(float x) {
  int sign;
  return (float)lgamma_r((double)x, &sign);
}
PMX_MISC_VEC_1(lgamma)
PMX_FORWARD_1P(double, lgamma_r, double, int)
PMX_FORWARD_1P(float, lgamma_r, float, int)
PMX_LANEWISE_1P(double, lgamma_r, double, int)
PMX_LANEWISE_1P(float, lgamma_r, float, int)

// tgamma -----------------------------------------------------------------------------

PMX_OVERLOAD double tgamma(double x) {
  if (__pmx_isnan(x))
    return x;
  if (x == 0.0)
    return 1.0 / x; // +-inf
  if (__pmx_isinf(x))
    return x > 0.0 ? x : __builtin_nan("");
  if (__pmx_is_nonpositive_integer(x))
    return __builtin_nan("");
  if (x > 171.7)
    return __builtin_inf();
  if (__builtin_fabs(x) < 0x1p-54)
    return 1.0 / x; // gamma(x) = 1/x - gamma_E + ...: the rest is below an ulp
  if (x < -184.0)   // |gamma(x)| < 2^-1075
    return sinpi(x) < 0.0 ? -0.0 : 0.0;
  int sign;
  __pmx_dd lg = __pmx_lgamma_dd(x, &sign);
  double r = __pmx_exp_dd(lg.hi, lg.lo);
  return sign < 0 ? -r : r;
}
PMX_FLOAT_VIA_DOUBLE_1(tgamma)
PMX_MISC_VEC_1(tgamma)

// erf, erfc ----------------------------------------------------------------------------

/// erfc(x) exp(x^2) sqrt(pi) = 1 / (x + (1/2) / (x + 1 / (x + ...))), x >= 1.
static inline double __pmx_erfc_cf(double x) {
  int n = x < 1.25  ? 220
          : x < 1.5 ? 148
          : x < 2.0 ? 106
          : x < 2.5 ? 66
          : x < 3.0 ? 48
          : x < 4.0 ? 38
          : x < 6.0 ? 28
                    : 20;
  double t = x;
  for (int k = n; k > 0; --k)
    t = x + (0.5 * (double)k) / t;
  return 1.0 / t;
}

/// erfc(x) for x >= 1.
static inline double __pmx_erfc_large(double x) {
  if (x > 27.3)
    return 0.0;
  __pmx_dd sq = __pmx_two_prod(x, x);
  double e = __pmx_exp_dd(-sq.hi, -sq.lo);
  return e * (PMX_INV_SQRTPI * __pmx_erfc_cf(x));
}

/// For |x| < 1: 2x/sqrt(pi) in double-double (c) and the rest of erf(x) (t).
static inline __pmx_dd __pmx_erf_small(double x, double *t) {
  __pmx_dd c = __pmx_two_prod(PMX_2_SQRTPI_HI, x);
  c.lo = __builtin_fma(PMX_2_SQRTPI_LO, x, c.lo);
  double x2 = x * x;
  *t = c.hi * (x2 * __pmx_horner(__pmx_erf_coeffs, 21, x2));
  return c;
}

PMX_OVERLOAD double erf(double x) {
  if (__pmx_isnan(x) || x == 0.0)
    return x;
  double ax = __builtin_fabs(x);
  if (ax < 1.0) {
    double t;
    __pmx_dd c = __pmx_erf_small(x, &t);
    return c.hi + (c.lo + t);
  }
  double r = ax >= 6.0 ? 1.0 : 1.0 - __pmx_erfc_large(ax);
  return copysign(r, x);
}

PMX_OVERLOAD double erfc(double x) {
  if (__pmx_isnan(x))
    return x;
  double ax = __builtin_fabs(x);
  if (ax < 1.0) {
    double t;
    __pmx_dd c = __pmx_erf_small(x, &t);
    return (1.0 - c.hi) - (c.lo + t);
  }
  if (x < 0.0)
    return ax >= 6.0 ? 2.0 : 2.0 - __pmx_erfc_large(ax);
  return __pmx_erfc_large(x);
}
// float erf and erfc need neither double-double nor the long fractions of
// the double ones: plain double with a relative error below 2^-36, rounded
// once (checked against mpmath; the spec allows 16 ulp).
//  - |x| < 2: the Taylor series to n = 30 (truncation below 2^-50; the
//    alternating sum loses at most 4 bits at x = 2). erfc = 1 - erf there:
//    at worst 2^-42 relative (erfc(2) = 0.0047).
//  - x >= 2: exp(-x^2) / sqrt(pi) times the continued fraction to depth 28
//    (below 2^-36 at x = 2, less beyond); x^2 is exact for a float x. The
//    fraction is evaluated forward, as its 28th convergent's numerator over
//    its denominator: one division instead of 28 (a GPU divides doubles
//    slowly). Every term of both recurrences is positive, so each step adds
//    at most an ulp of relative error: below 2^-47 in all, and the values
//    stay below 11^29.

// erf(x) for |x| < 2.
static inline double __pmx_erff_series(double x) {
  double z = x * x;
  return PMX_2_SQRTPI_HI * x * __builtin_fma(z, __pmx_horner(__pmx_erf_coeffs, 30, z), 1.0);
}

// erfc(x) for 2 <= x <= 11.
static inline double __pmx_erfcf_fraction(double x) {
  // x + (1/2) / (x + (2/2) / (x + ... (28/2) / x)) = h / q, with
  // h_k = x h_(k-1) + (k/2) h_(k-2) from h_-1 = 1, h_0 = x, and q alike
  // from q_-1 = 0, q_0 = 1.
  double h = x, hPrevious = 1.0, q = 1.0, qPrevious = 0.0;
  for (int k = 1; k <= 28; ++k) {
    double a = 0.5 * (double)k;
    double hNext = __builtin_fma(x, h, a * hPrevious);
    double qNext = __builtin_fma(x, q, a * qPrevious);
    hPrevious = h;
    h = hNext;
    qPrevious = q;
    q = qNext;
  }
  return __pmx_expf_kernel(-(x * x)) * (PMX_INV_SQRTPI * q / h);
}

PMX_OVERLOAD float erf(float x) {
  if (x != x)
    return x;
  // A zero keeps its sign. Not `return x`: a device that flushes float
  // denormals (an H100) takes a denormal x for a zero here, and erf(x) is
  // 1.13 x, not x.
  if (x == 0.0f)
    return __builtin_copysign(0.0f, x);
  double ax = __builtin_fabs((double)x);
  if (ax >= 3.92)
    return __builtin_copysign(1.0f, x); // erfc(3.92) < 2^-26: rounds to 1
  double r = ax < 2.0 ? __pmx_erff_series(ax) : 1.0 - __pmx_erfcf_fraction(ax);
  return (float)__builtin_copysign(r, (double)x);
}

PMX_OVERLOAD float erfc(float x) {
  if (x != x)
    return x;
  double d = (double)x;
  if (d > 11.0)
    return 0.0f; // erfc(11) < 2^-178
  if (d <= -3.92)
    return 2.0f; // 2 - erfc(3.92) rounds to 2
  if (__builtin_fabs(d) < 2.0)
    return (float)(1.0 - __pmx_erff_series(d));
  if (d < 0.0)
    return (float)(2.0 - __pmx_erfcf_fraction(-d));
  return (float)__pmx_erfcf_fraction(d);
}
PMX_MISC_VEC_1(erf)
PMX_MISC_VEC_1(erfc)
