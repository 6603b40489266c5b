// RISC-V F and D semantics on host floats and doubles: NaN boxing, canonical
// NaNs, the operations whose flags and results the host does not produce the
// RISC-V way (comparisons, min/max, conversions, classification), and round
// to nearest, ties to max magnitude (RMM), which SSE lacks. Arithmetic itself
// runs on the host in the guest's rounding mode (host_fp_env.h).
#pragma once

#include "host_fp_env.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace riscv_sim::fp {

template <typename T> struct Traits;
template <> struct Traits<float> {
  using Bits = uint32_t;
  static constexpr Bits kCanonicalNaN = 0x7fc00000u;
  static constexpr Bits kQuietBit = 1u << 22;
  static constexpr Bits kExponent = 0x7f800000u;
  static constexpr Bits kMantissa = 0x007fffffu;
};
template <> struct Traits<double> {
  using Bits = uint64_t;
  static constexpr Bits kCanonicalNaN = 0x7ff8000000000000ull;
  static constexpr Bits kQuietBit = 1ull << 51;
  static constexpr Bits kExponent = 0x7ff0000000000000ull;
  static constexpr Bits kMantissa = 0x000fffffffffffffull;
};

constexpr uint64_t kBoxMask = 0xffffffff00000000ull;

template <typename T> T canonicalNaN() { return std::bit_cast<T>(Traits<T>::kCanonicalNaN); }

/// Reads an f register as T: a single that is not NaN-boxed reads as the
/// canonical NaN.
template <typename T> T read(uint64_t reg) {
  if constexpr (sizeof(T) == 4)
    return (reg & kBoxMask) == kBoxMask ? std::bit_cast<float>(static_cast<uint32_t>(reg)) : canonicalNaN<float>();
  else
    return std::bit_cast<double>(reg);
}

template <typename T> uint64_t write(T value) {
  if constexpr (sizeof(T) == 4)
    return kBoxMask | std::bit_cast<uint32_t>(value);
  else
    return std::bit_cast<uint64_t>(value);
}

/// A result as RISC-V writes it: any NaN becomes the canonical NaN.
template <typename T> uint64_t writeResult(T value) { return write(value != value ? canonicalNaN<T>() : value); }

template <typename T> bool isSignaling(T value) {
  using B = typename Traits<T>::Bits;
  B bits = std::bit_cast<B>(value);
  return (bits & Traits<T>::kExponent) == Traits<T>::kExponent && (bits & Traits<T>::kMantissa) != 0 &&
         (bits & Traits<T>::kQuietBit) == 0;
}

/// feq (quiet: NV only for a signalling NaN), flt and fle (NV for any NaN).
template <typename T> bool equal(T a, T b, uint32_t &flags) {
  if (a != a || b != b) {
    if (isSignaling(a) || isSignaling(b))
      flags |= NV;
    return false;
  }
  return a == b;
}
template <typename T> bool less(T a, T b, bool orEqual, uint32_t &flags) {
  if (a != a || b != b) {
    flags |= NV;
    return false;
  }
  return orEqual ? a <= b : a < b;
}

/// fmin/fmax (IEEE 754-2019 minimumNumber/maximumNumber; -0 < +0).
template <typename T> T minMax(T a, T b, bool max, uint32_t &flags) {
  if (isSignaling(a) || isSignaling(b))
    flags |= NV;
  if (a != a && b != b)
    return canonicalNaN<T>();
  if (a != a)
    return b;
  if (b != b)
    return a;
  if (a == b) // equal, or zeros of either sign
    return (std::signbit(a) != max) ? a : b;
  return (a < b) != max ? a : b;
}

/// fclass: one bit of ten.
template <typename T> uint64_t classify(T value) {
  const bool negative = std::signbit(value);
  switch (std::fpclassify(value)) {
  case FP_INFINITE:
    return negative ? 1u << 0 : 1u << 7;
  case FP_NORMAL:
    return negative ? 1u << 1 : 1u << 6;
  case FP_SUBNORMAL:
    return negative ? 1u << 2 : 1u << 5;
  case FP_ZERO:
    return negative ? 1u << 3 : 1u << 4;
  default:
    return isSignaling(value) ? 1u << 8 : 1u << 9;
  }
}

/// `value` rounded to an integer in mode `rm` (no flags).
template <typename T> T roundIntegral(T value, uint8_t rm) {
  if (!(std::fabs(value) < T(1) / std::numeric_limits<T>::epsilon()))
    return value; // already integral, or infinite, or NaN
  switch (rm) {
  case RTZ:
    return std::trunc(value);
  case RDN:
    return std::floor(value);
  case RUP:
    return std::ceil(value);
  case RMM:
    return std::round(value);
  default: {
    T whole = std::trunc(value);
    T fraction = std::fabs(value - whole);
    if (fraction > T(0.5) || (fraction == T(0.5) && std::fmod(whole, T(2)) != 0))
      whole += std::copysign(T(1), value);
    return whole;
  }
  }
}

/// fcvt.{w,wu,l,lu}.{s,d}: saturating, NV for NaN and out of range, NX when
/// inexact. `I` is the integer type converted to.
template <typename I, typename T> I toInteger(T value, uint8_t rm, uint32_t &flags) {
  if (value != value) {
    flags |= NV;
    return std::numeric_limits<I>::max();
  }
  T rounded = roundIntegral(value, rm);
  constexpr T lower = static_cast<T>(std::numeric_limits<I>::min());
  // 2^bits for unsigned, 2^(bits-1) for signed: exactly representable.
  constexpr T upper = std::is_signed_v<I> ? -lower : T(2) * static_cast<T>(I(1) << (sizeof(I) * 8 - 1));
  if (rounded < lower) {
    flags |= NV;
    return std::numeric_limits<I>::min();
  }
  if (rounded >= upper) {
    flags |= NV;
    return std::numeric_limits<I>::max();
  }
  if (rounded != value)
    flags |= NX;
  return static_cast<I>(rounded);
}

/// The candidate of larger magnitude next to `rounded` when the exact value
/// it was rounded (to nearest even) from was a tie that went toward zero:
/// what RMM gives there. `twiceError` is 2 * (exact - rounded) in magnitude
/// and `errorSameSign` tells whether exact - rounded has rounded's sign.
template <typename T> T tieAwayFromZero(T rounded, T twiceErrorMagnitude, bool errorSameSign) {
  if (twiceErrorMagnitude == 0 || !std::isfinite(rounded) || !errorSameSign)
    return rounded;
  T away = std::nextafter(rounded, std::copysign(std::numeric_limits<T>::infinity(), rounded));
  return twiceErrorMagnitude == std::fabs(away - rounded) ? away : rounded;
}

/// fadd/fsub/fmul/fdiv in RMM: round to nearest even on the host, then move
/// a tie away from zero using the exact error of the operation.
template <typename T> T addRmm(T a, T b) {
  T sum = a + b;
  T bVirtual = sum - a;
  T error = (a - (sum - bVirtual)) + (b - bVirtual);
  return tieAwayFromZero(sum, std::fabs(error) * 2, std::signbit(error) == std::signbit(sum));
}
template <typename T> T mulRmm(T a, T b) {
  T product = a * b;
  T error = std::fma(a, b, -product);
  return tieAwayFromZero(product, std::fabs(error) * 2, std::signbit(error) == std::signbit(product));
}
template <typename T> T divRmm(T a, T b) {
  T quotient = a / b;
  if (!std::isfinite(quotient) || quotient == 0)
    return quotient;
  T remainder = std::fma(-quotient, b, a); // a - quotient * b, exact
  T away = std::nextafter(quotient, std::copysign(std::numeric_limits<T>::infinity(), quotient));
  bool towardZero = (std::signbit(remainder) != std::signbit(b)) == std::signbit(quotient);
  if (remainder != 0 && towardZero && std::fabs(remainder) * 2 == std::fabs(b) * std::fabs(away - quotient))
    return away;
  return quotient;
}

/// An integer converted to T in mode `rm`, the host doing the rounding.
template <typename T, typename I> T fromInteger(I value, uint8_t rm, HostFpEnvironment &env) {
  if (rm != RMM) {
    uint8_t previous = env.mode();
    env.setMode(rm);
    T result = static_cast<T>(value);
    env.setMode(previous);
    return result;
  }
  T rounded = static_cast<T>(value); // host mode is RNE while RMM is in force
  __int128 error = static_cast<__int128>(value) - static_cast<__int128>(rounded);
  if (error == 0)
    return rounded;
  T away = std::nextafter(rounded, std::copysign(std::numeric_limits<T>::infinity(), rounded));
  __int128 gap = static_cast<__int128>(away) - static_cast<__int128>(rounded);
  bool towardZero = (error < 0) == std::signbit(rounded);
  __int128 twiceError = error < 0 ? -2 * error : 2 * error;
  return towardZero && twiceError == (gap < 0 ? -gap : gap) ? away : rounded;
}

/// fcvt.s.d in mode `rm`.
inline float narrow(double value, uint8_t rm, HostFpEnvironment &env) {
  if (rm != RMM) {
    uint8_t previous = env.mode();
    env.setMode(rm);
    float result = static_cast<float>(value);
    env.setMode(previous);
    return result;
  }
  float rounded = static_cast<float>(value);
  if (!std::isfinite(rounded) || value != value)
    return rounded;
  double error = value - static_cast<double>(rounded); // exact: the two are within one float ulp
  if (error == 0 || std::signbit(error) != std::signbit(rounded))
    return rounded;
  float away = std::nextafter(rounded, std::copysign(std::numeric_limits<float>::infinity(), rounded));
  return std::fabs(error) * 2 == std::fabs(static_cast<double>(away) - static_cast<double>(rounded)) ? away : rounded;
}

} // namespace riscv_sim::fp
