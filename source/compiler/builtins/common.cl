// Common functions (OpenCL C 3.0, 6.15.5): degrees, radians, mix, step,
// smoothstep and sign for float, double and half, scalars and every vector width,
// with the scalar-argument forms (mix(floatn, floatn, float),
// step(float, floatn), smoothstep(float, float, floatn)).
// (clamp/min/max come from LowerExactBuiltinsPass.)
//
// Method: the bodies use vector arithmetic that is also valid for scalars.
//  - float degrees/radians/smoothstep are computed in double and rounded
//    once (the double product or quotient is far more precise than float,
//    so the result is within ~0.5 ulp; double also cannot overflow here).
//  - double degrees/radians multiply by the constant split in two doubles
//    (c = hi + lo to ~106 bits): fma(x, hi, x * lo) is within ~0.5 ulp.
//  - half degrees/radians/smoothstep are computed in float (the product of
//    a half and the float constant, rounded to float then to half, is within
//    ~0.5 half ulp) and rounded to half.
//  - mix is the spec's formula x + (y - x) * a in the argument type
//    (its precision is implementation-defined).
//  - step/sign are exact selections; sign(NaN) is 0, sign(+-0) is +-0.
#include "pmx_builtins.h"

#define PMX_SCALAR_AND_WIDTHS(M, ...)                                                                                  \
  M(, __VA_ARGS__) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

// 180 / pi and pi / 180 as an unevaluated sum hi + lo (hi = the double
// nearest, lo = the double nearest the remainder; computed with mpmath at
// 200 bits).
#define PMX_DEGREES_HI 0x1.ca5dc1a63c1f8p+5
#define PMX_DEGREES_LO -0x1.1e7ab456405f9p-49
#define PMX_RADIANS_HI 0x1.1df46a2529d39p-6
#define PMX_RADIANS_LO 0x1.5c1d8becdd291p-62

// ---- degrees, radians -------------------------------------------------------------
#define PMX_ANGLE_F_(N, ...)                                                                                           \
  PMX_OVERLOAD float##N degrees(float##N x) { return convert_float##N(convert_double##N(x) * PMX_DEGREES_HI); }        \
  PMX_OVERLOAD float##N radians(float##N x) { return convert_float##N(convert_double##N(x) * PMX_RADIANS_HI); }
PMX_SCALAR_AND_WIDTHS(PMX_ANGLE_F_)

// (an infinite x takes x * hi: x * lo would add inf - inf.)
#define PMX_ANGLE_D_(N, ...)                                                                                           \
  PMX_OVERLOAD double##N degrees(double##N x) {                                                                        \
    double##N r = __builtin_elementwise_fma(x, (double##N)(PMX_DEGREES_HI), x * PMX_DEGREES_LO);                       \
    return __builtin_elementwise_abs(x) == (double##N)(__builtin_inf()) ? x : r;                                       \
  }                                                                                                                    \
  PMX_OVERLOAD double##N radians(double##N x) {                                                                        \
    double##N r = __builtin_elementwise_fma(x, (double##N)(PMX_RADIANS_HI), x * PMX_RADIANS_LO);                       \
    return __builtin_elementwise_abs(x) == (double##N)(__builtin_inf()) ? x : r;                                       \
  }
PMX_SCALAR_AND_WIDTHS(PMX_ANGLE_D_)

#define PMX_ANGLE_H_(N, ...)                                                                                           \
  PMX_OVERLOAD half##N degrees(half##N x) { return convert_half##N(convert_float##N(x) * (float)PMX_DEGREES_HI); }     \
  PMX_OVERLOAD half##N radians(half##N x) { return convert_half##N(convert_float##N(x) * (float)PMX_RADIANS_HI); }
PMX_SCALAR_AND_WIDTHS(PMX_ANGLE_H_)

// ---- mix ----------------------------------------------------------------------------
#define PMX_MIX_(N, T)                                                                                                 \
  PMX_OVERLOAD T##N mix(T##N x, T##N y, T##N a) { return x + (y - x) * a; }
#define PMX_MIX_S_(N, T)                                                                                               \
  PMX_OVERLOAD T##N mix(T##N x, T##N y, T a) { return x + (y - x) * a; }
PMX_SCALAR_AND_WIDTHS(PMX_MIX_, float)
PMX_SCALAR_AND_WIDTHS(PMX_MIX_, double)
PMX_FOR_WIDTHS(PMX_MIX_S_, float)
PMX_FOR_WIDTHS(PMX_MIX_S_, double)
PMX_SCALAR_AND_WIDTHS(PMX_MIX_, half)
PMX_FOR_WIDTHS(PMX_MIX_S_, half)

// ---- step: 0 where x < edge, else 1 ---------------------------------------------------
#define PMX_STEP_(N, T)                                                                                                \
  PMX_OVERLOAD T##N step(T##N edge, T##N x) { return x < edge ? (T##N)(0) : (T##N)(1); }
#define PMX_STEP_S_(N, T)                                                                                              \
  PMX_OVERLOAD T##N step(T edge, T##N x) { return x < (T##N)(edge) ? (T##N)(0) : (T##N)(1); }
PMX_SCALAR_AND_WIDTHS(PMX_STEP_, float)
PMX_SCALAR_AND_WIDTHS(PMX_STEP_, double)
PMX_FOR_WIDTHS(PMX_STEP_S_, float)
PMX_FOR_WIDTHS(PMX_STEP_S_, double)
PMX_SCALAR_AND_WIDTHS(PMX_STEP_, half)
PMX_FOR_WIDTHS(PMX_STEP_S_, half)

// ---- smoothstep: t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t) -------------
// (undefined when e0 >= e1 or any argument is NaN.)
#define PMX_SMOOTH_BODY(W, e0, e1, x)                                                                                  \
  W t = ((x) - (e0)) / ((e1) - (e0));                                                                                  \
  t = __builtin_elementwise_min(__builtin_elementwise_max(t, (W)(0)), (W)(1));                                         \
  W r = t * t * ((W)(3) - (W)(2) * t);
#define PMX_SMOOTHSTEP_F_(N, ...)                                                                                      \
  PMX_OVERLOAD float##N smoothstep(float##N e0, float##N e1, float##N x) {                                             \
    PMX_SMOOTH_BODY(double##N, convert_double##N(e0), convert_double##N(e1), convert_double##N(x))                     \
    return convert_float##N(r);                                                                                        \
  }
#define PMX_SMOOTHSTEP_FS_(N, ...)                                                                                     \
  PMX_OVERLOAD float##N smoothstep(float e0, float e1, float##N x) {                                                   \
    PMX_SMOOTH_BODY(double##N, (double##N)((double)e0), (double##N)((double)e1), convert_double##N(x))                 \
    return convert_float##N(r);                                                                                        \
  }
#define PMX_SMOOTHSTEP_D_(N, ...)                                                                                      \
  PMX_OVERLOAD double##N smoothstep(double##N e0, double##N e1, double##N x) {                                         \
    PMX_SMOOTH_BODY(double##N, e0, e1, x)                                                                              \
    return r;                                                                                                          \
  }
#define PMX_SMOOTHSTEP_DS_(N, ...)                                                                                     \
  PMX_OVERLOAD double##N smoothstep(double e0, double e1, double##N x) {                                               \
    PMX_SMOOTH_BODY(double##N, (double##N)(e0), (double##N)(e1), x)                                                    \
    return r;                                                                                                          \
  }
PMX_SCALAR_AND_WIDTHS(PMX_SMOOTHSTEP_F_)
PMX_SCALAR_AND_WIDTHS(PMX_SMOOTHSTEP_D_)
PMX_FOR_WIDTHS(PMX_SMOOTHSTEP_FS_)
PMX_FOR_WIDTHS(PMX_SMOOTHSTEP_DS_)
#define PMX_SMOOTHSTEP_H_(N, ...)                                                                                      \
  PMX_OVERLOAD half##N smoothstep(half##N e0, half##N e1, half##N x) {                                                 \
    PMX_SMOOTH_BODY(float##N, convert_float##N(e0), convert_float##N(e1), convert_float##N(x))                         \
    return convert_half##N(r);                                                                                         \
  }
#define PMX_SMOOTHSTEP_HS_(N, ...)                                                                                     \
  PMX_OVERLOAD half##N smoothstep(half e0, half e1, half##N x) {                                                       \
    PMX_SMOOTH_BODY(float##N, (float##N)((float)e0), (float##N)((float)e1), convert_float##N(x))                       \
    return convert_half##N(r);                                                                                         \
  }
PMX_SCALAR_AND_WIDTHS(PMX_SMOOTHSTEP_H_)
PMX_FOR_WIDTHS(PMX_SMOOTHSTEP_HS_)

// ---- sign: 1 for x > 0, -1 for x < 0, x itself for +-0, 0 for NaN ------------------------
#define PMX_SIGN_(N, T)                                                                                                \
  PMX_OVERLOAD T##N sign(T##N x) {                                                                                     \
    T##N r = x > (T##N)(0) ? (T##N)(1) : x;                                                                            \
    r = x < (T##N)(0) ? (T##N)(-1) : r;                                                                                \
    return x != x ? (T##N)(0) : r;                                                                                     \
  }
PMX_SCALAR_AND_WIDTHS(PMX_SIGN_, float)
PMX_SCALAR_AND_WIDTHS(PMX_SIGN_, double)
PMX_SCALAR_AND_WIDTHS(PMX_SIGN_, half)
