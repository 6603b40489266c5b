// An independent binary16 reference for the half-precision tests: conversions
// between half bit patterns and double, done on the bits (no _Float16, no
// F16C), rounding once in any of the four rounding modes, with denormals,
// infinities and NaNs.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace cltest::half_ref {

enum class Rounding { Nearest, Zero, Up, Down };

/// The value of the binary16 pattern `h` (exact in double).
inline double toDouble(uint16_t h) {
  const bool negative = h & 0x8000;
  const int field = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  double magnitude;
  if (field == 0x1f)
    magnitude = fraction ? std::nan("") : INFINITY;
  else if (field == 0)
    magnitude = std::ldexp(double(fraction), -24);
  else
    magnitude = std::ldexp(double(fraction | 0x400), field - 25);
  return negative ? -magnitude : magnitude;
}

/// `x` rounded to binary16 in `mode`. In round to nearest, `tail` (far
/// below half an ulp of x in double) stands for the rest of an exact value
/// x + tail that double could not hold: it breaks ties, so that a sum
/// computed as a double-double rounds correctly.
inline uint16_t fromDouble(double x, Rounding mode = Rounding::Nearest, double tail = 0.0) {
  if (std::isnan(x))
    return 0x7e00;
  const bool negative = std::signbit(x);
  const uint16_t sign = negative ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (std::isinf(a))
    return sign | 0x7c00;
  const bool upward = (mode == Rounding::Up && !negative) || (mode == Rounding::Down && negative);
  const bool towardZero = !upward && mode != Rounding::Nearest;
  // One unit is one ulp of the result: 2^-24 for denormals, 2^(e - 10) for
  // a normal of exponent e.
  const int exponent = a == 0.0 ? -25 : std::ilogb(a);
  const int ulpExponent = exponent < -14 ? -24 : exponent - 10;
  const double scaled = std::ldexp(a, -ulpExponent); // exact
  const double integral = std::floor(scaled);
  const double rest = scaled - integral;       // exact, in [0, 1)
  const double away = negative ? -tail : tail; // > 0: the exact value is farther from 0
  bool increment;
  if (towardZero)
    increment = false;
  else if (upward)
    increment = rest > 0.0;
  else if (rest != 0.5)
    increment = rest > 0.5;
  else
    increment = away != 0.0 ? away > 0.0 : std::fmod(integral, 2.0) != 0.0;
  const double magnitude = std::ldexp(integral + (increment ? 1.0 : 0.0), ulpExponent);
  if (magnitude > 65504.0)
    return sign | (towardZero ? 0x7bff : 0x7c00);
  if (magnitude < std::ldexp(1.0, -14))
    return sign | uint16_t(std::ldexp(magnitude, 24));
  const int e = std::ilogb(magnitude);
  const uint16_t fraction = uint16_t(std::ldexp(magnitude, 10 - e)) & 0x3ff;
  return sign | uint16_t((e + 15) << 10) | fraction;
}

/// Whether `x` rounds to an infinite half (to nearest).
inline bool overflows(double x) { return std::fabs(x) >= 65520.0; }

inline bool isNan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/// The distance in half ulps between the half `got` and the exact value
/// `exact` (the ulp of the binade of `exact`). An infinite `got` is exact
/// where `exact` rounds to infinity, and counts as 2^16 elsewhere, as in the
/// CTS.
inline double ulpError(uint16_t got, double exact) {
  double g = toDouble(got);
  if (std::isnan(exact) || isNan(got))
    return std::isnan(exact) && isNan(got) ? 0.0 : INFINITY;
  if (std::isinf(exact))
    return g == exact ? 0.0 : INFINITY;
  if (std::isinf(g)) {
    // Right where the exact value rounds to infinity.
    if (overflows(exact) && std::signbit(g) == std::signbit(exact))
      return 0.0;
    g = std::copysign(65536.0, g);
  }
  double a = std::fabs(exact);
  int exponent = a == 0.0 ? -25 : std::ilogb(a);
  int ulpExponent = exponent < -14 ? -24 : exponent - 10;
  return std::fabs(g - exact) / std::ldexp(1.0, ulpExponent);
}

} // namespace cltest::half_ref
