// Seeded random instruction streams for the differential test. Streams
// never write x2 (sp), x8 (s0) or x31: sp and s0 point into a scratch area
// that all loads, stores and atomics address (within +-1 KiB), and x31
// holds the address the epilogue stores the registers at. Branches and
// jumps only go forward, a few instructions ahead; the dynamic rounding
// mode stays valid.
#pragma once

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace riscv_sim::sim::test {

enum class StreamClass { Integer, Multiply, Memory, Control, Atomic, Single, Double, Conversion, Compressed, Mixed };
const char *name(StreamClass kind);
inline void PrintTo(StreamClass kind, std::ostream *os) { *os << name(kind); }

/// Instructions as they are laid out: a 16-bit instruction in the low half
/// of its element.
std::vector<uint32_t> generateStream(StreamClass kind, uint64_t seed, unsigned count);

/// Register values that make arithmetic interesting: boundaries, small
/// numbers, random bits; floating-point values: zeros, subnormals,
/// infinities, NaNs (quiet and signalling), ties, values near integer
/// limits, boxed singles (and a few improperly boxed ones) and doubles.
uint64_t interestingInteger(std::mt19937_64 &random);
uint64_t interestingFloatRegister(std::mt19937_64 &random);

} // namespace riscv_sim::sim::test
