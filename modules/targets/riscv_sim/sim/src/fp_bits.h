// Bit-level facts about binary32/binary64 values and the RISC-V rules for
// holding singles in 64-bit registers (NaN boxing) and canonical NaNs.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace riscv_sim::sim::fp {

// RISC-V fflags bits.
enum Flag : uint32_t { Inexact = 1, Underflow = 2, Overflow = 4, DivideByZero = 8, Invalid = 16 };

template <class Float> struct Format;
template <> struct Format<float> {
  using Bits = uint32_t;
  static constexpr Bits canonicalNaN = 0x7fc00000u;
  static constexpr Bits signBit = 0x80000000u;
  static constexpr Bits exponentMask = 0x7f800000u;
  static constexpr Bits quietBit = 0x00400000u;
  static constexpr int mantissaBits = 23;
  static constexpr int bias = 127;
};
template <> struct Format<double> {
  using Bits = uint64_t;
  static constexpr Bits canonicalNaN = 0x7ff8000000000000ull;
  static constexpr Bits signBit = 0x8000000000000000ull;
  static constexpr Bits exponentMask = 0x7ff0000000000000ull;
  static constexpr Bits quietBit = 0x0008000000000000ull;
  static constexpr int mantissaBits = 52;
  static constexpr int bias = 1023;
};

template <class Float> using BitsOf = typename Format<Float>::Bits;

template <class Float> constexpr bool isNaN(BitsOf<Float> b) {
  return (b & ~Format<Float>::signBit) > Format<Float>::exponentMask;
}
template <class Float> constexpr bool isSignalingNaN(BitsOf<Float> b) {
  return isNaN<Float>(b) && !(b & Format<Float>::quietBit);
}
template <class Float> constexpr bool isInfinity(BitsOf<Float> b) {
  return (b & ~Format<Float>::signBit) == Format<Float>::exponentMask;
}
template <class Float> constexpr bool isZero(BitsOf<Float> b) { return (b & ~Format<Float>::signBit) == 0; }
template <class Float> constexpr bool isNegative(BitsOf<Float> b) { return (b & Format<Float>::signBit) != 0; }

/// A single held in an f register: improperly boxed values read as the
/// canonical NaN.
constexpr uint32_t unbox(uint64_t r) { return (r >> 32) == 0xffffffffu ? static_cast<uint32_t>(r) : 0x7fc00000u; }
constexpr uint64_t box(uint32_t b) { return 0xffffffff00000000ull | b; }

/// Register image of a result: singles boxed, doubles as they are.
constexpr uint64_t toRegister(uint32_t b) { return box(b); }
constexpr uint64_t toRegister(uint64_t b) { return b; }
/// Operand of the given precision from a register image.
template <class Float> constexpr BitsOf<Float> fromRegister(uint64_t r) {
  if constexpr (sizeof(Float) == 4)
    return unbox(r);
  else
    return r;
}

/// Keeps the compiler from moving a floating-point operation across a change
/// of the host rounding mode or a read of the host flags, and from folding
/// it at compile time (-frounding-math is not a complete guarantee in GCC).
template <class T> inline T opaque(T value) {
  if constexpr (!std::is_floating_point_v<T>) {
    asm volatile("" : "+r"(value));
  } else {
#if defined(__x86_64__) || defined(__i386__)
    asm volatile("" : "+x"(value));
#elif defined(__aarch64__)
    asm volatile("" : "+w"(value));
#else
    asm volatile("" : "+m"(value));
#endif
  }
  return value;
}

template <class Float> inline Float toHost(BitsOf<Float> b) { return opaque(std::bit_cast<Float>(b)); }
/// Bits of an arithmetic result, NaNs made canonical as RISC-V requires.
template <class Float> inline BitsOf<Float> fromHost(Float value) {
  BitsOf<Float> b = std::bit_cast<BitsOf<Float>>(opaque(value));
  return isNaN<Float>(b) ? Format<Float>::canonicalNaN : b;
}

} // namespace riscv_sim::sim::fp
