// exp, exp2, exp10, expm1, log, log2, log10, log1p for float and double,
// scalar and vector, and the shared kernels declared in pmx_exp_log.h.
//
// exp (double exp itself, where the result is normal, is a plain-double
// evaluation, below; this double-double kernel serves the rest and exp2,
// exp10, expm1, pow): hi + lo = k*ln2 + r, |r| <= ln2/2 (ln2 in two parts, the first with
// 42 significant bits so that k*ln2_hi is exact for |k| < 2^11), then
// exp(r) = 1 + r + r^2/2 + r^3*P(r) with P the Taylor series to r^14/14!
// (the first omitted term is below 2^-63). 1 + r + r^2/2 is kept exact as a
// double-double, so the mantissa (error < 2^-59) is rounded once: about
// 0.51 ulp, the scaling by 2^k being exact (a result in the denormal range
// is rounded once from the double-double too).
// exp2 and exp10 multiply x by ln2 / ln10 in double-double first. expm1
// subtracts 1 from the double-double 2^k * exp(r) before rounding.
//
// log (the double-double kernel, for log2, log10, log1p and pow; the double
// log itself is one plain-double evaluation, below):
// x = 2^e * m with m in [sqrt(1/2), sqrt(2)), log(m) = 2*atanh(s),
// s = (m-1)/(m+1) (|s| < 0.172, s^2 < 2^-5.08), evaluated in double-double
// as 2s*(1 + z/3 + z^2/5 + z^3/7 + z^4*T(z)), z = s^2, with T(z) = 1/9 +
// z/11 + ... + z^10/29 in double: relative error below 2^-70, which pow
// needs. log(x) = e*ln2 + log(m) in double-double, log2 and log10 scale it
// by double-double constants, log1p(x) = log(hi) + c - c^2/2, c = lo/hi,
// with hi + lo = 1 + x exactly. Their double results are rounded once from
// the double-double (about 0.5 ulp).
//
// The float functions are in float_exp_log.cl: one plain-double evaluation
// is enough for them.
#include "pmx_exp_log.h"

// ln2 in two parts: 42 significant bits, then the rest (mpmath, 300 bits).
#define PMX_LN2_HI42 0x1.62e42fefa3800p-1
#define PMX_LN2_LO42 0x1.ef35793c76730p-45
#define PMX_SQRT2 0x1.6a09e667f3bcdp+0

// 1/3, 1/5, 1/7 as double-doubles (exact rationals rounded twice).
#define PMX_THIRD_HI 0x1.5555555555555p-2
#define PMX_THIRD_LO 0x1.5555555555555p-56
#define PMX_FIFTH_HI 0x1.999999999999ap-3
#define PMX_FIFTH_LO -0x1.999999999999ap-57
#define PMX_SEVENTH_HI 0x1.2492492492492p-3
#define PMX_SEVENTH_LO 0x1.2492492492492p-57

// P(x) with exp(x) = 1 + x + x^2/2 + x^3 * P(x) for |x| <= ln2/2 + 2^-50:
// the Taylor series 1/3! + x/4! + ... + x^11/14! (n! is exact in double).
static inline double __pmx_exp_poly(double x) {
  double p = 1.0 / 87178291200.0;
  p = __builtin_fma(p, x, 1.0 / 6227020800.0);
  p = __builtin_fma(p, x, 1.0 / 479001600.0);
  p = __builtin_fma(p, x, 1.0 / 39916800.0);
  p = __builtin_fma(p, x, 1.0 / 3628800.0);
  p = __builtin_fma(p, x, 1.0 / 362880.0);
  p = __builtin_fma(p, x, 1.0 / 40320.0);
  p = __builtin_fma(p, x, 1.0 / 5040.0);
  p = __builtin_fma(p, x, 1.0 / 720.0);
  p = __builtin_fma(p, x, 1.0 / 120.0);
  p = __builtin_fma(p, x, 1.0 / 24.0);
  p = __builtin_fma(p, x, 1.0 / 6.0);
  return p;
}

__pmx_dd __pmx_exp_core(double hi, double lo, __private int *k) {
  double kd = __builtin_rint(hi * PMX_INV_LN2_HI);
  // r = hi + lo - kd*ln2 as a double-double; kd * PMX_LN2_HI42 is exact.
  __pmx_dd a = __pmx_two_sum(hi, -kd * PMX_LN2_HI42);
  a.lo += lo - kd * PMX_LN2_LO42;
  __pmx_dd r = __pmx_fast_two_sum(a.hi, a.lo);
  double x = r.hi;
  // 1 + x + x^2/2 is summed exactly in double-double, so the error left is
  // that of x^3 * P(x) (< 2^-59, |x^3 P| < 0.0073): expm1 subtracts 1 from
  // the result and needs it.
  __pmx_dd x2 = __pmx_two_prod(x, x);
  double tail = x2.hi * x * __pmx_exp_poly(x);
  __pmx_dd one = __pmx_fast_two_sum(1.0, x);
  __pmx_dd b = __pmx_two_sum(one.hi, 0.5 * x2.hi);
  // exp(x + r.lo) = exp(x) * (1 + r.lo), |r.lo| < 2^-53.
  double small = one.lo + b.lo + (0.5 * x2.lo + tail + r.lo * (1.0 + x + 0.5 * x2.hi));
  *k = (int)kd;
  return __pmx_fast_two_sum(b.hi, small);
}

double __pmx_exp_dd(double hi, double lo) {
  if (__pmx_isnan(hi))
    return hi;
  if (hi > 709.8)
    return __builtin_inf();
  if (hi < -745.2)
    return 0.0;
  int k;
  __pmx_dd m = __pmx_exp_core(hi, lo, &k);
  if (k > -1022) {
    // m * 2^k in two exact steps whose factors are normal for every k here
    // (-1022 < k <= 1025) and m in [0.7, 1.5]: no branch, and no
    // intermediate that underflows (which costs a CPU microcode assist in
    // lanes that do not need the result).
    int first = k >> 1;
    return m.hi * as_double((ulong)(0x3ff + first) << 52) * as_double((ulong)(0x3ff + k - first) << 52);
  }
  // A denormal (or the smallest normal) result: round m * 2^k once, to an
  // integer number n of 2^-1074 quanta. Both scalings are exact (k >= -1076
  // here), |d| < 1, and n * 2^-1074 is representable.
  double h = m.hi * as_double((ulong)(0x3ff + k + 1074) << 52);
  double l = m.lo * as_double((ulong)(0x3ff + k + 1074) << 52);
  double n = __builtin_rint(h);
  double d = (h - n) + l;
  bool odd = __builtin_rint(n * 0.5) != n * 0.5;
  if (d > 0.5 || (d == 0.5 && odd))
    n += 1.0;
  else if (d < -0.5 || (d == -0.5 && odd))
    n -= 1.0;
  return n * 0x1p-1074;
}

// m with x = 2^*e * m, m in [sqrt(1/2), sqrt(2)), for x finite and > 0
// (denormals included).
static inline double __pmx_log_reduce(double x, __private int *e) {
  int bias = 1023;
  if (x < 0x1p-1022) {
    x *= 0x1p54;
    bias += 54;
  }
  ulong bits = as_ulong(x);
  int ex = (int)(bits >> 52) - bias;
  double m = as_double((bits & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
  if (m > PMX_SQRT2) {
    m *= 0.5;
    ex += 1;
  }
  *e = ex;
  return m;
}

// log(m) for x = 2^*e * m, m in [sqrt(1/2), sqrt(2)), x finite and > 0.
static __pmx_dd __pmx_log_parts(double x, __private int *e) {
  double m = __pmx_log_reduce(x, e);
  double f = m - 1.0; // exact (Sterbenz)
  if (f == 0.0)
    return __pmx_dd_make(0.0, 0.0);
  __pmx_dd s = __pmx_dd_div(__pmx_dd_make(f, 0.0), __pmx_two_sum(m, 1.0));
  __pmx_dd z = __pmx_dd_mul(s, s);
  double zh = z.hi;
  double t = 1.0 / 29.0;
  t = __builtin_fma(t, zh, 1.0 / 27.0);
  t = __builtin_fma(t, zh, 1.0 / 25.0);
  t = __builtin_fma(t, zh, 1.0 / 23.0);
  t = __builtin_fma(t, zh, 1.0 / 21.0);
  t = __builtin_fma(t, zh, 1.0 / 19.0);
  t = __builtin_fma(t, zh, 1.0 / 17.0);
  t = __builtin_fma(t, zh, 1.0 / 15.0);
  t = __builtin_fma(t, zh, 1.0 / 13.0);
  t = __builtin_fma(t, zh, 1.0 / 11.0);
  t = __builtin_fma(t, zh, 1.0 / 9.0);
  // Horner in double-double for the terms that need more than 53 bits.
  __pmx_dd acc = __pmx_dd_add(__pmx_dd_make(PMX_SEVENTH_HI, PMX_SEVENTH_LO), __pmx_dd_mul_d(z, t));
  acc = __pmx_dd_add(__pmx_dd_make(PMX_FIFTH_HI, PMX_FIFTH_LO), __pmx_dd_mul(z, acc));
  acc = __pmx_dd_add(__pmx_dd_make(PMX_THIRD_HI, PMX_THIRD_LO), __pmx_dd_mul(z, acc));
  acc = __pmx_dd_add_d(__pmx_dd_mul(z, acc), 1.0);
  __pmx_dd r = __pmx_dd_mul(s, acc);
  return __pmx_dd_make(2.0 * r.hi, 2.0 * r.lo);
}

__pmx_dd __pmx_log_dd(double x) {
  int e;
  __pmx_dd l = __pmx_log_parts(x, &e);
  if (e == 0)
    return l;
  __pmx_dd el = __pmx_dd_mul_d(__pmx_dd_make(PMX_LN2_HI, PMX_LN2_LO), (double)e);
  return __pmx_dd_add(el, l);
}

__pmx_dd __pmx_log1p_dd(__pmx_dd u) {
  __pmx_dd v = __pmx_two_sum(1.0, u.hi);
  v.lo += u.lo;
  v = __pmx_fast_two_sum(v.hi, v.lo);
  // log(v.hi + v.lo) = log(v.hi) + c - c^2/2 + ..., c = v.lo/v.hi, |c| <=
  // 2^-53. When v.hi is within a few ulps of 1 the two terms nearly cancel,
  // so c is a double-double and c^2/2 is kept.
  double c = v.lo / v.hi;
  double cl = PMX_FMA_EXACT(-c, v.hi, v.lo) / v.hi;
  __pmx_dd corr = __pmx_fast_two_sum(c, cl - 0.5 * c * c);
  return __pmx_dd_add(__pmx_log_dd(v.hi), corr);
}

// NaN for a NaN or negative x, -inf for ±0, +inf for +inf; 0 otherwise
// (the caller goes on with a finite x > 0).
static inline double __pmx_log_special(double x, __private bool *done) {
  *done = true;
  if (__pmx_isnan(x))
    return x;
  if (x == 0.0)
    return -__builtin_inf();
  if (x < 0.0)
    return __builtin_nan("");
  if (x == __builtin_inf())
    return x;
  *done = false;
  return 0.0;
}

// exp(x) in plain double where the result is normal: the reduction of
// the float functions (__pmx_exp_reduce), then the Taylor series to
// r^14/14! (__pmx_exp_poly and its last three terms) by Horner's rule in
// double, within about 1.2 ulp (OpenCL allows 3; the double-double kernel's
// 0.51 ulp costs twice the time). NaN, overflow and denormal results take
// that kernel, which rounds them once.
PMX_OVERLOAD double exp(double x) {
  if (!(x > -708.0 && x < 709.0))
    return __pmx_exp_dd(x, 0.0);
  double k;
  double r = __pmx_exp_reduce(x, &k);
  double p = __builtin_fma(__pmx_exp_poly(r), r, 0.5);
  p = __builtin_fma(p, r, 1.0);
  p = __builtin_fma(p, r, 1.0);
  // -1021 <= k <= 1023: 2^k is a normal double.
  return p * as_double((ulong)((long)k + 1023) << 52);
}

PMX_OVERLOAD double exp2(double x) {
  if (__pmx_isnan(x))
    return x;
  if (x > 1025.0)
    return __builtin_inf();
  if (x < -1076.0)
    return 0.0;
  __pmx_dd t = __pmx_dd_mul_d(__pmx_dd_make(PMX_LN2_HI, PMX_LN2_LO), x);
  return __pmx_exp_dd(t.hi, t.lo);
}

PMX_OVERLOAD double exp10(double x) {
  if (__pmx_isnan(x))
    return x;
  if (x > 310.0)
    return __builtin_inf();
  if (x < -330.0)
    return 0.0;
  __pmx_dd t = __pmx_dd_mul_d(__pmx_dd_make(PMX_LN10_HI, PMX_LN10_LO), x);
  return __pmx_exp_dd(t.hi, t.lo);
}

__pmx_dd __pmx_expm1_dd(double x) {
  if (__builtin_fabs(x) < 0.34) {
    // No reduction: x + x^2/2 + x^3 P(x) in double-double, without the 1
    // that would cost the low bits of a small result.
    __pmx_dd x2 = __pmx_two_prod(x, x);
    __pmx_dd s = __pmx_two_sum(x, 0.5 * x2.hi);
    return __pmx_fast_two_sum(s.hi, s.lo + (0.5 * x2.lo + x2.hi * x * __pmx_exp_poly(x)));
  }
  int k;
  __pmx_dd m = __pmx_exp_core(x, 0.0, &k);
  // 2^k * m - 1, with 2^k - 1 exact as a double-double (|k| <= 1023).
  double s = as_double((ulong)(0x3ff + k) << 52);
  __pmx_dd d = __pmx_two_sum(s, -1.0);
  // m.hi * s - s is exact: m.hi - 1 is (Sterbenz) and the scaling is too.
  return __pmx_dd_add(d, __pmx_dd_make(m.hi * s - s, m.lo * s));
}

PMX_OVERLOAD double expm1(double x) {
  if (__pmx_isnan(x))
    return x;
  if (x > 709.0)
    return __pmx_exp_dd(x, 0.0); // the -1 is far below half an ulp
  if (x < -40.0)
    return -1.0; // exp(x) < 2^-57: -1 + exp(x) rounds to -1
  if (x == 0.0)
    return x; // keeps the sign of zero
  return __pmx_expm1_dd(x).hi;
}

// log alone needs no double-double (pow and the others above keep it):
// x = 2^k (1 + f), sqrt(1/2) <= 1 + f < sqrt(2), s = f / (2 + f), z = s^2,
// log(1 + f) = 2 atanh(s) = f - (f^2/2 - s (f^2/2 + R)) with
// R = 2 (z/3 + z^2/5 + ... + z^11/23) (the next term is below 2^-57 of the
// result; 2 s = f - s f gives the form). Everything but f and k ln2 is a
// small correction, so one plain-double evaluation stays below 1 ulp; k
// ln2_hi is exact with the 42-bit split above (|k| <= 1075).
PMX_OVERLOAD double log(double x) {
  bool done;
  double special = __pmx_log_special(x, &done);
  if (done)
    return special;
  int k;
  double f = __pmx_log_reduce(x, &k) - 1.0; // exact (Sterbenz)
  double s = f / (2.0 + f);
  double z = s * s;
  double r = 2.0 / 23.0;
  r = __builtin_fma(r, z, 2.0 / 21.0);
  r = __builtin_fma(r, z, 2.0 / 19.0);
  r = __builtin_fma(r, z, 2.0 / 17.0);
  r = __builtin_fma(r, z, 2.0 / 15.0);
  r = __builtin_fma(r, z, 2.0 / 13.0);
  r = __builtin_fma(r, z, 2.0 / 11.0);
  r = __builtin_fma(r, z, 2.0 / 9.0);
  r = __builtin_fma(r, z, 2.0 / 7.0);
  r = __builtin_fma(r, z, 2.0 / 5.0);
  r = __builtin_fma(r, z, 2.0 / 3.0);
  r *= z;
  double hfsq = 0.5 * f * f;
  double dk = (double)k;
  return dk * PMX_LN2_HI42 - ((hfsq - (s * (hfsq + r) + dk * PMX_LN2_LO42)) - f);
}

PMX_OVERLOAD double log2(double x) {
  bool done;
  double special = __pmx_log_special(x, &done);
  if (done)
    return special;
  int e;
  __pmx_dd l = __pmx_log_parts(x, &e);
  l = __pmx_dd_mul(l, __pmx_dd_make(PMX_INV_LN2_HI, PMX_INV_LN2_LO));
  l = __pmx_dd_add_d(l, (double)e);
  return l.hi + l.lo;
}

PMX_OVERLOAD double log10(double x) {
  bool done;
  double special = __pmx_log_special(x, &done);
  if (done)
    return special;
  int e;
  __pmx_dd l = __pmx_log_parts(x, &e);
  l = __pmx_dd_mul(l, __pmx_dd_make(PMX_INV_LN10_HI, PMX_INV_LN10_LO));
  l = __pmx_dd_add(l, __pmx_dd_mul_d(__pmx_dd_make(PMX_LOG10_2_HI, PMX_LOG10_2_LO), (double)e));
  return l.hi + l.lo;
}

PMX_OVERLOAD double log1p(double x) {
  if (__pmx_isnan(x) || x == 0.0 || x == __builtin_inf())
    return x;
  if (x == -1.0)
    return -__builtin_inf();
  if (x < -1.0)
    return __builtin_nan("");
  __pmx_dd l = __pmx_log1p_dd(__pmx_dd_make(x, 0.0));
  return l.hi + l.lo;
}

// The float versions are in float_exp_log.cl.
PMX_LANEWISE_1(double, exp, double)
PMX_LANEWISE_1(double, exp2, double)
PMX_LANEWISE_1(double, exp10, double)
PMX_LANEWISE_1(double, expm1, double)
PMX_LANEWISE_1(double, log, double)
PMX_LANEWISE_1(double, log2, double)
PMX_LANEWISE_1(double, log10, double)
PMX_LANEWISE_1(double, log1p, double)
