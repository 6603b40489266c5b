// F and D corner cases with hand-derived expected bit patterns (the
// derivation is in the comment next to each). Every operation runs as one
// instruction with rd = 10, rs1 = 11, rs2 = 12, rs3 = 13 (f or x registers
// as the instruction says) and fflags cleared before it.
#include "test_machine.h"

#include <cfenv>
#include <gtest/gtest.h>

using namespace riscv_sim::sim;
using namespace riscv_sim::sim::test;
namespace e = riscv_sim::sim::encode;

namespace {

enum Flags : uint32_t { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };
enum Rm : uint32_t { RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4, DYN = 7 };

constexpr uint64_t boxed(uint32_t single) { return 0xffffffff00000000ull | single; }

struct Outcome {
  uint64_t f;     ///< f10
  uint64_t x;     ///< x10
  uint32_t flags; ///< fflags after the instruction
};

Outcome execute(uint32_t instruction, uint64_t rs1, uint64_t rs2 = 0, uint64_t rs3 = 0, uint32_t frm = RNE) {
  TestMachine machine({instruction, e::ret()});
  HartState &state = machine.state();
  state.f[11] = state.x[11] = rs1;
  state.f[12] = state.x[12] = rs2;
  state.f[13] = rs3;
  state.fcsr = frm << 5;
  RunResult result = machine.run();
  EXPECT_EQ(result.cause, StopReason::Returned) << result.describe();
  return {state.f[10], state.x[10], state.fcsr & 0x1f};
}

// funct7 of OP-FP operations; the format (0 single, 1 double) is added.
constexpr uint32_t fadd = 0x00, fsub = 0x04, fmul = 0x08, fdiv = 0x0c, fsqrt = 0x2c, fsgnj = 0x10, fminmax = 0x14,
                   fcompare = 0x50, ftoint = 0x60, fromint = 0x68, fmvx = 0x70, fmvf = 0x78;
constexpr uint32_t S = 0, D = 1;

uint32_t op(uint32_t funct7, uint32_t rm, uint32_t rs2 = 12) { return e::opFp(funct7, 10, 11, rs2, rm); }

} // namespace

TEST(FloatingPoint, EveryRoundingModeOnInexactSums) {
  // 1 + 3 * 2^-24 lies halfway between 1 + 2^-23 (0x3f800001, odd) and
  // 1 + 2^-22 (0x3f800002, even).
  const uint64_t one = boxed(0x3f800000), threeTwoToMinus24 = boxed(0x34400000);
  const uint32_t expected[5] = {0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002, 0x3f800002};
  for (uint32_t rm = RNE; rm <= RMM; ++rm) {
    Outcome o = execute(op(fadd | S, rm), one, threeTwoToMinus24);
    EXPECT_EQ(o.f, boxed(expected[rm])) << "rm " << rm;
    EXPECT_EQ(o.flags, NX) << "rm " << rm;
  }
  // Negated: RDN now moves away from zero, RUP toward it.
  const uint32_t negative[5] = {0xbf800002, 0xbf800001, 0xbf800002, 0xbf800001, 0xbf800002};
  for (uint32_t rm = RNE; rm <= RMM; ++rm)
    EXPECT_EQ(execute(op(fadd | S, rm), boxed(0xbf800000), boxed(0xb4400000)).f, boxed(negative[rm])) << rm;
  // 1 + 2^-24: halfway between 1 (even) and 1 + 2^-23: RNE keeps 1, RMM
  // goes away from zero.
  const uint32_t tie[5] = {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001, 0x3f800001};
  for (uint32_t rm = RNE; rm <= RMM; ++rm)
    EXPECT_EQ(execute(op(fadd | S, rm), one, boxed(0x33800000)).f, boxed(tie[rm])) << rm;
  // The same in double: 1 + 2^-53.
  EXPECT_EQ(execute(op(fadd | D, RNE), 0x3ff0000000000000, 0x3ca0000000000000).f, 0x3ff0000000000000u);
  EXPECT_EQ(execute(op(fadd | D, RMM), 0x3ff0000000000000, 0x3ca0000000000000).f, 0x3ff0000000000001u);
  // -1 - 2^-53 in RMM: away from zero is downward.
  EXPECT_EQ(execute(op(fadd | D, RMM), 0xbff0000000000000, 0xbca0000000000000).f, 0xbff0000000000001u);
}

TEST(FloatingPoint, DynamicRoundingModeComesFromFrm) {
  const uint64_t one = boxed(0x3f800000), threeTwoToMinus24 = boxed(0x34400000);
  EXPECT_EQ(execute(op(fadd | S, DYN), one, threeTwoToMinus24, 0, RTZ).f, boxed(0x3f800001));
  EXPECT_EQ(execute(op(fadd | S, DYN), one, boxed(0x33800000), 0, RMM).f, boxed(0x3f800001));
  // A static mode wins over frm.
  EXPECT_EQ(execute(op(fadd | S, RUP), one, boxed(0x33800000), 0, RTZ).f, boxed(0x3f800001));
}

TEST(FloatingPoint, RoundNearestMaxMagnitudeInEveryRoundedOperation) {
  // 3 * (1 + 2^-23) = 3 + 3 * 2^-23: in [2, 4) the spacing is 2^-22, so the
  // exact product is 3 + 2^-22 + 2^-23, a tie between 0x40400001 and
  // 0x40400002; RNE picks the even 0x40400002, as does RMM (away).
  EXPECT_EQ(execute(op(fmul | S, RMM), boxed(0x40400000), boxed(0x3f800001)).f, boxed(0x40400002));
  // (1 + 2^-23) * (1 + 2^-23) = 1 + 2^-22 + 2^-46: not a tie, above the
  // midpoint of nothing: exactly 1 + 2^-22 plus a little: RMM = RNE.
  EXPECT_EQ(execute(op(fmul | S, RMM), boxed(0x3f800001), boxed(0x3f800001)).f, boxed(0x3f800002));
  // 1 - 2^-25 = (1 - 2^-24) + 2^-25: a tie between 0x3f7fffff (odd) and 1.
  EXPECT_EQ(execute(op(fsub | S, RMM), boxed(0x3f800000), boxed(0x33000000)).f, boxed(0x3f800000));
  // fdiv.s: 1 / 3 is never a tie; RMM equals RNE (0x3eaaaaab).
  EXPECT_EQ(execute(op(fdiv | S, RMM), boxed(0x3f800000), boxed(0x40400000)).f, boxed(0x3eaaaaab));
  // fdiv.s in the subnormal range: 2^-149 * 3 / 2 = 1.5 * 2^-149, a tie
  // between 2^-149 (odd) and 2^-148: both RNE and RMM give 2^-148 (0x2);
  // 2^-149 / 2 is a tie between 0 (even) and 2^-149: RMM gives 2^-149.
  EXPECT_EQ(execute(op(fdiv | S, RMM), boxed(0x00000003), boxed(0x40000000)).f, boxed(0x00000002));
  EXPECT_EQ(execute(op(fdiv | S, RNE), boxed(0x00000001), boxed(0x40000000)).f, boxed(0x00000000));
  Outcome halfOfSmallest = execute(op(fdiv | S, RMM), boxed(0x00000001), boxed(0x40000000));
  EXPECT_EQ(halfOfSmallest.f, boxed(0x00000001));
  EXPECT_EQ(halfOfSmallest.flags, UF | NX);
  // fmadd.d: 1 * 1 + 2^-53 is a tie: RMM gives 1 + 2^-52.
  EXPECT_EQ(execute(e::fmadd(true, 10, 11, 12, 13, RMM), 0x3ff0000000000000, 0x3ff0000000000000, 0x3ca0000000000000).f,
            0x3ff0000000000001u);
  // fcvt.s.d: 1 + 2^-24 is a tie in single.
  EXPECT_EQ(execute(op(0x20, RNE, 1), 0x3ff0000010000000).f, boxed(0x3f800000));
  EXPECT_EQ(execute(op(0x20, RMM, 1), 0x3ff0000010000000).f, boxed(0x3f800001));
  // fcvt.s.l: 2^24 + 1 is a tie between 2^24 (0x4b800000) and 2^24 + 2.
  EXPECT_EQ(execute(op(fromint | S, RNE, 2), 16777217).f, boxed(0x4b800000));
  EXPECT_EQ(execute(op(fromint | S, RMM, 2), 16777217).f, boxed(0x4b800001));
  EXPECT_EQ(execute(op(fromint | S, RMM, 2), static_cast<uint64_t>(-16777217)).f, boxed(0xcb800001));
}

TEST(FloatingPoint, EachExceptionFlag) {
  // 0 / 0: invalid, canonical NaN.
  Outcome invalid = execute(op(fdiv | S, RNE), boxed(0), boxed(0));
  EXPECT_EQ(invalid.f, boxed(0x7fc00000));
  EXPECT_EQ(invalid.flags, NV);
  // 1 / 0: divide by zero, +inf.
  Outcome divideByZero = execute(op(fdiv | D, RNE), 0x3ff0000000000000, 0);
  EXPECT_EQ(divideByZero.f, 0x7ff0000000000000u);
  EXPECT_EQ(divideByZero.flags, DZ);
  // max * 2: overflow and inexact; +inf in RNE, the largest finite in RTZ.
  Outcome overflow = execute(op(fmul | S, RNE), boxed(0x7f7fffff), boxed(0x40000000));
  EXPECT_EQ(overflow.f, boxed(0x7f800000));
  EXPECT_EQ(overflow.flags, OF | NX);
  EXPECT_EQ(execute(op(fmul | S, RTZ), boxed(0x7f7fffff), boxed(0x40000000)).f, boxed(0x7f7fffff));
  // smallest normal / 2 = 2^-127: tiny but exact, so no underflow.
  Outcome exactTiny = execute(op(fmul | S, RNE), boxed(0x00800000), boxed(0x3f000000));
  EXPECT_EQ(exactTiny.f, boxed(0x00400000));
  EXPECT_EQ(exactTiny.flags, 0u);
  // (1 + 2^-23) * (2^-126 - 2^-149) = 2^-126 - 2^-172: rounds to 2^-126 at
  // 24 bits of precision, so it is not tiny after rounding: inexact only.
  Outcome afterRounding = execute(op(fmul | S, RNE), boxed(0x3f800001), boxed(0x007fffff));
  EXPECT_EQ(afterRounding.f, boxed(0x00800000));
  EXPECT_EQ(afterRounding.flags, NX);
  // (1 - 2^-24) * 2^-126 is tiny and inexact on the subnormal grid.
  Outcome underflow = execute(op(fmul | S, RTZ), boxed(0x3f7fffff), boxed(0x00800000));
  EXPECT_EQ(underflow.f, boxed(0x007fffff));
  EXPECT_EQ(underflow.flags, UF | NX);
  // 1 / 3: inexact.
  EXPECT_EQ(execute(op(fdiv | D, RNE), 0x3ff0000000000000, 0x4008000000000000).flags, NX);
  // sqrt(-1): invalid.
  EXPECT_EQ(execute(op(fsqrt | D, RNE, 0), 0xbff0000000000000).f, 0x7ff8000000000000u);
}

TEST(FloatingPoint, FlagsAccrueAndCsrsCompose) {
  // fdiv.s 1/0 (DZ), then fadd 1 + 2^-24 (NX), then read fflags and fcsr.
  TestMachine machine({op(fdiv | S, RNE), e::opFp(fadd | S, 14, 11, 13, RNE), e::csrrs(a1, 1, zero),
                       e::i(0x73, a2, 5, RUP, 2) /* csrrwi a2, frm, RUP */, e::csrrs(a3, 3, zero), e::ret()});
  machine.state().f[11] = boxed(0x3f800000);
  machine.state().f[12] = boxed(0);
  machine.state().f[13] = boxed(0x33800000);
  machine.state().fcsr = RTZ << 5;
  ASSERT_EQ(machine.run().cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[a1], DZ | NX);
  EXPECT_EQ(machine.state().x[a2], RTZ);
  EXPECT_EQ(machine.state().x[a3], RUP << 5 | DZ | NX);
  EXPECT_EQ(machine.state().fcsr, RUP << 5 | DZ | NX);
}

TEST(FloatingPoint, NanBoxing) {
  // An improperly boxed single reads as the canonical NaN (quiet: no flag).
  Outcome sum = execute(op(fadd | S, RNE), 0x000000003f800000, boxed(0x3f800000));
  EXPECT_EQ(sum.f, boxed(0x7fc00000));
  EXPECT_EQ(sum.flags, 0u);
  // fsgnj.s of it injects the sign into the canonical NaN.
  EXPECT_EQ(execute(op(fsgnj | S, 0), 0x123456783f800000, boxed(0xbf800000)).f, boxed(0xffc00000));
  // fmv.x.w moves the low bits as they are, sign-extended.
  EXPECT_EQ(execute(op(fmvx | S, 0, 0), boxed(0x80000000)).x, 0xffffffff80000000u);
  EXPECT_EQ(execute(op(fmvx | S, 0, 0), 0x0000000012345678).x, 0x12345678u);
  // Results and fmv.w.x are boxed.
  EXPECT_EQ(execute(op(fmvf | S, 0, 0), 0xabcdef0040490fdb).f, boxed(0x40490fdb));
  // fcvt.d.s of an improperly boxed value converts the canonical NaN.
  EXPECT_EQ(execute(op(0x21, RNE, 0), 0x3ff0000000000000).f, 0x7ff8000000000000u);
}

TEST(FloatingPoint, CanonicalNans) {
  Outcome signalling = execute(op(fadd | S, RNE), boxed(0x7f800001), boxed(0x3f800000));
  EXPECT_EQ(signalling.f, boxed(0x7fc00000));
  EXPECT_EQ(signalling.flags, NV);
  Outcome quietPayload = execute(op(fmul | D, RNE), 0xfff8000000000123, 0x3ff0000000000000);
  EXPECT_EQ(quietPayload.f, 0x7ff8000000000000u);
  EXPECT_EQ(quietPayload.flags, 0u);
  // fcvt.s.d of a NaN with payload.
  EXPECT_EQ(execute(op(0x20, RNE, 1), 0x7ff0000000000001).f, boxed(0x7fc00000));
}

TEST(FloatingPoint, MinimumAndMaximumNumber) {
  const uint64_t qnan = boxed(0x7fc00000), snan = boxed(0x7f800001), one = boxed(0x3f800000);
  Outcome o = execute(op(fminmax | S, 0), qnan, one);
  EXPECT_EQ(o.f, one);
  EXPECT_EQ(o.flags, 0u);
  o = execute(op(fminmax | S, 1), snan, one);
  EXPECT_EQ(o.f, one);
  EXPECT_EQ(o.flags, NV);
  o = execute(op(fminmax | S, 0), qnan, snan);
  EXPECT_EQ(o.f, boxed(0x7fc00000));
  EXPECT_EQ(o.flags, NV);
  EXPECT_EQ(execute(op(fminmax | S, 0), boxed(0x00000000), boxed(0x80000000)).f, boxed(0x80000000));
  EXPECT_EQ(execute(op(fminmax | S, 1), boxed(0x80000000), boxed(0x00000000)).f, boxed(0x00000000));
  EXPECT_EQ(execute(op(fminmax | D, 0), 0x8000000000000000, 0).f, 0x8000000000000000u);
  EXPECT_EQ(execute(op(fminmax | D, 1), 0xbff0000000000000, 0x7ff8000000000000).f, 0xbff0000000000000u);
}

TEST(FloatingPoint, ComparisonsSignalAsSpecified) {
  const uint64_t qnan = boxed(0x7fc00000), snan = boxed(0x7f800001), one = boxed(0x3f800000);
  Outcome o = execute(op(fcompare | S, 2), qnan, one); // feq: quiet
  EXPECT_EQ(o.x, 0u);
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(execute(op(fcompare | S, 2), snan, one).flags, NV);
  o = execute(op(fcompare | S, 1), qnan, one); // flt: signalling
  EXPECT_EQ(o.x, 0u);
  EXPECT_EQ(o.flags, NV);
  EXPECT_EQ(execute(op(fcompare | S, 0), qnan, one).flags, NV); // fle
  EXPECT_EQ(execute(op(fcompare | S, 0), boxed(0x80000000), boxed(0)).x, 1u);
  EXPECT_EQ(execute(op(fcompare | S, 1), boxed(0x80000000), boxed(0)).x, 0u);
  EXPECT_EQ(execute(op(fcompare | D, 2), 0x8000000000000000, 0).x, 1u);
}

TEST(FloatingPoint, Classify) {
  const std::pair<uint64_t, uint64_t> cases[] = {{0xfff0000000000000, 1 << 0}, {0xbff0000000000000, 1 << 1},
                                                 {0x800fffffffffffff, 1 << 2}, {0x8000000000000000, 1 << 3},
                                                 {0x0000000000000000, 1 << 4}, {0x0000000000000001, 1 << 5},
                                                 {0x3ff0000000000000, 1 << 6}, {0x7ff0000000000000, 1 << 7},
                                                 {0x7ff0000000000001, 1 << 8}, {0x7ff8000000000000, 1 << 9}};
  for (auto [value, expected] : cases)
    EXPECT_EQ(execute(op(fmvx | D, 1, 0), value).x, expected) << std::hex << value;
  EXPECT_EQ(execute(op(fmvx | S, 1, 0), 0x000000003f800000).x, 1u << 9); // improperly boxed: quiet NaN
}

TEST(FloatingPoint, ConversionsToIntegersSaturate) {
  struct Case {
    uint32_t funct7, type, rm;
    uint64_t value, expected;
    uint32_t flags;
    const char *what;
  };
  const uint64_t nanS = boxed(0x7fc00000), infS = boxed(0x7f800000), minusInfS = boxed(0xff800000);
  const Case cases[] = {
      {ftoint | S, 0, RNE, nanS, 0x7fffffff, NV, "fcvt.w.s NaN"},
      {ftoint | S, 0, RNE, infS, 0x7fffffff, NV, "fcvt.w.s +inf"},
      {ftoint | S, 0, RNE, minusInfS, 0xffffffff80000000, NV, "fcvt.w.s -inf"},
      {ftoint | S, 0, RNE, boxed(0x4f32d05e) /* 3e9 */, 0x7fffffff, NV, "fcvt.w.s 3e9"},
      {ftoint | S, 0, RNE, boxed(0xcf000000) /* -2^31 */, 0xffffffff80000000, 0, "fcvt.w.s -2^31"},
      {ftoint | S, 1, RNE, boxed(0xbf800000), 0, NV, "fcvt.wu.s -1"},
      {ftoint | S, 1, RTZ, boxed(0xbf000000), 0, NX, "fcvt.wu.s -0.5 rtz"},
      {ftoint | S, 1, RNE, nanS, 0xffffffffffffffff, NV, "fcvt.wu.s NaN (sign-extended)"},
      {ftoint | S, 1, RNE, boxed(0x4f7fffff), 0xffffffffffffff00, 0, "fcvt.wu.s 2^32-256"},
      {ftoint | D, 2, RNE, 0x43e0000000000000 /* 2^63 */, 0x7fffffffffffffff, NV, "fcvt.l.d 2^63"},
      {ftoint | D, 2, RNE, 0xc3e0000000000000, 0x8000000000000000, 0, "fcvt.l.d -2^63"},
      {ftoint | D, 3, RNE, 0x43efffffffffffff, 0xfffffffffffff800, 0, "fcvt.lu.d 2^64-2^11"},
      {ftoint | D, 3, RNE, 0x43f0000000000000, 0xffffffffffffffff, NV, "fcvt.lu.d 2^64"},
      {ftoint | D, 3, RNE, 0x8000000000000000, 0, 0, "fcvt.lu.d -0"},
      {ftoint | D, 3, RTZ, 0xc004000000000000, 0, NV, "fcvt.lu.d -2.5 rtz"},
      {ftoint | D, 0, RNE, 0x4004000000000000, 2, NX, "fcvt.w.d 2.5 rne"},
      {ftoint | D, 0, RMM, 0x4004000000000000, 3, NX, "fcvt.w.d 2.5 rmm"},
      {ftoint | D, 0, RMM, 0xc004000000000000, static_cast<uint64_t>(-3), NX, "fcvt.w.d -2.5 rmm"},
      {ftoint | D, 0, RDN, 0xc004000000000000, static_cast<uint64_t>(-3), NX, "fcvt.w.d -2.5 rdn"},
      {ftoint | D, 0, RUP, 0x4004000000000000, 3, NX, "fcvt.w.d 2.5 rup"},
      {ftoint | D, 0, RTZ, 0xc004000000000000, static_cast<uint64_t>(-2), NX, "fcvt.w.d -2.5 rtz"},
      {ftoint | D, 0, RMM, 0x3fe0000000000000, 1, NX, "fcvt.w.d 0.5 rmm"},
      {ftoint | D, 0, RNE, 0x3fe0000000000000, 0, NX, "fcvt.w.d 0.5 rne"},
      {ftoint | D, 0, RNE, 0x41dfffffffe00000 /* 2^31 - 0.5 */, 0x7fffffff, NV, "fcvt.w.d 2^31-0.5 rne"},
  };
  for (const Case &c : cases) {
    Outcome o = execute(e::opFp(c.funct7, 10, 11, c.type, c.rm), c.value);
    EXPECT_EQ(o.x, c.expected) << c.what;
    EXPECT_EQ(o.flags, c.flags) << c.what;
  }
}

TEST(FloatingPoint, FusedMultiplyAddRoundsOnce) {
  // (1 + 2^-52)(1 - 2^-53) - 1 = 2^-53 - 2^-105 = 2^-53 (1 - 2^-52),
  // exactly representable: fused gives it with no flag; multiply-then-add
  // would round the product to 1 and give 0.
  Outcome o = execute(e::fmadd(true, 10, 11, 12, 13, RNE), 0x3ff0000000000001, 0x3fefffffffffffff, 0xbff0000000000000);
  EXPECT_EQ(o.f, 0x3c9ffffffffffffeu);
  EXPECT_EQ(o.flags, 0u);
  // inf * 0 + qNaN is invalid in RISC-V.
  o = execute(e::fmadd(false, 10, 11, 12, 13, RNE), boxed(0x7f800000), boxed(0), boxed(0x7fc00000));
  EXPECT_EQ(o.f, boxed(0x7fc00000));
  EXPECT_EQ(o.flags, NV);
  // fnmadd: -(a*b) - c with signed zeros: -(1*0) - 0 = -0.
  const uint32_t fnmadd = e::r4(0x4f, 10, RNE, 11, 12, 1, 13);
  EXPECT_EQ(execute(fnmadd, 0x3ff0000000000000, 0, 0).f, 0x8000000000000000u);
  // fmsub.s: 2 * 3 - 1 = 5.
  const uint32_t fmsub = e::r4(0x47, 10, RNE, 11, 12, 0, 13);
  EXPECT_EQ(execute(fmsub, boxed(0x40000000), boxed(0x40400000), boxed(0x3f800000)).f, boxed(0x40a00000));
}

TEST(FloatingPoint, LoadsAndStoresKeepBits) {
  // flw boxes; fsw stores the low half as it is; fld/fsd move 64 bits.
  TestMachine machine({e::flw(1, a0, 0), e::fsw(2, a0, 8), e::fld(3, a0, 16), e::fsd(3, a0, 24), e::ret()});
  machine.store<uint32_t>(0, 0x7f800001);
  machine.store<uint64_t>(16, 0x7ff0000000000001);
  machine.state().f[2] = 0x00000000deadbeef; // not boxed
  ASSERT_EQ(machine.run().cause, StopReason::Returned);
  EXPECT_EQ(machine.state().f[1], boxed(0x7f800001));
  EXPECT_EQ(machine.load<uint32_t>(8), 0xdeadbeefu);
  EXPECT_EQ(machine.load<uint64_t>(24), 0x7ff0000000000001u);
  EXPECT_EQ(machine.state().fcsr, 0u);
}

TEST(FloatingPoint, HostEnvironmentIsRestored) {
  std::fesetround(FE_DOWNWARD);
  std::feclearexcept(FE_ALL_EXCEPT);
  execute(op(fdiv | S, RUP), boxed(0x3f800000), boxed(0));
  EXPECT_EQ(std::fegetround(), FE_DOWNWARD);
  EXPECT_EQ(std::fetestexcept(FE_ALL_EXCEPT), 0);
  std::fesetround(FE_TONEAREST);
}
