// Round-to-nearest, ties-to-max-magnitude (RMM), which x86 cannot do.
//
// RMM and RNE give the same result unless the exact result lies exactly
// halfway between two neighbours and RNE picked the one nearer zero (the
// even one); then RMM gives the other, one unit further from zero. The
// flags are the same in both modes (the halfway cases next to the overflow
// and the underflow thresholds round away from zero in both, since the
// neighbour nearer zero there is odd). So an RMM operation is computed in
// RNE, and when the host reports it inexact, the exact result is compared
// with the midpoint just beyond the RNE result, in exact integer arithmetic.
#pragma once

#include "fp_bits.h"

#include <cstdint>
#include <initializer_list>

namespace riscv_sim::sim::fp {

/// A dyadic value: (-1)^negative * magnitude * 2^exponent.
struct ExactTerm {
  bool negative = false;
  unsigned __int128 magnitude = 0;
  int exponent = 0;
};

/// The exact value of finite `bits`.
template <class Float> ExactTerm exactValue(BitsOf<Float> bits);
ExactTerm exactValue(uint64_t magnitude, bool negative);
/// a * b; both magnitudes must have at most 64 significant bits.
ExactTerm product(const ExactTerm &a, const ExactTerm &b);
ExactTerm negated(ExactTerm a);
/// The midpoint between finite `rounded` and its neighbour further from
/// zero, with the sign of `rounded`.
template <class Float> ExactTerm midpointAwayFromZero(BitsOf<Float> rounded);

/// Whether the terms add up to exactly zero.
bool sumIsZero(std::initializer_list<ExactTerm> terms);

/// The RMM result from the RNE result: `exactMinusMidpoint` are the terms
/// of (exact result - midpointAwayFromZero(rne)), only evaluated when the
/// RNE result was inexact and finite.
template <class Float, class Terms>
BitsOf<Float> nearestMaxMagnitude(BitsOf<Float> rne, bool inexact, Terms exactMinusMidpoint) {
  if (!inexact || isNaN<Float>(rne) || isInfinity<Float>(rne))
    return rne;
  return exactMinusMidpoint(midpointAwayFromZero<Float>(rne)) ? rne + 1 : rne;
}

} // namespace riscv_sim::sim::fp
