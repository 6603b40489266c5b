// Arithmetic helpers shared by the math builtins: exact (error-free)
// transformations and double-double arithmetic, bit access, scaling.
//
// The library is compiled with -ffp-contract=off, so `a * b + c` is two
// roundings and fma() is one: the error-free transformations below rely on it.
#ifndef POLYMUX_MATH_H
#define POLYMUX_MATH_H

#include "pmx_builtins.h"

/// A double fma (scalar or vector) the algorithm needs exact: error-free
/// transformations and residuals that must not round twice. Plain
/// __builtin_fma is for the rest (polynomials, corrections), where a second
/// rounding stays far inside the function's bound. A Vulkan device's double
/// fma may round twice: there it is a call (defined in
/// math/fma_in_integers.cl) that the compiler makes the device's fma or,
/// where that rounds twice, an fma computed in integers (compiler/spirv
/// passes/emulate_double_fma.cpp).
#ifdef __SPIRV__
#define PMX_FMA_EXACT_DECLARE_(N, unused) PMX_OVERLOAD double##N __pmx_fma_exact(double##N a, double##N b, double##N c);
// clang-format off
PMX_FMA_EXACT_DECLARE_(, )
PMX_FOR_WIDTHS(PMX_FMA_EXACT_DECLARE_, )
// clang-format on
#define PMX_FMA_EXACT(a, b, c) __pmx_fma_exact(a, b, c)
#else
#define PMX_FMA_EXACT(a, b, c) __builtin_elementwise_fma(a, b, c)
#endif

/// A double-double: hi + lo with |lo| <= ulp(hi) / 2.
typedef struct {
  double hi;
  double lo;
} __pmx_dd;

static inline __pmx_dd __pmx_dd_make(double hi, double lo) {
  __pmx_dd r = {hi, lo};
  return r;
}

/// a + b exactly, as a rounded sum and its error (Knuth's two-sum).
static inline __pmx_dd __pmx_two_sum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  double e = (a - (s - bb)) + (b - bb);
  return __pmx_dd_make(s, e);
}

/// a + b exactly when |a| >= |b| or a == 0 (Dekker's fast two-sum).
static inline __pmx_dd __pmx_fast_two_sum(double a, double b) {
  double s = a + b;
  return __pmx_dd_make(s, b - (s - a));
}

/// a * b exactly, as a rounded product and its error.
static inline __pmx_dd __pmx_two_prod(double a, double b) {
  double p = a * b;
  return __pmx_dd_make(p, PMX_FMA_EXACT(a, b, -p));
}

static inline __pmx_dd __pmx_dd_add(__pmx_dd a, __pmx_dd b) {
  __pmx_dd s = __pmx_two_sum(a.hi, b.hi);
  __pmx_dd t = __pmx_two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = __pmx_fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return __pmx_fast_two_sum(s.hi, s.lo);
}

static inline __pmx_dd __pmx_dd_add_d(__pmx_dd a, double b) {
  __pmx_dd s = __pmx_two_sum(a.hi, b);
  s.lo += a.lo;
  return __pmx_fast_two_sum(s.hi, s.lo);
}

static inline __pmx_dd __pmx_dd_mul(__pmx_dd a, __pmx_dd b) {
  __pmx_dd p = __pmx_two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return __pmx_fast_two_sum(p.hi, p.lo);
}

static inline __pmx_dd __pmx_dd_mul_d(__pmx_dd a, double b) {
  __pmx_dd p = __pmx_two_prod(a.hi, b);
  p.lo += a.lo * b;
  return __pmx_fast_two_sum(p.hi, p.lo);
}

static inline __pmx_dd __pmx_dd_div(__pmx_dd a, __pmx_dd b) {
  double q = a.hi / b.hi;
  // r = a - q * b, exactly enough for one correction step.
  __pmx_dd qb = __pmx_dd_mul_d(b, q);
  __pmx_dd r = __pmx_dd_add(a, __pmx_dd_make(-qb.hi, -qb.lo));
  double q2 = r.hi / b.hi;
  return __pmx_fast_two_sum(q, q2);
}

/// x * 2^n for any int n, by power-of-two steps. For a normal x near 1 (a
/// reduced result about to be scaled back) only the last step rounds, so a
/// result in the denormal range is rounded once.
static inline double __pmx_scale(double x, int n) {
  if (n > 1023) {
    x *= 0x1p1023;
    n -= 1023;
    if (n > 1023) {
      x *= 0x1p1023;
      n -= 1023;
      n = n > 1023 ? 1023 : n;
    }
  } else if (n < -1022) {
    // 0x1p-969 = 2^-1022 * 2^53 keeps the intermediate normal so that only
    // the final multiplication rounds.
    x *= 0x1p-969;
    n += 969;
    if (n < -1022) {
      x *= 0x1p-969;
      n += 969;
      n = n < -1022 ? -1022 : n;
    }
  }
  return x * as_double((ulong)(0x3ff + n) << 52);
}

/// A float as a double, exactly, also on devices that flush float denormals
/// in arithmetic and conversions (an H100 turned 0x1p-141 into 0): a
/// denormal's bits are its value in units of 2^-149. Float functions whose
/// results depend on denormal operands read them so and work in double,
/// where float denormals are normal numbers.
static inline double __pmx_float_exact(float x) {
  uint bits = as_uint(x);
  if (bits & 0x7f800000u)
    return (double)x;
  double magnitude = (double)(bits & 0x007fffffu) * 0x1p-149;
  return (bits >> 31) ? -magnitude : magnitude;
}

static inline bool __pmx_isnan(double x) { return x != x; }
static inline bool __pmx_isinf(double x) { return __builtin_fabs(x) == __builtin_inf(); }
static inline bool __pmx_isfinite(double x) { return __builtin_fabs(x) < __builtin_inf(); }

#endif // POLYMUX_MATH_H
