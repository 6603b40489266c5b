// Private helpers of the trigonometric builtins (math/trig.cl): argument
// reduction modulo pi/2 for every finite double, and the sin/cos kernels on
// [-pi/4, pi/4] that take and return double-doubles.
//
// Reduction: x = q * pi/2 + r, |r| <= pi/4 (plus a hair), r as a double-double.
//  - |x| <= pi/4: r = x.
//  - |x| < 2^20: Cody-Waite with pi/2 = P1 + P2 + P3 (159 bits). k * P1 is
//    subtracted with one fma, exactly (x and k * P1 are multiples of 2^-52
//    and the difference is below 2), k * P2 exactly with two_prod, k * P3
//    rounded: the error is below 2^-130 while |r| > 2^-61 for every double.
//  - larger: Payne-Hanek in 64-bit integers. With x = m * 2^e, the bits of
//    2/pi that make m * 2^e * 2/pi a multiple of 4 are skipped, a 192-bit
//    window of the following bits is multiplied by m exactly (a 245-bit
//    product), whose top bits are the quadrant and the next 128 the fraction;
//    the neglected tail of 2/pi contributes below 2^-137.
// Kernels: Taylor series (coefficients 1/n! rounded to nearest), truncated
// where the next term is below 2^-62 relative on [-pi/4, pi/4]; the low part
// of r enters to first order. Each kernel is good to about 2^-60 relative, so
// a result rounded from it is within about 0.55 ulp.
#ifndef POLYMUX_TRIG_H
#define POLYMUX_TRIG_H

#include "pmx_math.h"

/// The bits of 2/pi after the binary point, 64 per word, most significant
/// first, preceded by one zero word (the window may start before the binary
/// point). Derived with mpmath at 1600 bits of precision:
///   f = 2/pi; for 19 words: f *= 2**64; w = floor(f); f -= w
static __constant ulong __pmx_two_over_pi_bits[20] = {
    0x0000000000000000UL, 0xa2f9836e4e441529UL, 0xfc2757d1f534ddc0UL, 0xdb6295993c439041UL, 0xfe5163abdebbc561UL,
    0xb7246e3a424dd2e0UL, 0x06492eea09d1921cUL, 0xfe1deb1cb129a73eUL, 0xe88235f52ebb4484UL, 0xe99c7026b45f7e41UL,
    0x3991d639835339f4UL, 0x9c845f8bbdf9283bUL, 0x1ff897ffde05980fUL, 0xef2f118b5a0a6d1fUL, 0x6d367ecf27cb09b7UL,
    0x4f463f669e5fea2dUL, 0x7527bac7ebe5f17bUL, 0x3d0739f78a5292eaUL, 0x6bfb5fb11f8d5d08UL, 0x56033046fc7b6babUL};

// pi/2 = P1 + P2 + P3 (each the nearest double to what remains; mpmath).
#define PMX_PIO2_1 0x1.921fb54442d18p+0
#define PMX_PIO2_2 0x1.1a62633145c07p-54
#define PMX_PIO2_3 -0x1.f1976b7ed8fbcp-110
// Double-double constants (hi, lo nearest doubles; mpmath).
#define PMX_PI_HI 0x1.921fb54442d18p+1
#define PMX_PI_LO 0x1.1a62633145c07p-53
#define PMX_PIO2_HI 0x1.921fb54442d18p+0
#define PMX_PIO2_LO 0x1.1a62633145c07p-54
#define PMX_TWO_OVER_PI 0x1.45f306dc9c883p-1

typedef struct {
  __pmx_dd r; // x - q * pi/2
  int q;      // quadrant, mod 4
} __pmx_trig_reduced;

/// Payne-Hanek for finite |x| >= 2^20 (any exponent up to DBL_MAX's).
static inline __pmx_trig_reduced __pmx_reduce_huge(double x) {
  ulong bits = as_ulong(x);
  int e = (int)((bits >> 52) & 0x7ff) - 1075; // x = m * 2^e
  ulong m = (bits & 0xfffffffffffffUL) | 0x10000000000000UL;
  // Fraction bit k (weight 2^-k) of 2/pi sits at table bit k + 63; the first
  // bit that matters is k = e - 1.
  int g = e - 1 + 63;
  int w = g >> 6, s = g & 63;
  ulong t0 = __pmx_two_over_pi_bits[w], t1 = __pmx_two_over_pi_bits[w + 1];
  ulong t2 = __pmx_two_over_pi_bits[w + 2], t3 = __pmx_two_over_pi_bits[w + 3];
  ulong w0 = t0, w1 = t1, w2 = t2;
  if (s) {
    w0 = (t0 << s) | (t1 >> (64 - s));
    w1 = (t1 << s) | (t2 >> (64 - s));
    w2 = (t2 << s) | (t3 >> (64 - s));
  }
  // m * (w0:w1:w2) = (.. : r1 : r2 : r3); the value is that times 2^-190.
  ulong r3 = m * w2;
  ulong r2 = mul_hi(m, w2);
  ulong lo1 = m * w1;
  r2 += lo1;
  ulong carry = r2 < lo1 ? 1UL : 0UL;
  ulong r1 = mul_hi(m, w1) + m * w0 + carry;
  int q = (int)(r1 >> 62);
  // The fraction, 2^-64-weighted words a:b:c.
  ulong a = (r1 << 2) | (r2 >> 62);
  ulong b = (r2 << 2) | (r3 >> 62);
  ulong c = r3 << 2;
  bool negative = (a >> 63) != 0;
  if (negative) {
    // fraction - 1: the 192-bit two's complement gives its magnitude.
    q += 1;
    c = ~c + 1;
    b = ~b + (c == 0 ? 1UL : 0UL);
    a = ~a + ((c == 0 && b == 0) ? 1UL : 0UL);
  }
  int scale = 0;
  if (a == 0) { // |fraction| < 2^-64 (never below 2^-63 for a double x)
    a = b;
    b = c;
    c = 0;
    scale = -64;
  }
  int lz = (int)clz(a);
  if (lz) {
    a = (a << lz) | (b >> (64 - lz));
    b = (b << lz) | (c >> (64 - lz));
  }
  scale -= lz;
  // a * 2^-64 + b * 2^-128 as a double-double: top 53 bits exactly, the rest
  // rounded (relative 2^-106).
  double hi = (double)(a >> 11) * 0x1p-53;
  double lo = (double)(a & 0x7ff) * 0x1p-64 + (double)(b >> 11) * 0x1p-117;
  __pmx_dd f = __pmx_fast_two_sum(hi, lo);
  double sc = as_double((ulong)(1023 + scale) << 52);
  f.hi *= sc;
  f.lo *= sc;
  __pmx_dd r = __pmx_dd_mul(f, __pmx_dd_make(PMX_PIO2_HI, PMX_PIO2_LO));
  if (negative) {
    r.hi = -r.hi;
    r.lo = -r.lo;
  }
  if (x < 0) {
    r.hi = -r.hi;
    r.lo = -r.lo;
    q = -q;
  }
  __pmx_trig_reduced out = {r, q & 3};
  return out;
}

/// x = q * pi/2 + r (r a double-double, q = *q mod 4) for |x| < 2^20:
/// Cody-Waite with pi/2 in three parts, the first two products exact.
static inline __pmx_dd __pmx_cody_waite(double x, __private int *q) {
  double k = __builtin_rint(x * PMX_TWO_OVER_PI);
  double r1 = PMX_FMA_EXACT(-k, PMX_PIO2_1, x); // exact
  __pmx_dd t = __pmx_two_prod(k, PMX_PIO2_2);   // exact
  __pmx_dd s = __pmx_two_sum(r1, -t.hi);
  double lo = (s.lo - t.lo) - k * PMX_PIO2_3;
  *q = (int)k & 3;
  return __pmx_two_sum(s.hi, lo);
}

/// x = q * pi/2 + r for finite x.
static inline __pmx_trig_reduced __pmx_trig_reduce(double x) {
  double ax = __builtin_fabs(x);
  if (ax <= 0x1.921fb54442d18p-1) {
    __pmx_trig_reduced out = {__pmx_dd_make(x, 0.0), 0};
    return out;
  }
  if (ax < 0x1p20) {
    __pmx_trig_reduced out;
    out.r = __pmx_cody_waite(x, &out.q);
    return out;
  }
  return __pmx_reduce_huge(x);
}

/// sin(r) for |r| <= ~pi/4, as a double-double.
static inline __pmx_dd __pmx_sin_kernel(__pmx_dd r) {
  double x = r.hi;
  double z = x * x;
  // sin(x) = x + x^3 * S(z), S(z) = -1/3! + z/5! - ... + z^7/17!
  double s =
      -0x1.5555555555555p-3 +
      z * (0x1.1111111111111p-7 +
           z * (-0x1.a01a01a01a01ap-13 +
                z * (0x1.71de3a556c734p-19 +
                     z * (-0x1.ae64567f544e4p-26 +
                          z * (0x1.6124613a86d09p-33 + z * (-0x1.ae7f3e733b81fp-41 + z * 0x1.952c77030ad4ap-49))))));
  // sin(x + l) ~ sin(x) + l * cos(x), cos(x) ~ 1 - z/2 is enough for l.
  double tail = (x * z) * s + r.lo * (1.0 - 0.5 * z);
  return __pmx_fast_two_sum(x, tail);
}

/// cos(r) for |r| <= ~pi/4, as a double-double.
static inline __pmx_dd __pmx_cos_kernel(__pmx_dd r) {
  double x = r.hi;
  double z = x * x;
  double zl = PMX_FMA_EXACT(x, x, -z); // x^2 = z + zl exactly
  // cos(x) = 1 - z/2 + z^2 * C(z), C(z) = 1/4! - z/6! + ... + z^7/18!
  double c =
      0x1.5555555555555p-5 +
      z * (-0x1.6c16c16c16c17p-10 +
           z * (0x1.a01a01a01a01ap-16 +
                z * (-0x1.27e4fb7789f5cp-22 +
                     z * (0x1.1eed8eff8d898p-29 +
                          z * (-0x1.93974a8c07c9dp-37 + z * (0x1.ae7f3e733b81fp-45 - z * 0x1.6827863b97d97p-53))))));
  double hz = 0.5 * z;
  double w = 1.0 - hz;         // hz <= 0.31: 1 - w is exact
  double err = (1.0 - w) - hz; // the rounding error of w, exactly
  // cos(x + l) ~ cos(x) - l * sin(x), sin(x) ~ x is enough for l.
  double tail = err + (((z * z) * c - 0.5 * zl) - x * r.lo);
  return __pmx_fast_two_sum(w, tail);
}

/// a / b rounded, for double-doubles (good to about 2^-104 before rounding).
static inline double __pmx_dd_div_round(__pmx_dd a, __pmx_dd b) {
  double q = a.hi / b.hi;
  double rem = (PMX_FMA_EXACT(-q, b.hi, a.hi) + a.lo) - q * b.lo;
  return q + rem / b.hi;
}

#endif // POLYMUX_TRIG_H
