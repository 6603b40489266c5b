#include "fp_nearest_max_magnitude.h"

#include <algorithm>
#include <array>

namespace riscv_sim::sim::fp {
namespace {

/// Fixed-width two's-complement integer wide enough for any sum of the
/// terms above: exponents of products and midpoints of doubles span about
/// 4,200 bits, magnitudes add 128.
class WideInteger {
public:
  void add(unsigned __int128 magnitude, unsigned shift, bool subtract) {
    unsigned word = shift / 64, bitShift = shift % 64;
    uint64_t low = static_cast<uint64_t>(magnitude), high = static_cast<uint64_t>(magnitude >> 64);
    uint64_t parts[3] = {low << bitShift, bitShift ? (high << bitShift) | (low >> (64 - bitShift)) : high,
                         bitShift ? high >> (64 - bitShift) : 0};
    uint64_t carry = 0;
    for (unsigned i = word; i < words_.size(); ++i) {
      uint64_t part = i - word < 3 ? parts[i - word] : 0;
      if (part == 0 && carry == 0 && i - word >= 3)
        break;
      uint64_t before = words_[i];
      if (subtract) {
        uint64_t result = before - part - carry;
        carry = (before < part) || (before - part < carry);
        words_[i] = result;
      } else {
        uint64_t result = before + part + carry;
        carry = (result < before) || (carry && result == before);
        words_[i] = result;
      }
    }
  }
  bool isZero() const {
    return std::all_of(words_.begin(), words_.end(), [](uint64_t w) { return w == 0; });
  }

private:
  std::array<uint64_t, 72> words_{};
};

} // namespace

template <class Float> ExactTerm exactValue(BitsOf<Float> bits) {
  using F = Format<Float>;
  constexpr int mantissaBits = F::mantissaBits;
  BitsOf<Float> biasedExponent = (bits & F::exponentMask) >> mantissaBits;
  BitsOf<Float> fraction = bits & ((BitsOf<Float>(1) << mantissaBits) - 1);
  ExactTerm term;
  term.negative = isNegative<Float>(bits);
  term.magnitude = biasedExponent ? fraction | (BitsOf<Float>(1) << mantissaBits) : fraction;
  term.exponent = static_cast<int>(std::max<BitsOf<Float>>(biasedExponent, 1)) - F::bias - mantissaBits;
  return term;
}
template ExactTerm exactValue<float>(uint32_t);
template ExactTerm exactValue<double>(uint64_t);

ExactTerm exactValue(uint64_t magnitude, bool negative) { return {negative, magnitude, 0}; }

ExactTerm product(const ExactTerm &a, const ExactTerm &b) {
  return {a.negative != b.negative, a.magnitude * b.magnitude, a.exponent + b.exponent};
}

ExactTerm negated(ExactTerm a) {
  a.negative = !a.negative;
  return a;
}

template <class Float> ExactTerm midpointAwayFromZero(BitsOf<Float> rounded) {
  ExactTerm term = exactValue<Float>(rounded);
  term.magnitude = 2 * term.magnitude + 1;
  term.exponent -= 1;
  return term;
}
template ExactTerm midpointAwayFromZero<float>(uint32_t);
template ExactTerm midpointAwayFromZero<double>(uint64_t);

bool sumIsZero(std::initializer_list<ExactTerm> terms) {
  int lowest = 0;
  bool first = true;
  for (const ExactTerm &term : terms)
    if (term.magnitude != 0 && (first || term.exponent < lowest))
      lowest = term.exponent, first = false;
  WideInteger sum;
  for (const ExactTerm &term : terms)
    if (term.magnitude != 0)
      sum.add(term.magnitude, static_cast<unsigned>(term.exponent - lowest), term.negative);
  return sum.isZero();
}

} // namespace riscv_sim::sim::fp
