// Math builtins in half precision (cl_khr_fp16; OpenCL C 3.0 6.15.2 and the
// half-precision ULP table of 7.4), scalars and every vector width.
// (ceil, floor, rint, round, trunc, fabs, copysign, fmin, fmax, fma, mad and
// sqrt come from LowerExactBuiltinsPass, on the half type itself.)
//
// Method: a half converts to float exactly, and every float function here
// is within a few float ulp (2^-13 of a half ulp each), so computing in float
// and rounding once to half is within 0.5 half ulp plus a tiny fraction of
// one: inside every half bound of the table (2 ulp for most functions,
// 1 ulp for rsqrt, 4 for erf, erfc, pow, pown, powr, rootn and tgamma).
// The functions whose half result must be exact are exact in float too
// (fmod, remainder, remquo, frexp, ldexp, ilogb, logb, modf, maxmag, minmag:
// their float result is a half, or the half nearest it where the float
// result is not one) or are done here on the half's bits (nextafter, nan).
// fdim is computed in double, where the difference of two halves is exact,
// and rounded once. fract rounds the float fraction to half and keeps it
// below 1 (the CTS reference does the same).
#include "pmx_builtins.h"

// The float functions are defined in other files: each is declared here, or
// the half overload would be the only candidate and call itself.
#define PMX_HALF_VIA_FLOAT_1(F)                                                                                        \
  PMX_OVERLOAD float F(float x);                                                                                       \
  PMX_OVERLOAD half F(half x) { return (half)F((float)x); }                                                            \
  PMX_LANEWISE_1(half, F, half)
#define PMX_HALF_VIA_FLOAT_2(F)                                                                                        \
  PMX_OVERLOAD float F(float x, float y);                                                                              \
  PMX_OVERLOAD half F(half x, half y) { return (half)F((float)x, (float)y); }                                          \
  PMX_LANEWISE_2(half, F, half, half)

PMX_HALF_VIA_FLOAT_1(acos)
PMX_HALF_VIA_FLOAT_1(acosh)
PMX_HALF_VIA_FLOAT_1(acospi)
PMX_HALF_VIA_FLOAT_1(asin)
PMX_HALF_VIA_FLOAT_1(asinh)
PMX_HALF_VIA_FLOAT_1(asinpi)
PMX_HALF_VIA_FLOAT_1(atan)
PMX_HALF_VIA_FLOAT_1(atanh)
PMX_HALF_VIA_FLOAT_1(atanpi)
PMX_HALF_VIA_FLOAT_1(cbrt)
PMX_HALF_VIA_FLOAT_1(cos)
PMX_HALF_VIA_FLOAT_1(cosh)
PMX_HALF_VIA_FLOAT_1(cospi)
PMX_HALF_VIA_FLOAT_1(erf)
PMX_HALF_VIA_FLOAT_1(erfc)
PMX_HALF_VIA_FLOAT_1(exp)
PMX_HALF_VIA_FLOAT_1(exp2)
PMX_HALF_VIA_FLOAT_1(exp10)
PMX_HALF_VIA_FLOAT_1(expm1)
PMX_HALF_VIA_FLOAT_1(lgamma)
PMX_HALF_VIA_FLOAT_1(log)
PMX_HALF_VIA_FLOAT_1(log2)
PMX_HALF_VIA_FLOAT_1(log10)
PMX_HALF_VIA_FLOAT_1(log1p)
PMX_HALF_VIA_FLOAT_1(logb)
PMX_HALF_VIA_FLOAT_1(rsqrt)
PMX_HALF_VIA_FLOAT_1(sin)
PMX_HALF_VIA_FLOAT_1(sinh)
PMX_HALF_VIA_FLOAT_1(sinpi)
PMX_HALF_VIA_FLOAT_1(tan)
PMX_HALF_VIA_FLOAT_1(tanh)
PMX_HALF_VIA_FLOAT_1(tanpi)
PMX_HALF_VIA_FLOAT_1(tgamma)

PMX_HALF_VIA_FLOAT_2(atan2)
PMX_HALF_VIA_FLOAT_2(atan2pi)
PMX_HALF_VIA_FLOAT_2(fmod)
PMX_HALF_VIA_FLOAT_2(hypot)
PMX_HALF_VIA_FLOAT_2(maxmag)
PMX_HALF_VIA_FLOAT_2(minmag)
PMX_HALF_VIA_FLOAT_2(pow)
PMX_HALF_VIA_FLOAT_2(powr)
PMX_HALF_VIA_FLOAT_2(remainder)

PMX_OVERLOAD double fdim(double x, double y);
PMX_OVERLOAD half fdim(half x, half y) { return (half)fdim((double)x, (double)y); }
PMX_LANEWISE_2(half, fdim, half, half)

// ---- integer operands and results ----------------------------------------------------
PMX_OVERLOAD int ilogb(float x);
PMX_OVERLOAD int ilogb(half x) { return ilogb((float)x); }
PMX_LANEWISE_1(int, ilogb, half)

PMX_OVERLOAD float ldexp(float x, int n);
PMX_OVERLOAD half ldexp(half x, int n) { return (half)ldexp((float)x, n); }
PMX_LANEWISE_2(half, ldexp, half, int)
PMX_LANEWISE_2S(half, ldexp, half, int)

PMX_OVERLOAD float pown(float x, int n);
PMX_OVERLOAD float rootn(float x, int n);
PMX_OVERLOAD half pown(half x, int n) { return (half)pown((float)x, n); }
PMX_OVERLOAD half rootn(half x, int n) { return (half)rootn((float)x, n); }
PMX_LANEWISE_2(half, pown, half, int)
PMX_LANEWISE_2(half, rootn, half, int)

// A quiet NaN with `code` in its fraction bits.
PMX_OVERLOAD half nan(ushort code) { return as_half((ushort)(0x7e00u | code)); }
PMX_LANEWISE_1(half, nan, ushort)

// ---- nextafter, on the bits ----------------------------------------------------------
PMX_OVERLOAD half nextafter(half x, half y) {
  if (isnan(x) || isnan(y))
    return x + y;
  if (x == y)
    return y;
  ushort bits = as_ushort(x);
  if ((bits & 0x7fffu) == 0) // +-0: the smallest denormal towards y
    return as_half((ushort)((as_ushort(y) & 0x8000u) | 1u));
  // The magnitude grows when moving away from zero.
  bool away = (y > x) == (x > (half)0);
  return as_half((ushort)(away ? bits + 1u : bits - 1u));
}
PMX_LANEWISE_2(half, nextafter, half, half)

// ---- results through pointers --------------------------------------------------------
PMX_OVERLOAD float frexp(float x, __generic int *e);
PMX_OVERLOAD float lgamma_r(float x, __generic int *signp);
PMX_OVERLOAD float modf(float x, __generic float *iptr);
PMX_OVERLOAD float fract(float x, __generic float *iptr);
PMX_OVERLOAD float sincos(float x, __generic float *cosval);
PMX_OVERLOAD float remquo(float x, float y, __generic int *quo);

PMX_OVERLOAD half frexp(half x, __generic int *e) { return (half)frexp((float)x, e); }
PMX_OVERLOAD half lgamma_r(half x, __generic int *signp) { return (half)lgamma_r((float)x, signp); }
PMX_OVERLOAD half modf(half x, __generic half *iptr) {
  float i;
  half r = (half)modf((float)x, &i);
  *iptr = (half)i;
  return r;
}
PMX_OVERLOAD half fract(half x, __generic half *iptr) {
  float i;
  half r = (half)fract((float)x, &i);
  *iptr = (half)i;
  // A fraction just below 1 rounds to 1 in half: the largest half below 1
  // instead (a NaN compares false and stays).
  return r > 0x1.ffcp-1h ? 0x1.ffcp-1h : r;
}
PMX_OVERLOAD half sincos(half x, __generic half *cosval) {
  float c;
  half s = (half)sincos((float)x, &c);
  *cosval = (half)c;
  return s;
}
PMX_OVERLOAD half remquo(half x, half y, __generic int *quo) { return (half)remquo((float)x, (float)y, quo); }

PMX_FORWARD_1P(half, frexp, half, int)
PMX_FORWARD_1P(half, lgamma_r, half, int)
PMX_FORWARD_1P(half, modf, half, half)
PMX_FORWARD_1P(half, fract, half, half)
PMX_FORWARD_1P(half, sincos, half, half)
PMX_FORWARD_2P(half, remquo, half, half, int)
PMX_LANEWISE_1P(half, frexp, half, int)
PMX_LANEWISE_1P(half, lgamma_r, half, int)
PMX_LANEWISE_1P(half, modf, half, half)
PMX_LANEWISE_1P(half, fract, half, half)
PMX_LANEWISE_1P(half, sincos, half, half)
PMX_LANEWISE_2P(half, remquo, half, half, int)
