// asin, acos, atan, atan2, asinpi, acospi, atanpi, atan2pi (OpenCL C 3.0
// 6.15.2) for float and double, scalar and vector.
//
// double: everything goes through one double-double core, the angle of the
// point (x, y) with x, y >= 0:
//   t = min/max (a double-double quotient, t in [0, 1]);
//   atan(t) = atan(c) + atan(u), c = k/16 nearest t, u = (t - c)/(1 + t c)
//   (double-double), |u| <= 1/32; atan(c) from a double-double table and
//   atan(u) = u - u^3/3 + ... - u^11/11 (truncation < 2^-63 relative);
//   then pi/2 - a when y > x, pi - a for x < 0 (double-double).
// asin(x) = angle(sqrt(1 - x^2), |x|), acos(x) = angle(|x|, sqrt(1 - x^2))
// (mirrored for x < 0), with 1 - x^2 = (1 - x)(1 + x) and the square root in
// double-double, so nothing cancels near |x| = 1. The *pi variants multiply
// the angle by 1/pi (double-double) before the pi/2 and pi reflections, which
// become 1/2 and 1. Everything rounds once at the end: ~0.5 ulp against the
// spec's 4 (asin, acos), 5 (atan, *pi) and 6 (atan2, atan2pi).
// Special values follow C99 Annex F and OpenCL C 7.5.1 (the atan2 table with
// signed zeros and infinities is handled before the core).
// float: plain double of its own, rounded once (below).
#include "pmx_math.h"

#define PMX_PI_HI 0x1.921fb54442d18p+1
#define PMX_PI_LO 0x1.1a62633145c07p-53
#define PMX_PIO2_HI 0x1.921fb54442d18p+0
#define PMX_PIO2_LO 0x1.1a62633145c07p-54
#define PMX_INV_PI_HI 0x1.45f306dc9c883p-2
#define PMX_INV_PI_LO -0x1.6b01ec5417056p-56
#define PMX_PIO4 0x1.921fb54442d18p-1
#define PMX_3PIO4 0x1.2d97c7f3321d2p+1

/// atan(k/16), k = 0..16, as hi + lo (nearest doubles; mpmath at 300 bits).
__constant double __pmx_atan_k16_hi[17] = {
    0.0,
    0x1.ff55bb72cfdeap-5,
    0x1.fd5ba9aac2f6ep-4,
    0x1.7b97b4bce5b02p-3,
    0x1.f5b75f92c80ddp-3,
    0x1.362773707ebccp-2,
    0x1.6f61941e4def1p-2,
    0x1.a64eec3cc23fdp-2,
    0x1.dac670561bb4fp-2,
    0x1.0657e94db30d0p-1,
    0x1.1e00babdefeb4p-1,
    0x1.345f01cce37bbp-1,
    0x1.4978fa3269ee1p-1,
    0x1.5d58987169b18p-1,
    0x1.700a7c5784634p-1,
    0x1.819d0b7158a4dp-1,
    0x1.921fb54442d18p-1,
};
__constant double __pmx_atan_k16_lo[17] = {
    0.0,
    -0x1.c934d86d23f1dp-60,
    -0x1.cd37686760c17p-59,
    0x1.347b0b4f881cap-58,
    0x1.8ab6e3cf7afbdp-57,
    -0x1.963a544b672d8p-57,
    -0x1.c63aae6f6e918p-56,
    -0x1.24dec1b50b7ffp-56,
    0x1.a2b7f222f65e2p-56,
    -0x1.d5b495f6349e6p-56,
    -0x1.928df287a668fp-58,
    0x1.1021137c71102p-55,
    0x1.2419a87f2a458p-56,
    0x1.0028e4bc5e7cap-57,
    -0x1.8c34d25aadef6p-56,
    -0x1.bf76229d3b917p-56,
    0x1.1a62633145c07p-55,
};

static inline __pmx_dd __pmx_dd_neg(__pmx_dd a) { return __pmx_dd_make(-a.hi, -a.lo); }

/// atan(t) for a double-double t in [0, 1].
static inline __pmx_dd __pmx_atan_dd(__pmx_dd t) {
  // Clamped, so that no input (a NaN made by a flushed denormal) can index
  // outside the tables.
  double k = __builtin_fmin(__builtin_fmax(__builtin_rint(t.hi * 16.0), 0.0), 16.0);
  double c = k * 0.0625;
  int i = (int)k;
  __pmx_dd num = __pmx_dd_add_d(t, -c); // t.hi - c is exact (Sterbenz or c = 0)
  __pmx_dd den = __pmx_dd_add_d(__pmx_dd_mul_d(t, c), 1.0);
  __pmx_dd u = __pmx_dd_div(num, den);
  double x = u.hi, z = x * x;
  double p = (x * z) * (-0x1.5555555555555p-2 +
                        z * (0x1.999999999999ap-3 +
                             z * (-0x1.2492492492492p-3 + z * (0x1.c71c71c71c71cp-4 - z * 0x1.745d1745d1746p-4))));
  __pmx_dd s = __pmx_two_sum(__pmx_atan_k16_hi[i], x);
  double lo = ((__pmx_atan_k16_lo[i] + u.lo) + p) + s.lo;
  return __pmx_fast_two_sum(s.hi, lo);
}

static inline __pmx_dd __pmx_dd_sqrt(__pmx_dd a) {
  double s = __builtin_sqrt(a.hi);
  if (s == 0.0)
    return __pmx_dd_make(s, 0.0);
  double e = (PMX_FMA_EXACT(-s, s, a.hi) + a.lo) / (2.0 * s);
  return __pmx_fast_two_sum(s, e);
}

/// The angle of (x, y) for x, y >= 0 finite, not both 0, mirrored to
/// pi - angle when xneg; in half-turns (divided by pi) when pi_units.
static inline double __pmx_angle(__pmx_dd y, __pmx_dd x, bool xneg, bool pi_units) {
  bool swap = y.hi > x.hi;
  if (pi_units && !swap && !xneg && y.hi < x.hi * 0x1p-900) {
    // atan(t) = t to far below an ulp, and t/pi may be subnormal: divide
    // 2^200 t by pi (the double-double products stay exact) and scale back
    // with one rounding.
    __pmx_dd t = __pmx_dd_div(__pmx_dd_make(y.hi * 0x1p200, y.lo * 0x1p200), x);
    t = __pmx_dd_mul(t, __pmx_dd_make(PMX_INV_PI_HI, PMX_INV_PI_LO));
    return (t.hi + t.lo) * 0x1p-200;
  }
  __pmx_dd t = swap ? __pmx_dd_div(x, y) : __pmx_dd_div(y, x);
  __pmx_dd a = __pmx_atan_dd(t);
  __pmx_dd quarter_turn = __pmx_dd_make(PMX_PIO2_HI, PMX_PIO2_LO);
  __pmx_dd half_turn = __pmx_dd_make(PMX_PI_HI, PMX_PI_LO);
  if (pi_units) {
    a = __pmx_dd_mul(a, __pmx_dd_make(PMX_INV_PI_HI, PMX_INV_PI_LO));
    quarter_turn = __pmx_dd_make(0.5, 0.0);
    half_turn = __pmx_dd_make(1.0, 0.0);
  }
  if (swap)
    a = __pmx_dd_add(quarter_turn, __pmx_dd_neg(a));
  if (xneg)
    a = __pmx_dd_add(half_turn, __pmx_dd_neg(a));
  return a.hi + a.lo;
}

/// sqrt(1 - x^2) for 0 <= x <= 1 as (1 - x)(1 + x) in double-double.
static inline __pmx_dd __pmx_cos_of_asin(double x) {
  __pmx_dd d = __pmx_dd_mul(__pmx_two_sum(1.0, -x), __pmx_two_sum(1.0, x));
  return __pmx_dd_sqrt(d);
}

static inline double __pmx_asin(double x, bool pi_units) {
  double ax = __builtin_fabs(x);
  if (!(ax <= 1.0))
    return __pmx_isnan(x) ? x : __builtin_nan("");
  return __builtin_copysign(__pmx_angle(__pmx_dd_make(ax, 0.0), __pmx_cos_of_asin(ax), false, pi_units), x);
}

static inline double __pmx_acos(double x, bool pi_units) {
  double ax = __builtin_fabs(x);
  if (!(ax <= 1.0))
    return __pmx_isnan(x) ? x : __builtin_nan("");
  return __pmx_angle(__pmx_cos_of_asin(ax), __pmx_dd_make(ax, 0.0), x < 0.0, pi_units);
}

static inline double __pmx_atan(double x, bool pi_units) {
  double ax = __builtin_fabs(x);
  if (__pmx_isnan(x))
    return x;
  if (ax > 0x1p60) // pi/2 - 1/x rounds to pi/2 (or 1/2)
    return __builtin_copysign(pi_units ? 0.5 : PMX_PIO2_HI, x);
  return __builtin_copysign(__pmx_angle(__pmx_dd_make(ax, 0.0), __pmx_dd_make(1.0, 0.0), false, pi_units), x);
}

static inline double __pmx_atan2(double y, double x, bool pi_units) {
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return x + y;
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  bool xneg = __builtin_signbit(x);
  double pi = pi_units ? 1.0 : PMX_PI_HI;
  double pio2 = pi_units ? 0.5 : PMX_PIO2_HI;
  if (ay == 0.0) // atan2(+-0, +0 or x > 0) = +-0, atan2(+-0, -0 or x < 0) = +-pi
    return __builtin_copysign(xneg ? pi : 0.0, y);
  if (ax == 0.0)
    return __builtin_copysign(pio2, y);
  if (ax == __builtin_inf()) {
    if (ay == __builtin_inf())
      return __builtin_copysign(xneg ? (pi_units ? 0.75 : PMX_3PIO4) : (pi_units ? 0.25 : PMX_PIO4), y);
    return __builtin_copysign(xneg ? pi : 0.0, y);
  }
  if (ay == __builtin_inf())
    return __builtin_copysign(pio2, y);
  if (__builtin_fmin(ax, ay) < 0x1p-900 && __builtin_fmax(ax, ay) < 0x1p400) {
    // Keep the quotient's residual (an fma) out of the subnormal range; a
    // larger max gives a ratio below 2^-1300, where nothing is lost.
    ax *= 0x1p600;
    ay *= 0x1p600;
  }
  return __builtin_copysign(__pmx_angle(__pmx_dd_make(ay, 0.0), __pmx_dd_make(ax, 0.0), xneg, pi_units), y);
}

PMX_OVERLOAD double asin(double x) { return __pmx_asin(x, false); }
PMX_OVERLOAD double acos(double x) { return __pmx_acos(x, false); }
PMX_OVERLOAD double atan(double x) {
  if (__builtin_fabs(x) < 0x1p-27) // atan(x) = x to within x^3/3 < ulp(x)/2
    return x;
  return __pmx_atan(x, false);
}
PMX_OVERLOAD double atan2(double y, double x) { return __pmx_atan2(y, x, false); }
PMX_OVERLOAD double asinpi(double x) { return __pmx_asin(x, true); }
PMX_OVERLOAD double acospi(double x) { return __pmx_acos(x, true); }
PMX_OVERLOAD double atanpi(double x) { return __pmx_atan(x, true); }
PMX_OVERLOAD double atan2pi(double y, double x) { return __pmx_atan2(y, x, true); }

// float: plain double, no double-double. The same angle of (x, y), x, y >=
// 0, from t = min/max in [0, 1]: atan(t) = atan(c) + atan(u), c = k/4
// nearest t (atan(c) from a table), u = (t - c)/(1 + t c), |u| <= 1/8, and
// atan(u) = u - u^3/3 + ... + u^17/17 (truncation below 2^-55 relative);
// t - c is exact and the sum at most halves. asin and acos take sqrt(1 - x^2)
// with x^2 exact for a float x. Relative error below 2^-48 before the one
// rounding to float. Zeros, infinities, NaNs and |x| > 1 go through the
// double functions (their special-value code).
__constant double __pmx_atanf_table[5] = {0.0, 0x1.f5b75f92c80ddp-3, 0x1.dac670561bb4fp-2, 0x1.4978fa3269ee1p-1,
                                          0x1.921fb54442d18p-1};

// The angle of the point (x, y), x, y >= 0 and not both 0, in [0, pi/2].
static inline double __pmx_anglef(double x, double y) {
  bool steep = y > x;
  double t = steep ? x / y : y / x;
  // Clamped: see __pmx_atan_dd.
  double k = __builtin_fmin(__builtin_fmax(__builtin_rint(4.0 * t), 0.0), 4.0);
  double c = 0.25 * k;
  double u = (t - c) / __builtin_fma(t, c, 1.0);
  double z = u * u;
  double q = 1.0 / 17.0;
  q = __builtin_fma(q, -z, 1.0 / 15.0);
  q = __builtin_fma(q, -z, 1.0 / 13.0);
  q = __builtin_fma(q, -z, 1.0 / 11.0);
  q = __builtin_fma(q, -z, 1.0 / 9.0);
  q = __builtin_fma(q, -z, 1.0 / 7.0);
  q = __builtin_fma(q, -z, 1.0 / 5.0);
  q = __builtin_fma(q, -z, 1.0 / 3.0);
  double a = __pmx_atanf_table[(int)k] + __builtin_fma(-(u * z), q, u);
  return steep ? PMX_PIO2_HI - a : a;
}

static inline bool __pmx_is_finite_nonzero(float x) { return x != 0.0f && __builtin_fabs(x) < __builtin_inff(); }

// Normal and finite: a denormal goes through the double functions too, whose
// zero cases also cover a device that flushes it on the way to double (a
// GPU without float denormals: both operands of atan2 flushed gave 0/0 here,
// and the table index of a NaN hung an H100).
static inline bool __pmx_is_finite_normal(float x) {
  return __builtin_fabs(x) >= 0x1p-126f && __builtin_fabs(x) < __builtin_inff();
}

// asin for |x| < 1, x != 0 (scaled by 1/pi for asinpi).
static inline float __pmx_asinf(float x, bool perPi) {
  double d = (double)x;
  double a = __pmx_anglef(__builtin_sqrt(__builtin_fma(-d, d, 1.0)), __builtin_fabs(d));
  return (float)__builtin_copysign(perPi ? a * PMX_INV_PI_HI : a, d);
}

// acos for |x| < 1 (scaled by 1/pi for acospi).
static inline float __pmx_acosf(float x, bool perPi) {
  double d = (double)x;
  double a = __pmx_anglef(__builtin_fabs(d), __builtin_sqrt(__builtin_fma(-d, d, 1.0)));
  if (d < 0.0)
    a = PMX_PI_HI - a;
  return (float)(perPi ? a * PMX_INV_PI_HI : a);
}

// atan2 for finite non-zero y and x (scaled by 1/pi for atan2pi).
static inline float __pmx_atan2f(float y, float x, bool perPi) {
  double a = __pmx_anglef(__builtin_fabs((double)x), __builtin_fabs((double)y));
  if (x < 0.0f)
    a = PMX_PI_HI - a;
  return (float)__builtin_copysign(perPi ? a * PMX_INV_PI_HI : a, (double)y);
}

PMX_OVERLOAD float asin(float x) {
  if (!(__builtin_fabs(x) < 1.0f) || x == 0.0f)
    return (float)asin((double)x);
  return __pmx_asinf(x, false);
}
PMX_OVERLOAD float asinpi(float x) {
  if (!(__builtin_fabs(x) < 1.0f) || x == 0.0f)
    return (float)asinpi((double)x);
  return __pmx_asinf(x, true);
}
PMX_OVERLOAD float acos(float x) {
  if (!(__builtin_fabs(x) < 1.0f))
    return (float)acos((double)x);
  return __pmx_acosf(x, false);
}
PMX_OVERLOAD float acospi(float x) {
  if (!(__builtin_fabs(x) < 1.0f))
    return (float)acospi((double)x);
  return __pmx_acosf(x, true);
}
PMX_OVERLOAD float atan(float x) {
  if (!__pmx_is_finite_nonzero(x))
    return (float)atan((double)x);
  return __pmx_atan2f(x, 1.0f, false);
}
PMX_OVERLOAD float atanpi(float x) {
  if (!__pmx_is_finite_nonzero(x))
    return (float)atanpi((double)x);
  return __pmx_atan2f(x, 1.0f, true);
}
PMX_OVERLOAD float atan2(float y, float x) {
  if (!__pmx_is_finite_normal(y) || !__pmx_is_finite_normal(x))
    return (float)atan2((double)y, (double)x);
  return __pmx_atan2f(y, x, false);
}
PMX_OVERLOAD float atan2pi(float y, float x) {
  if (!__pmx_is_finite_normal(y) || !__pmx_is_finite_normal(x))
    return (float)atan2pi((double)y, (double)x);
  return __pmx_atan2f(y, x, true);
}

PMX_LANEWISE_1(float, asin, float)
PMX_LANEWISE_1(double, asin, double)
PMX_LANEWISE_1(float, acos, float)
PMX_LANEWISE_1(double, acos, double)
PMX_LANEWISE_1(float, atan, float)
PMX_LANEWISE_1(double, atan, double)
PMX_LANEWISE_1(float, asinpi, float)
PMX_LANEWISE_1(double, asinpi, double)
PMX_LANEWISE_1(float, acospi, float)
PMX_LANEWISE_1(double, acospi, double)
PMX_LANEWISE_1(float, atanpi, float)
PMX_LANEWISE_1(double, atanpi, double)
PMX_LANEWISE_2(float, atan2, float, float)
PMX_LANEWISE_2(double, atan2, double, double)
PMX_LANEWISE_2(float, atan2pi, float, float)
PMX_LANEWISE_2(double, atan2pi, double, double)
