// pow, pown, powr and rootn for float and double, scalar and vector.
//
// Method: |x|^y = exp(y * log|x|) with log|x| as a double-double (relative
// error < 2^-70, __pmx_log_dd) multiplied by y exactly enough (two_prod
// plus y * lo), then exp of that double-double (__pmx_exp_dd). |y*log|x||
// is at most ~745 for a finite non-zero result, so the argument's absolute
// error stays below 2^-60 and the result is within about 0.52 ulp (the
// spec allows 16). rootn divides log|x| by n in double-double instead. The
// special values follow C99 Annex F (pow), and the OpenCL C spec 7.5.1
// (pown, powr, rootn).
//
// float pow, pown and powr: for a finite non-zero x and a finite non-zero y,
// |x|^y = 2^(y * log2|x|) in plain double. log2|x| has a relative error
// below 2^-49 (__pmx_logf_mantissa), and |y * log2|x|| <= 151 for a result
// in float range, so the exponent is within 2^-40 absolute and the result
// within 2^-40 relative before its one rounding (spec: 16 ulp). Zeros,
// infinities and NaNs take the double functions' special-case code; float
// rootn evaluates the double rootn and rounds.
#include "pmx_builtins.h"
#include "pmx_exp_log.h"

static inline bool __pmx_is_int(double y) { return __builtin_rint(y) == y; }

// y a finite odd integer (every double with |y| >= 2^53 is even).
static inline bool __pmx_is_odd(double y) {
  return __builtin_fabs(y) < 0x1p53 && __pmx_is_int(y) && !__pmx_is_int(y * 0.5);
}

// |x|^y = exp(y * log|x|) for finite x != 0 and finite y.
static double __pmx_pow_abs(double x, double y) {
  __pmx_dd l = __pmx_log_dd(__builtin_fabs(x));
  double hi = y * l.hi;
  if (hi > 710.0)
    return __builtin_inf();
  if (hi < -746.0)
    return 0.0;
  __pmx_dd t = __pmx_two_prod(y, l.hi);
  t.lo += y * l.lo;
  t = __pmx_fast_two_sum(t.hi, t.lo);
  return __pmx_exp_dd(t.hi, t.lo);
}

PMX_OVERLOAD double pow(double x, double y) {
  if (y == 0.0 || x == 1.0)
    return 1.0;
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return x + y;
  double ax = __builtin_fabs(x);
  if (__pmx_isinf(y)) {
    if (ax == 1.0)
      return 1.0; // x == -1
    return ((ax > 1.0) == (y > 0.0)) ? __builtin_inf() : 0.0;
  }
  bool odd = __pmx_is_odd(y);
  if (ax == 0.0 || ax == __builtin_inf()) {
    // 0^y is inf for y < 0, inf^y is inf for y > 0; the sign of x stays
    // for an odd integer y.
    double mag = ((y < 0.0) == (ax == 0.0)) ? __builtin_inf() : 0.0;
    return odd ? __builtin_copysign(mag, x) : mag;
  }
  if (x < 0.0 && !__pmx_is_int(y))
    return __builtin_nan("");
  double r = __pmx_pow_abs(x, y);
  return (x < 0.0 && odd) ? -r : r;
}

// pown(x, n) = pow(x, n): n converts exactly, and pow's special cases for an
// integer y are pown's (pown(x, 0) = 1 even for a NaN x).
PMX_OVERLOAD double pown(double x, int n) { return pow(x, (double)n); }

PMX_OVERLOAD double powr(double x, double y) {
  if (__pmx_isnan(x) || __pmx_isnan(y))
    return x + y;
  if (x < 0.0)
    return __builtin_nan("");
  if (x == 0.0) {
    if (y == 0.0)
      return __builtin_nan("");
    return y < 0.0 ? __builtin_inf() : 0.0;
  }
  if (__pmx_isinf(x)) {
    if (y == 0.0)
      return __builtin_nan("");
    return y < 0.0 ? 0.0 : __builtin_inf();
  }
  if (x == 1.0)
    return __pmx_isinf(y) ? __builtin_nan("") : 1.0;
  if (y == 0.0)
    return 1.0;
  if (__pmx_isinf(y))
    return ((x > 1.0) == (y > 0.0)) ? __builtin_inf() : 0.0;
  return __pmx_pow_abs(x, y);
}

PMX_OVERLOAD double rootn(double x, int n) {
  if (n == 0 || __pmx_isnan(x))
    return __pmx_isnan(x) ? x : __builtin_nan("");
  bool odd = (n & 1) != 0;
  if (x < 0.0 && !odd)
    return __builtin_nan("");
  if (x == 0.0 || __pmx_isinf(x)) {
    double mag = ((n < 0) == (x == 0.0)) ? __builtin_inf() : 0.0;
    return odd ? __builtin_copysign(mag, x) : mag;
  }
  __pmx_dd l = __pmx_log_dd(__builtin_fabs(x));
  // l / n as a double-double: the quotient and the remainder's quotient.
  double dn = (double)n;
  double q = l.hi / dn;
  double rem = PMX_FMA_EXACT(-q, dn, l.hi) + l.lo;
  __pmx_dd t = __pmx_fast_two_sum(q, rem / dn);
  double r = __pmx_exp_dd(t.hi, t.lo);
  return x < 0.0 ? -r : r;
}

// |x|^y for a float x != 0 (finite) and a finite y.
static inline double __pmx_powf_abs(double ax, double y) {
  double e;
  double m = __pmx_logf_split(ax, &e);
  double t = y * __builtin_fma(__pmx_logf_mantissa(m), PMX_INV_LN2_HI, e);
  if (t > 129.0)
    return __builtin_inf();
  if (t < -151.0)
    return 0.0; // below half the smallest float denormal
  double k = __builtin_rint(t);
  return __pmx_expf_reduced((t - k) * PMX_LN2_HI, k); // t - k is exact
}

// |x| finite and non-zero, y finite and non-zero: the fast path's domain;
// everything else is a special value of the double functions.
static inline bool __pmx_powf_regular(double ax, double y) {
  return ax > 0.0 && ax < __builtin_inf() && __builtin_fabs(y) < __builtin_inf() && y != 0.0;
}

// pow for a float x and a y that is a float or an int, both held exactly.
static inline float __pmx_powf(double x, double y) {
  double ax = __builtin_fabs(x);
  if (!__pmx_powf_regular(ax, y))
    return (float)pow(x, y);
  if (x < 0.0 && !__pmx_is_int(y))
    return __builtin_nanf("");
  double r = __pmx_powf_abs(ax, y);
  return (float)((x < 0.0 && __pmx_is_odd(y)) ? -r : r);
}

PMX_OVERLOAD float pow(float x, float y) { return __pmx_powf((double)x, (double)y); }
PMX_OVERLOAD float pown(float x, int n) { return __pmx_powf((double)x, (double)n); }
PMX_OVERLOAD float powr(float x, float y) {
  double dx = (double)x, dy = (double)y;
  if (!__pmx_powf_regular(dx, dy)) // also every x <= 0
    return (float)powr(dx, dy);
  return (float)__pmx_powf_abs(dx, dy);
}
PMX_OVERLOAD float rootn(float x, int n) { return (float)rootn((double)x, n); }

PMX_LANEWISE_2(float, pow, float, float)
PMX_LANEWISE_2(double, pow, double, double)
PMX_LANEWISE_2(float, pown, float, int)
PMX_LANEWISE_2(double, pown, double, int)
PMX_LANEWISE_2(float, powr, float, float)
PMX_LANEWISE_2(double, powr, double, double)
PMX_LANEWISE_2(float, rootn, float, int)
PMX_LANEWISE_2(double, rootn, double, int)
