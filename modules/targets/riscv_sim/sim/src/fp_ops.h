// The F and D operations on operand bits. Arithmetic runs on the host FPU
// in the current host rounding mode (the caller sets it) and leaves its
// exception flags in the host flags; everything whose RISC-V flags differ
// from what the host would raise is done with integer checks and
// Environment::raise.
#pragma once

#include "fp_bits.h"
#include "fp_environment.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace riscv_sim::sim::fp {

template <class Float> inline BitsOf<Float> add(BitsOf<Float> a, BitsOf<Float> b) {
  return fromHost<Float>(toHost<Float>(a) + toHost<Float>(b));
}
template <class Float> inline BitsOf<Float> subtract(BitsOf<Float> a, BitsOf<Float> b) {
  return fromHost<Float>(toHost<Float>(a) - toHost<Float>(b));
}
template <class Float> inline BitsOf<Float> multiply(BitsOf<Float> a, BitsOf<Float> b) {
  return fromHost<Float>(toHost<Float>(a) * toHost<Float>(b));
}
template <class Float> inline BitsOf<Float> divide(BitsOf<Float> a, BitsOf<Float> b) {
  return fromHost<Float>(toHost<Float>(a) / toHost<Float>(b));
}
template <class Float> inline BitsOf<Float> squareRoot(BitsOf<Float> a) {
  return fromHost<Float>(std::sqrt(toHost<Float>(a)));
}

template <class Float> constexpr BitsOf<Float> negate(BitsOf<Float> a) { return a ^ Format<Float>::signBit; }

/// a * b + c with one rounding. RISC-V raises invalid for inf * 0 even when
/// c is a quiet NaN, which hosts need not do.
template <class Float>
inline BitsOf<Float> fusedMultiplyAdd(Environment &env, BitsOf<Float> a, BitsOf<Float> b, BitsOf<Float> c) {
  if ((isInfinity<Float>(a) && isZero<Float>(b)) || (isZero<Float>(a) && isInfinity<Float>(b)))
    env.raise(Invalid);
  return fromHost<Float>(std::fma(toHost<Float>(a), toHost<Float>(b), toHost<Float>(c)));
}

template <class Float> constexpr BitsOf<Float> injectSign(BitsOf<Float> a, BitsOf<Float> signSource) {
  return (a & ~Format<Float>::signBit) | (signSource & Format<Float>::signBit);
}

/// fmin/fmax of the ratified F 2.2: a NaN operand yields the other one, two
/// NaNs the canonical NaN, signalling NaNs raise invalid, -0 < +0.
template <class Float> inline BitsOf<Float> minOrMax(Environment &env, BitsOf<Float> a, BitsOf<Float> b, bool max) {
  if (isSignalingNaN<Float>(a) || isSignalingNaN<Float>(b))
    env.raise(Invalid);
  if (isNaN<Float>(a))
    return isNaN<Float>(b) ? Format<Float>::canonicalNaN : b;
  if (isNaN<Float>(b))
    return a;
  if (isZero<Float>(a) && isZero<Float>(b))
    return max ? (a & b) : (a | b);
  bool aLess = toHost<Float>(a) < toHost<Float>(b);
  return aLess != max ? a : b;
}

enum class Comparison { Equal, Less, LessOrEqual };

/// feq is quiet (invalid only for signalling NaNs), flt and fle signal on
/// any NaN.
template <class Float> inline uint64_t compare(Environment &env, BitsOf<Float> a, BitsOf<Float> b, Comparison kind) {
  if (isNaN<Float>(a) || isNaN<Float>(b)) {
    if (kind != Comparison::Equal || isSignalingNaN<Float>(a) || isSignalingNaN<Float>(b))
      env.raise(Invalid);
    return 0;
  }
  Float x = toHost<Float>(a), y = toHost<Float>(b);
  switch (kind) {
  case Comparison::Equal:
    return x == y;
  case Comparison::Less:
    return x < y;
  default:
    return x <= y;
  }
}

template <class Float> constexpr uint64_t classify(BitsOf<Float> a) {
  constexpr BitsOf<Float> exponentMask = Format<Float>::exponentMask;
  bool negative = isNegative<Float>(a);
  BitsOf<Float> exponent = a & exponentMask;
  if (isNaN<Float>(a))
    return isSignalingNaN<Float>(a) ? 1u << 8 : 1u << 9;
  if (isInfinity<Float>(a))
    return negative ? 1u << 0 : 1u << 7;
  if (isZero<Float>(a))
    return negative ? 1u << 3 : 1u << 4;
  if (exponent == 0)
    return negative ? 1u << 2 : 1u << 5;
  return negative ? 1u << 1 : 1u << 6;
}

/// `value` rounded to an integer in rounding mode `rm` (0..4), in integer
/// arithmetic: GCC expands trunc and floor inline with conversions that
/// raise inexact. `value` is not a NaN; the sign of a zero result is kept.
template <class Float> inline Float roundToIntegral(Float value, unsigned rm) {
  using F = Format<Float>;
  using Bits = BitsOf<Float>;
  Bits bits = std::bit_cast<Bits>(value);
  Bits sign = bits & F::signBit, magnitude = bits & ~F::signBit;
  int exponent = static_cast<int>(magnitude >> F::mantissaBits) - F::bias;
  if (exponent >= F::mantissaBits)
    return value; // integral already, or infinite
  Bits integerPart, remainder, half;
  if (exponent < 0) { // |value| < 1: compare the magnitude with 0.5
    integerPart = 0;
    remainder = magnitude;
    half = std::bit_cast<Bits>(static_cast<Float>(0.5));
  } else {
    int fractionBits = F::mantissaBits - exponent;
    Bits significand = (magnitude & ((Bits(1) << F::mantissaBits) - 1)) | (Bits(1) << F::mantissaBits);
    integerPart = significand >> fractionBits;
    remainder = significand & ((Bits(1) << fractionBits) - 1);
    half = Bits(1) << (fractionBits - 1);
  }
  bool awayFromZero = false;
  switch (rm) {
  case 0:
    awayFromZero = remainder > half || (remainder == half && (integerPart & 1));
    break;
  case 1:
    break;
  case 2:
    awayFromZero = sign && remainder;
    break;
  case 3:
    awayFromZero = !sign && remainder;
    break;
  default:
    awayFromZero = remainder >= half;
    break;
  }
  Bits rounded = std::bit_cast<Bits>(static_cast<Float>(integerPart + (awayFromZero ? 1 : 0)));
  return std::bit_cast<Float>(rounded | sign);
}

/// An integral value in (-2^63, 2^64) as the two's-complement integer,
/// using integer arithmetic above 2^63: the compiler's own conversion of
/// large unsigned values may compute x - 2^63 for every x and raise inexact.
template <class Float> inline uint64_t integralToUnsigned(Float value) {
  constexpr Float twoTo63 = 9223372036854775808.0;
  if (!(value >= twoTo63))
    return static_cast<uint64_t>(static_cast<int64_t>(opaque(value)));
  using F = Format<Float>;
  BitsOf<Float> bits = std::bit_cast<BitsOf<Float>>(value);
  int shift = static_cast<int>((bits & F::exponentMask) >> F::mantissaBits) - F::bias - F::mantissaBits;
  uint64_t significand = (bits & ((BitsOf<Float>(1) << F::mantissaBits) - 1)) | (BitsOf<Float>(1) << F::mantissaBits);
  return significand << shift;
}

/// fcvt.{w,wu,l,lu}.{s,d}: saturating, NaN converts to the largest value,
/// invalid when out of range, inexact otherwise when not integral. 32-bit
/// results are sign-extended.
template <class Float, class Integer> inline uint64_t toInteger(Environment &env, BitsOf<Float> a, unsigned rm) {
  using Limits = std::numeric_limits<Integer>;
  constexpr Float lowest = static_cast<Float>(Limits::min());
  // 2^bits or 2^(bits-1): exactly representable, unlike the largest value.
  constexpr Float aboveHighest = static_cast<Float>(Limits::max() / 2 + 1) * 2;
  auto signExtend = [](Integer v) -> uint64_t {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<std::make_signed_t<Integer>>(v)));
  };
  if (isNaN<Float>(a)) {
    env.raise(Invalid);
    return signExtend(Limits::max());
  }
  Float value = toHost<Float>(a);
  Float rounded = roundToIntegral(value, rm);
  if (!(rounded >= lowest && rounded < aboveHighest)) {
    env.raise(Invalid);
    return signExtend(isNegative<Float>(a) ? Limits::min() : Limits::max());
  }
  if (rounded != value)
    env.raise(Inexact);
  return signExtend(static_cast<Integer>(integralToUnsigned<Float>(rounded)));
}

/// fcvt.{s,d}.{w,wu,l,lu}: rounds in the host rounding mode.
template <class Float, class Integer> inline BitsOf<Float> fromInteger(uint64_t value) {
  return fromHost<Float>(static_cast<Float>(opaque(static_cast<Integer>(value))));
}

inline uint32_t narrow(uint64_t a) { return fromHost<float>(static_cast<float>(toHost<double>(a))); }
inline uint64_t widen(uint32_t a) { return fromHost<double>(static_cast<double>(toHost<float>(a))); }

} // namespace riscv_sim::sim::fp
