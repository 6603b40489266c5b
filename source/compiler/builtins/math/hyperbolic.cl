// sinh, cosh, tanh, asinh, acosh, atanh for float and double, scalar and
// vector.
//
// sinh: |x| < 1/4: x + x^3 * P(x^2), P the Taylor series to x^19/19! (error
// below 0.53 ulp, the correction being < x/96); |x| >= 1/4: e^|x| = m * 2^k
// (__pmx_exp_core), sinh = 2^(k-1) * (m - 2^-2k / m) in double-double
// (cancelling at most a factor 2.6); the 2^(k-1) scaling keeps results up
// to the overflow threshold (710.47...) finite although e^|x| is not. cosh
// likewise with a sum. tanh = t / (t + 2) in double-double with t =
// expm1(2|x|) (no cancellation), 1 for |x| > 22. All round once from a
// double-double: about 0.5 ulp (spec: 4 for sinh/cosh, 5 for tanh).
//
// asinh, acosh, atanh are log1p of an argument computed in double-double
// without cancellation (__pmx_log1p_dd), so they round once (~0.5 ulp):
//   asinh|x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))
//   acosh x  = log1p(t + sqrt(t * (t + 2))), t = x - 1 (exact)
//   atanh|x| = log1p(2|x| / (1 - |x|)) / 2
// with log(2|x|) for |x| > 2^28 in asinh/acosh (the rest is < 2^-58).
// float asinh, acosh, atanh evaluate the double ones and round once; float
// sinh, cosh, tanh are in float_exp_log.cl.
#include "pmx_exp_log.h"

// -2^-2k / m as a double-double: e^-|x| in units of 2^k when e^|x| = m*2^k.
static inline __pmx_dd __pmx_neg_inverse(__pmx_dd m, int k) {
  __pmx_dd inv = __pmx_dd_div(__pmx_dd_make(1.0, 0.0), m);
  return __pmx_dd_make(-__pmx_scale(inv.hi, -2 * k), -__pmx_scale(inv.lo, -2 * k));
}

PMX_OVERLOAD double sinh(double x) {
  double ax = __builtin_fabs(x);
  if (!(ax < __builtin_inf()) || ax < 0x1p-28)
    return x; // NaN, ±inf, and sinh x = x (1 + x^2/6) rounding to x
  if (ax < 0.25) {
    double z = x * x;
    double p = 1.0 / 121645100408832000.0;
    p = __builtin_fma(p, z, 1.0 / 355687428096000.0);
    p = __builtin_fma(p, z, 1.0 / 1307674368000.0);
    p = __builtin_fma(p, z, 1.0 / 6227020800.0);
    p = __builtin_fma(p, z, 1.0 / 39916800.0);
    p = __builtin_fma(p, z, 1.0 / 362880.0);
    p = __builtin_fma(p, z, 1.0 / 5040.0);
    p = __builtin_fma(p, z, 1.0 / 120.0);
    p = __builtin_fma(p, z, 1.0 / 6.0);
    return x + x * z * p;
  }
  if (ax > 711.0)
    return __builtin_copysign(__builtin_inf(), x);
  int k;
  __pmx_dd m = __pmx_exp_core(ax, 0.0, &k);
  __pmx_dd v = __pmx_dd_add(m, __pmx_neg_inverse(m, k));
  return __builtin_copysign(__pmx_scale(v.hi, k - 1), x);
}

PMX_OVERLOAD double cosh(double x) {
  double ax = __builtin_fabs(x);
  if (__pmx_isnan(x))
    return x;
  if (ax > 711.0)
    return __builtin_inf();
  if (ax < 0x1p-27)
    return 1.0; // 1 + x^2/2 rounds to 1
  int k;
  __pmx_dd m = __pmx_exp_core(ax, 0.0, &k);
  __pmx_dd v = __pmx_neg_inverse(m, k);
  v = __pmx_dd_add(m, __pmx_dd_make(-v.hi, -v.lo));
  return __pmx_scale(v.hi, k - 1);
}

PMX_OVERLOAD double tanh(double x) {
  double ax = __builtin_fabs(x);
  if (__pmx_isnan(x))
    return x;
  if (ax > 22.0)
    return __builtin_copysign(1.0, x); // 1 - tanh|x| < 2^-62
  if (ax < 0x1p-28)
    return x; // x (1 - x^2/3) rounds to x
  __pmx_dd t = __pmx_expm1_dd(2.0 * ax);
  __pmx_dd r = __pmx_dd_div(t, __pmx_dd_add_d(t, 2.0));
  return __builtin_copysign(r.hi, x);
}

PMX_OVERLOAD double asinh(double x) {
  double ax = __builtin_fabs(x);
  if (!(ax < __builtin_inf()) || ax < 0x1p-28)
    return x; // NaN, ±inf, and x (1 - x^2/6) rounding to x
  __pmx_dd r;
  if (ax > 0x1p28) {
    r = __pmx_dd_add(__pmx_log_dd(ax), __pmx_dd_make(PMX_LN2_HI, PMX_LN2_LO));
  } else {
    __pmx_dd x2 = __pmx_two_prod(ax, ax);
    __pmx_dd root = __pmx_dd_sqrt(__pmx_dd_add_d(x2, 1.0));
    __pmx_dd u = __pmx_dd_add_d(__pmx_dd_div(x2, __pmx_dd_add_d(root, 1.0)), ax);
    r = __pmx_log1p_dd(u);
  }
  return __builtin_copysign(r.hi + r.lo, x);
}

PMX_OVERLOAD double acosh(double x) {
  if (__pmx_isnan(x))
    return x;
  if (x < 1.0)
    return __builtin_nan("");
  if (x == 1.0)
    return 0.0;
  if (x == __builtin_inf())
    return x;
  __pmx_dd r;
  if (x > 0x1p28) {
    r = __pmx_dd_add(__pmx_log_dd(x), __pmx_dd_make(PMX_LN2_HI, PMX_LN2_LO));
  } else {
    double t = x - 1.0; // exact
    __pmx_dd p = __pmx_dd_mul_d(__pmx_two_sum(t, 2.0), t);
    __pmx_dd u = __pmx_dd_add_d(__pmx_dd_sqrt(p), t);
    r = __pmx_log1p_dd(u);
  }
  return r.hi + r.lo;
}

PMX_OVERLOAD double atanh(double x) {
  double ax = __builtin_fabs(x);
  if (__pmx_isnan(x) || ax < 0x1p-28)
    return x; // NaN, ±0, and x (1 + x^2/3) rounding to x
  if (ax > 1.0)
    return __builtin_nan("");
  if (ax == 1.0)
    return __builtin_copysign(__builtin_inf(), x);
  __pmx_dd q = __pmx_dd_div(__pmx_dd_make(2.0 * ax, 0.0), __pmx_two_sum(1.0, -ax));
  __pmx_dd r = __pmx_log1p_dd(q);
  return __builtin_copysign(0.5 * (r.hi + r.lo), x);
}

#define PMX_HYPERBOLIC(F)                                                                                              \
  PMX_OVERLOAD float F(float x) { return (float)F((double)x); }                                                        \
  PMX_LANEWISE_1(float, F, float)                                                                                      \
  PMX_LANEWISE_1(double, F, double)

// float sinh, cosh and tanh are in float_exp_log.cl.
PMX_LANEWISE_1(double, sinh, double)
PMX_LANEWISE_1(double, cosh, double)
PMX_LANEWISE_1(double, tanh, double)
PMX_HYPERBOLIC(asinh)
PMX_HYPERBOLIC(acosh)
PMX_HYPERBOLIC(atanh)
