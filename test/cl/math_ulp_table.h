// Accuracy bounds of the OpenCL C built-in math functions, from the OpenCL C
// 3.0 specification section 7.4 "Relative Error as ULPs" (the same tables as
// the OpenCL SPIR-V environment spec's "ULP Values for Math Instructions"):
// the full-profile table for float and double, and the table that applies to
// float when a program is built with -cl-fast-relaxed-math (which implies
// -cl-unsafe-math-optimizations).
//
// A bound of 0 means the result must be the correctly rounded (or exact)
// value bit for bit. kUlpUndefined marks functions for which the spec gives
// no bound ("implementation-defined": lgamma, lgamma_r): their special values
// are still checked and their error is reported, but no ULP bound is asserted.
#pragma once

#include <cmath>
#include <string_view>

namespace cltest::math {

inline constexpr double kUlpUndefined = INFINITY;

struct UlpBound {
  std::string_view name;
  double f32; // full profile, float
  double f64; // full profile, double
};

// Full profile. sqrt is 3 ulp in float unless the program is built with
// -cl-fp32-correctly-rounded-divide-sqrt, and correctly rounded in double.
// mad is checked separately: the spec allows either a correctly rounded fma
// or a correctly rounded multiply followed by a correctly rounded add.
inline constexpr UlpBound kFullProfileBounds[] = {
    {"acos", 4, 4},
    {"acosh", 4, 4},
    {"acospi", 5, 5},
    {"asin", 4, 4},
    {"asinh", 4, 4},
    {"asinpi", 5, 5},
    {"atan", 5, 5},
    {"atan2", 6, 6},
    {"atanh", 5, 5},
    {"atanpi", 5, 5},
    {"atan2pi", 6, 6},
    {"cbrt", 2, 2},
    {"ceil", 0, 0},
    {"copysign", 0, 0},
    {"cos", 4, 4},
    {"cosh", 4, 4},
    {"cospi", 4, 4},
    {"erfc", 16, 16},
    {"erf", 16, 16},
    {"exp", 3, 3},
    {"exp2", 3, 3},
    {"exp10", 3, 3},
    {"expm1", 3, 3},
    {"fabs", 0, 0},
    {"fdim", 0, 0},
    {"floor", 0, 0},
    {"fma", 0, 0},
    {"fmax", 0, 0},
    {"fmin", 0, 0},
    {"fmod", 0, 0},
    {"fract", 0, 0},
    {"frexp", 0, 0},
    {"hypot", 4, 4},
    {"ilogb", 0, 0},
    {"ldexp", 0, 0},
    {"lgamma", kUlpUndefined, kUlpUndefined},
    {"lgamma_r", kUlpUndefined, kUlpUndefined},
    {"log", 3, 3},
    {"log2", 3, 3},
    {"log10", 3, 3},
    {"log1p", 2, 2},
    {"logb", 0, 0},
    {"mad", 0, 0},
    {"maxmag", 0, 0},
    {"minmag", 0, 0},
    {"modf", 0, 0},
    {"nan", 0, 0},
    {"nextafter", 0, 0},
    {"pow", 16, 16},
    {"pown", 16, 16},
    {"powr", 16, 16},
    {"remainder", 0, 0},
    {"remquo", 0, 0},
    {"rint", 0, 0},
    {"rootn", 16, 16},
    {"round", 0, 0},
    {"rsqrt", 2, 2},
    {"sin", 4, 4},
    {"sincos", 4, 4},
    {"sinh", 4, 4},
    {"sinpi", 4, 4},
    {"sqrt", 3, 0},
    {"tan", 5, 5},
    {"tanh", 5, 5},
    {"tanpi", 6, 6},
    {"tgamma", 16, 16},
    {"trunc", 0, 0},
};

// half_* functions: at least 10 bits of accuracy, i.e. <= 8192 ulp (float).
// native_* functions have implementation-defined accuracy; the suite only
// checks that they build and return a finite, plausible value.
inline constexpr double kHalfUlp = 8192;

inline double fullProfileBound(std::string_view name, bool isDouble) {
  for (const UlpBound &b : kFullProfileBounds)
    if (b.name == name)
      return isDouble ? b.f64 : b.f32;
  return -1; // unknown: the caller treats it as an error in the table
}

// -cl-fast-relaxed-math, single precision, full profile. Functions that the
// spec lets "derived implementations" compute from others (acosh, exp10,
// pow, tan, sinh...) have no bound a test can assert without knowing how the
// implementation is built, so they are not in this subset. Functions absent
// from the spec's relaxed table keep their full-profile bound (the spec says
// so); a few of those are checked here too. fast-relaxed-math implies
// -cl-finite-math-only: only finite inputs with finite results are checked.
enum class RelaxedKind {
  Ulp,      // |error| <= value ulp
  AbsInPi,  // x in [-pi, pi]: absolute error <= value (sin, cos, sincos)
  AbsInOne, // x in [-1, 1]: absolute error <= value (sinpi, cospi)
  ExpUlp,   // <= 3 + floor(fabs(2 * x)) ulp (exp, exp2)
  LogMixed, // x in [0.5, 2]: absolute error <= 2^-21; otherwise <= 3 ulp
};

struct RelaxedBound {
  std::string_view name;
  RelaxedKind kind;
  double value;
};

inline constexpr RelaxedBound kRelaxedBounds[] = {
    {"acos", RelaxedKind::Ulp, 4096},
    {"asin", RelaxedKind::Ulp, 4096},
    {"atan", RelaxedKind::Ulp, 4096},
    {"sin", RelaxedKind::AbsInPi, 0x1p-11},
    {"cos", RelaxedKind::AbsInPi, 0x1p-11},
    {"sincos", RelaxedKind::AbsInPi, 0x1p-11},
    {"sinpi", RelaxedKind::AbsInOne, 0x1p-11},
    {"cospi", RelaxedKind::AbsInOne, 0x1p-11},
    {"exp", RelaxedKind::ExpUlp, 3},
    {"exp2", RelaxedKind::ExpUlp, 3},
    {"log", RelaxedKind::LogMixed, 3},
    {"log2", RelaxedKind::LogMixed, 3},
    {"log10", RelaxedKind::LogMixed, 3},
    // Not in the relaxed table: the full-profile bounds apply.
    {"sqrt", RelaxedKind::Ulp, 3},
    {"rsqrt", RelaxedKind::Ulp, 2},
    {"hypot", RelaxedKind::Ulp, 4},
    {"fabs", RelaxedKind::Ulp, 0},
    {"floor", RelaxedKind::Ulp, 0},
    {"ceil", RelaxedKind::Ulp, 0},
    {"trunc", RelaxedKind::Ulp, 0},
    {"rint", RelaxedKind::Ulp, 0},
    {"round", RelaxedKind::Ulp, 0},
    {"copysign", RelaxedKind::Ulp, 0},
    {"fmin", RelaxedKind::Ulp, 0},
    {"fmax", RelaxedKind::Ulp, 0},
    {"fdim", RelaxedKind::Ulp, 0},
    {"fmod", RelaxedKind::Ulp, 0},
    {"fma", RelaxedKind::Ulp, 0},
};

} // namespace cltest::math
