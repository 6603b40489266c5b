// RV64IM arithmetic whose C++ form is not a single operator: the
// multiply-high variants and division with RISC-V's rules (no traps:
// division by zero gives all ones, overflow gives the dividend).
#pragma once

#include <cstdint>
#include <limits>

namespace riscv_sim::sim::integer {

constexpr uint64_t signExtend32(uint64_t value) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(value)));
}

constexpr uint64_t multiplyHighSigned(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b)) >> 64);
}
constexpr uint64_t multiplyHighUnsigned(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}
constexpr uint64_t multiplyHighSignedUnsigned(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<__int128>(b)) >> 64);
}

template <class Signed> constexpr Signed divideSigned(Signed a, Signed b) {
  if (b == 0)
    return -1;
  if (a == std::numeric_limits<Signed>::min() && b == -1)
    return a;
  return a / b;
}
template <class Signed> constexpr Signed remainderSigned(Signed a, Signed b) {
  if (b == 0)
    return a;
  if (a == std::numeric_limits<Signed>::min() && b == -1)
    return 0;
  return a % b;
}
template <class Unsigned> constexpr Unsigned divideUnsigned(Unsigned a, Unsigned b) {
  return b == 0 ? std::numeric_limits<Unsigned>::max() : a / b;
}
template <class Unsigned> constexpr Unsigned remainderUnsigned(Unsigned a, Unsigned b) { return b == 0 ? a : a % b; }

} // namespace riscv_sim::sim::integer
