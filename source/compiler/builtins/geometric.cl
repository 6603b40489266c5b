// Geometric functions (OpenCL C 3.0, 6.15.6): cross, distance, length,
// normalize for float, double and half (scalar, 2, 3 and 4 lanes), and
// fast_distance, fast_length, fast_normalize for float. (dot comes from
// LowerExactBuiltinsPass.)
//
// Method:
//  - float: computed in double and rounded once. Squares of floats are exact
//    in double and a sum of four of them can neither overflow nor underflow
//    (FLT_MAX^2 * 4 < DBL_MAX, denormal^2 > DBL_MIN), so length/distance/
//    normalize are within ~0.5 ulp, with no scaling needed. cross products
//    of floats are exact in double; each difference rounds twice (~0.5 ulp).
//  - double: the components are scaled by 2^-e, e the exponent of the
//    largest magnitude, so the sum of squares cannot overflow or underflow;
//    that sum is accumulated exactly enough in double-double (two_prod), its
//    square root is corrected by one Newton step (fma residual) and, for
//    normalize, each quotient by one fma residual step: about 0.5-1 ulp.
//    cross uses Kahan's fma difference of products (<= 1.5 ulp); where a
//    product of finite operands overflows it is redone scaled by 2^-600, and
//    with infinite operands it is the plain formula (so inf/NaN are as IEEE).
//  - fast_*: the spec allows 8192 ulp; they are the accurate functions.
//  - Special values: length/distance are NaN if a component is NaN, else
//    +inf if one is infinite. normalize returns p when all components are
//    zero, all NaN when one is NaN, and with infinite components proceeds as
//    if each were replaced by copysign(1, x) and every finite one by 0 * x.
//  Vectors of 2 and 3 lanes are padded to 4 with zeros, which change neither
//  a sum of squares nor the other lanes of a quotient.
#include "pmx_math.h"

// ---- float ---------------------------------------------------------------------------

static inline double __pmx_sumsq4(double4 d) { return d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w; }

static inline float __pmx_length_f4(float4 p) { return (float)__builtin_sqrt(__pmx_sumsq4(convert_double4(p))); }

static inline float __pmx_distance_f4(float4 a, float4 b) {
  return (float)__builtin_sqrt(__pmx_sumsq4(convert_double4(a) - convert_double4(b)));
}

static inline float4 __pmx_normalize_f4(float4 p) {
  double4 d = convert_double4(p);
  double s = __pmx_sumsq4(d);
  if (s == 0.0)
    return p;
  // Only an infinite component makes the double sum infinite.
  if (s == __builtin_inf()) {
    double4 a = __builtin_elementwise_abs(d);
    d = __builtin_elementwise_copysign(a == (double4)(__builtin_inf()) ? (double4)(1.0) : (double4)(0.0), d);
    s = __pmx_sumsq4(d);
  }
  return convert_float4(d / __builtin_sqrt(s));
}

PMX_OVERLOAD float length(float p) { return __builtin_fabsf(p); }
PMX_OVERLOAD float length(float2 p) { return __pmx_length_f4((float4)(p, 0.0f, 0.0f)); }
PMX_OVERLOAD float length(float3 p) { return __pmx_length_f4((float4)(p, 0.0f)); }
PMX_OVERLOAD float length(float4 p) { return __pmx_length_f4(p); }

PMX_OVERLOAD float distance(float a, float b) { return __builtin_fabsf(a - b); }
PMX_OVERLOAD float distance(float2 a, float2 b) {
  return __pmx_distance_f4((float4)(a, 0.0f, 0.0f), (float4)(b, 0.0f, 0.0f));
}
PMX_OVERLOAD float distance(float3 a, float3 b) { return __pmx_distance_f4((float4)(a, 0.0f), (float4)(b, 0.0f)); }
PMX_OVERLOAD float distance(float4 a, float4 b) { return __pmx_distance_f4(a, b); }

// A scalar has direction sign(p): +-1, or p itself for +-0 and NaN.
PMX_OVERLOAD float normalize(float p) { return p == 0.0f || p != p ? p : __builtin_copysignf(1.0f, p); }
PMX_OVERLOAD float2 normalize(float2 p) { return __pmx_normalize_f4((float4)(p, 0.0f, 0.0f)).xy; }
PMX_OVERLOAD float3 normalize(float3 p) { return __pmx_normalize_f4((float4)(p, 0.0f)).xyz; }
PMX_OVERLOAD float4 normalize(float4 p) { return __pmx_normalize_f4(p); }

#define PMX_FAST_GEOMETRIC_(T)                                                                                         \
  PMX_OVERLOAD float fast_length(T p) { return length(p); }                                                            \
  PMX_OVERLOAD float fast_distance(T a, T b) { return distance(a, b); }                                                \
  PMX_OVERLOAD T fast_normalize(T p) { return normalize(p); }
PMX_FAST_GEOMETRIC_(float)
PMX_FAST_GEOMETRIC_(float2)
PMX_FAST_GEOMETRIC_(float3)
PMX_FAST_GEOMETRIC_(float4)

static inline float3 __pmx_cross_f3(float3 a, float3 b) {
  double3 x = convert_double3(a), y = convert_double3(b);
  return convert_float3(x.yzx * y.zxy - x.zxy * y.yzx);
}
PMX_OVERLOAD float3 cross(float3 a, float3 b) { return __pmx_cross_f3(a, b); }
PMX_OVERLOAD float4 cross(float4 a, float4 b) { return (float4)(__pmx_cross_f3(a.xyz, b.xyz), 0.0f); }

// ---- half (cl_khr_fp16) ----------------------------------------------------------------
// Through the float functions above (computed in double): one more rounding,
// to half, so within ~0.5 half ulp.

PMX_OVERLOAD half length(half p) { return __builtin_fabsf16(p); }
PMX_OVERLOAD half length(half2 p) { return (half)__pmx_length_f4((float4)(convert_float2(p), 0.0f, 0.0f)); }
PMX_OVERLOAD half length(half3 p) { return (half)__pmx_length_f4((float4)(convert_float3(p), 0.0f)); }
PMX_OVERLOAD half length(half4 p) { return (half)__pmx_length_f4(convert_float4(p)); }

PMX_OVERLOAD half distance(half a, half b) { return (half)__builtin_fabsf((float)a - (float)b); }
PMX_OVERLOAD half distance(half2 a, half2 b) {
  return (half)__pmx_distance_f4((float4)(convert_float2(a), 0.0f, 0.0f), (float4)(convert_float2(b), 0.0f, 0.0f));
}
PMX_OVERLOAD half distance(half3 a, half3 b) {
  return (half)__pmx_distance_f4((float4)(convert_float3(a), 0.0f), (float4)(convert_float3(b), 0.0f));
}
PMX_OVERLOAD half distance(half4 a, half4 b) { return (half)__pmx_distance_f4(convert_float4(a), convert_float4(b)); }

PMX_OVERLOAD half normalize(half p) { return p == (half)0 || p != p ? p : (p > (half)0 ? (half)1 : (half)-1); }
PMX_OVERLOAD half2 normalize(half2 p) {
  return convert_half2(__pmx_normalize_f4((float4)(convert_float2(p), 0.0f, 0.0f)).xy);
}
PMX_OVERLOAD half3 normalize(half3 p) {
  return convert_half3(__pmx_normalize_f4((float4)(convert_float3(p), 0.0f)).xyz);
}
PMX_OVERLOAD half4 normalize(half4 p) { return convert_half4(__pmx_normalize_f4(convert_float4(p))); }

// Products of halves are exact in double.
static inline half3 __pmx_cross_h3(half3 a, half3 b) {
  double3 x = convert_double3(a), y = convert_double3(b);
  return convert_half3(x.yzx * y.zxy - x.zxy * y.yzx);
}
PMX_OVERLOAD half3 cross(half3 a, half3 b) { return __pmx_cross_h3(a, b); }
PMX_OVERLOAD half4 cross(half4 a, half4 b) { return (half4)(__pmx_cross_h3(a.xyz, b.xyz), (half)0); }

// ---- double --------------------------------------------------------------------------

/// The exponent e of the largest |p_i| (0 < max < inf): max |p_i| * 2^-e is in [1, 2).
static inline int __pmx_max_exponent(double4 a) {
  double m = __builtin_fmax(__builtin_fmax(a.x, a.y), __builtin_fmax(a.z, a.w));
  if (m < 0x1p-1022) // denormal: normalise it first (exact)
    return (int)(as_ulong(m * 0x1p54) >> 52) - 1023 - 54;
  return (int)(as_ulong(m) >> 52) - 1023;
}

/// sqrt(sum q_i^2) as a double-double hi + lo (|q_i| < 2, max |q_i| >= 1).
static inline __pmx_dd __pmx_norm_dd(double4 q) {
  __pmx_dd s = __pmx_two_prod(q.x, q.x);
  s = __pmx_dd_add(s, __pmx_two_prod(q.y, q.y));
  s = __pmx_dd_add(s, __pmx_two_prod(q.z, q.z));
  s = __pmx_dd_add(s, __pmx_two_prod(q.w, q.w));
  double r = __builtin_sqrt(s.hi);
  // One Newton step: sqrt(S) ~ r + (S - r^2) / (2r), with S - r^2 exact by fma.
  double lo = (PMX_FMA_EXACT(-r, r, s.hi) + s.lo) / (2.0 * r);
  return __pmx_fast_two_sum(r, lo);
}

static inline double __pmx_length_d4(double4 p) {
  double4 a = __builtin_elementwise_abs(p);
  double naive = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w;
  if (naive != naive)
    return naive; // a NaN component
  if (__builtin_fmax(__builtin_fmax(a.x, a.y), __builtin_fmax(a.z, a.w)) == __builtin_inf())
    return __builtin_inf();
  if (naive == 0.0 && all(a == (double4)(0.0)))
    return 0.0;
  int e = __pmx_max_exponent(a);
  double4 q = p * __pmx_scale(1.0, -e > 1023 ? 1023 : -e);
  if (-e > 1023) // max |p| is denormal: scale up in two exact steps
    q *= __pmx_scale(1.0, -e - 1023);
  __pmx_dd n = __pmx_norm_dd(q);
  return __pmx_scale(n.hi + n.lo, e);
}

static inline double4 __pmx_normalize_d4(double4 p) {
  double4 a = __builtin_elementwise_abs(p);
  if (any(p != p))
    return (double4)(__builtin_nan(""));
  if (all(a == (double4)(0.0)))
    return p;
  if (any(a == (double4)(__builtin_inf())))
    p = __builtin_elementwise_copysign(a == (double4)(__builtin_inf()) ? (double4)(1.0) : (double4)(0.0), p);
  a = __builtin_elementwise_abs(p);
  int e = __pmx_max_exponent(a);
  double4 q = p * __pmx_scale(1.0, -e > 1023 ? 1023 : -e);
  if (-e > 1023)
    q *= __pmx_scale(1.0, -e - 1023);
  __pmx_dd n = __pmx_norm_dd(q);
  // q / (n.hi + n.lo), corrected by one residual step: t + (q - t * n) / n.hi.
  double4 t = q / n.hi;
  double4 residual = PMX_FMA_EXACT(-t, (double4)(n.hi), q) - t * n.lo;
  // (copysign: the correction must not turn a -0 lane into +0)
  return __builtin_elementwise_copysign(t + residual / n.hi, q);
}

PMX_OVERLOAD double length(double p) { return __builtin_fabs(p); }
PMX_OVERLOAD double length(double2 p) { return __pmx_length_d4((double4)(p, 0.0, 0.0)); }
PMX_OVERLOAD double length(double3 p) { return __pmx_length_d4((double4)(p, 0.0)); }
PMX_OVERLOAD double length(double4 p) { return __pmx_length_d4(p); }

// distance is length(a - b): a difference that overflows means a distance
// that does too.
PMX_OVERLOAD double distance(double a, double b) { return __builtin_fabs(a - b); }
PMX_OVERLOAD double distance(double2 a, double2 b) { return __pmx_length_d4((double4)(a - b, 0.0, 0.0)); }
PMX_OVERLOAD double distance(double3 a, double3 b) { return __pmx_length_d4((double4)(a - b, 0.0)); }
PMX_OVERLOAD double distance(double4 a, double4 b) { return __pmx_length_d4(a - b); }

PMX_OVERLOAD double normalize(double p) { return p == 0.0 || p != p ? p : __builtin_copysign(1.0, p); }
PMX_OVERLOAD double2 normalize(double2 p) { return __pmx_normalize_d4((double4)(p, 0.0, 0.0)).xy; }
PMX_OVERLOAD double3 normalize(double3 p) { return __pmx_normalize_d4((double4)(p, 0.0)).xyz; }
PMX_OVERLOAD double4 normalize(double4 p) { return __pmx_normalize_d4(p); }

/// a * b - c * d (Kahan): the rounding error of c * d is added back exactly.
static inline double3 __pmx_kahan(double3 a, double3 b, double3 c, double3 d) {
  double3 w = c * d;
  double3 e = PMX_FMA_EXACT(-c, d, w);
  double3 f = PMX_FMA_EXACT(a, b, -w);
  return f + e;
}
static inline double3 __pmx_diff_of_products(double3 a, double3 b, double3 c, double3 d) {
  const double3 inf = (double3)(__builtin_inf());
  double3 w = c * d;
  // With an infinite c * d the residuals are inf - inf: use the plain form.
  double3 r = __builtin_elementwise_abs(w) < inf ? __pmx_kahan(a, b, c, d) : a * b - w;
  // A product of finite operands that overflows while the difference may
  // not: redo it with a and c scaled by 2^-600 (exact; a product that then
  // underflows is negligible next to the other one).
  double3 m =
      __builtin_elementwise_max(__builtin_elementwise_max(__builtin_elementwise_abs(a), __builtin_elementwise_abs(b)),
                                __builtin_elementwise_max(__builtin_elementwise_abs(c), __builtin_elementwise_abs(d)));
  double3 scaled = __pmx_kahan(a * 0x1p-600, b, c * 0x1p-600, d) * 0x1p600;
  return m < inf && !(__builtin_elementwise_abs(r) < inf) ? scaled : r;
}
static inline double3 __pmx_cross_d3(double3 a, double3 b) {
  return __pmx_diff_of_products(a.yzx, b.zxy, a.zxy, b.yzx);
}
PMX_OVERLOAD double3 cross(double3 a, double3 b) { return __pmx_cross_d3(a, b); }
PMX_OVERLOAD double4 cross(double4 a, double4 b) { return (double4)(__pmx_cross_d3(a.xyz, b.xyz), 0.0); }
