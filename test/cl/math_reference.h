// Host reference for the OpenCL C built-in math functions, computed with
// MPFR, and the ULP error of a device result measured the way the
// conformance tests measure it.
//
// Each result has two forms:
//  - the correctly rounded value in the target format (float or double),
//    computed by MPFR directly at the target precision with the target's
//    exponent range and mpfr_subnormalize, so it is correctly rounded
//    including subnormals, overflow and hard-to-round cases (MPFR's Ziv loop
//    takes care of those);
//  - the exact value at 128 bits (as a scaled double-double), against which
//    the error of a device result is measured. 128 bits is ample: the error
//    this adds to a measured ULP error is below 2^-70 ulp.
//
// Functions that are pure bit manipulation or exactly specified integer
// results (frexp, ilogb, logb, nextafter, copysign, fabs, nan) use the host
// C library, which computes them exactly.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

namespace cltest::math {

enum class Format { F32, F64 };

// One floating-point result of a function.
struct RefValue {
  enum Kind { Finite, Zero, Inf, NaN };
  Kind kind = NaN; // kind of the exact value
  double cr = NAN; // correctly rounded to the target format
  double hi = 0;   // exact value = (hi + lo) * 2^exp, 1 <= |hi| <= 2
  double lo = 0;   // (only for kind == Finite)
  int exp = 0;
};

// How an integer result is checked.
enum class IntCheck {
  None,    // not checked (unspecified by the spec for this input)
  Exact,   // ilogb, frexp's exponent
  QuoLow7, // remquo: sign of x/y and the low 7 bits of |quotient|
  Sign,    // lgamma_r: the sign of gamma(x)
};

struct Reference {
  RefValue value;  // the returned value
  RefValue value2; // sincos: cos; fract, modf: *iptr; mad: see below
  bool hasValue2 = false;
  bool alternative = false; // mad: value2 (multiply then add) is accepted
                            // instead of value (fused)
  long long intValue = 0;   // ilogb's result; frexp, remquo, lgamma_r: *ptr
  IntCheck intCheck = IntCheck::None;
  bool zeroSignFree = false; // value: ±0 both accepted (fmin/fmax/maxmag/minmag
                             // of ±0, ±0; fract of integers)
};

// True when evaluate() knows `name` (without half_/native_ prefixes, plus
// "divide" and "recip" for those prefixes).
bool hasReference(std::string_view name);

// Evaluates `name` on float/double arguments a, b, c (those the function
// takes) and the integer argument n (ldexp, pown, rootn exponent; nan code).
// Arguments must be representable in the format.
Reference evaluate(std::string_view name, Format fmt, double a, double b = 0, double c = 0, long long n = 0);

struct UlpResult {
  double ulps = 0;               // |error| in ulps of the exact value's binade
  bool special = false;          // categorical mismatch: nan vs number, wrong
                                 // infinity, number for an infinity, wrong zero sign
  bool correctlyRounded = false; // the result is the correctly rounded one
};

// Error of `test` against `ref`. The ulp is that of the exact value's binade
// in the target format (the subnormal ulp below the normal range, the
// largest binade's ulp above it); an infinite result for a finite exact value
// counts as 2^(emax+1), as in the CTS.
UlpResult ulpError(double test, const RefValue &ref, Format fmt, bool ignoreZeroSign = false);

// |test - exact|, for the relaxed-math absolute error bounds.
double absError(double test, const RefValue &ref);

// Same bits, or both NaN.
bool sameResult(double a, double b);

// Largest finite, smallest normal, smallest subnormal of the format.
double formatMax(Format fmt);
double formatMinNormal(Format fmt);
double formatDenormMin(Format fmt);
// Rounds a double to the format (float: to nearest float).
double toFormat(Format fmt, double x);

} // namespace cltest::math
