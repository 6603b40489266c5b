// RV64IM execution: arithmetic corner cases, W forms, control flow,
// misaligned loads and stores, counters, and compressed code.
#include "test_machine.h"

#include <gtest/gtest.h>

using namespace riscv_sim::sim;
using namespace riscv_sim::sim::test;
namespace e = riscv_sim::sim::encode;

namespace {

/// Runs `op rd=a0, rs1=a1, rs2=a2` once and returns a0.
uint64_t binary(uint32_t instruction, uint64_t a, uint64_t b) {
  TestMachine machine({instruction, e::ret()});
  machine.state().x[a1] = a;
  machine.state().x[a2] = b;
  RunResult result = machine.run();
  EXPECT_EQ(result.cause, StopReason::Returned) << result.describe();
  return machine.state().x[a0];
}

constexpr uint32_t op(uint32_t funct7, uint32_t funct3) { return e::r(0x33, a0, funct3, a1, a2, funct7); }
constexpr uint32_t op32(uint32_t funct7, uint32_t funct3) { return e::r(0x3b, a0, funct3, a1, a2, funct7); }

} // namespace

TEST(Integer, DivisionFollowsRiscvRules) {
  const uint64_t minimum = 0x8000000000000000ull;
  EXPECT_EQ(binary(op(1, 4), 7, 0), ~uint64_t(0));             // div by zero
  EXPECT_EQ(binary(op(1, 5), 7, 0), ~uint64_t(0));             // divu by zero
  EXPECT_EQ(binary(op(1, 6), 7, 0), 7u);                       // rem by zero
  EXPECT_EQ(binary(op(1, 7), 7, 0), 7u);                       // remu by zero
  EXPECT_EQ(binary(op(1, 4), minimum, ~uint64_t(0)), minimum); // overflow
  EXPECT_EQ(binary(op(1, 6), minimum, ~uint64_t(0)), 0u);      // overflow remainder
  EXPECT_EQ(binary(op(1, 4), static_cast<uint64_t>(-7), 2), static_cast<uint64_t>(-3));
  EXPECT_EQ(binary(op(1, 6), static_cast<uint64_t>(-7), 2), static_cast<uint64_t>(-1));
  EXPECT_EQ(binary(op32(1, 4), 0x80000000u, 0xffffffffu), 0xffffffff80000000ull); // divw overflow
  EXPECT_EQ(binary(op32(1, 5), 0x100000007ull, 0), ~uint64_t(0));                 // divuw by zero
  EXPECT_EQ(binary(op32(1, 7), 0xffffffff80000001ull, 0), 0xffffffff80000001ull); // remuw by zero: sign-extended
}

TEST(Integer, MultiplyHigh) {
  EXPECT_EQ(binary(op(1, 1), ~uint64_t(0), ~uint64_t(0)), 0u);               // mulh -1 * -1
  EXPECT_EQ(binary(op(1, 3), ~uint64_t(0), ~uint64_t(0)), ~uint64_t(0) - 1); // mulhu
  EXPECT_EQ(binary(op(1, 2), ~uint64_t(0), ~uint64_t(0)), ~uint64_t(0));     // mulhsu -1 * (2^64-1)
  EXPECT_EQ(binary(op32(1, 0), 0x7fffffff, 2), 0xfffffffffffffffeull);       // mulw wraps, sign-extends
}

TEST(Integer, ShiftsAndWordForms) {
  EXPECT_EQ(binary(op(0, 1), 1, 64 + 3), 8u);                              // sll uses 6 bits
  EXPECT_EQ(binary(op(0x20, 5), 0x8000000000000000ull, 63), ~uint64_t(0)); // sra
  EXPECT_EQ(binary(op32(0, 1), 1, 31), 0xffffffff80000000ull);             // sllw
  EXPECT_EQ(binary(op32(0, 5), 0x80000000u, 32 + 4), 0x08000000u);         // srlw uses 5 bits
  EXPECT_EQ(binary(op32(0x20, 5), 0x80000000u, 4), 0xfffffffff8000000ull); // sraw
  EXPECT_EQ(binary(op32(0, 0), 0x7fffffff, 1), 0xffffffff80000000ull);     // addw
  EXPECT_EQ(binary(op(0, 2), static_cast<uint64_t>(-1), 0), 1u);           // slt
  EXPECT_EQ(binary(op(0, 3), static_cast<uint64_t>(-1), 0), 0u);           // sltu
}

TEST(Integer, LoopAndBranches) {
  // a1 = 10; a2 = 0; do { a2 += a1; } while (--a1 != 0); return
  TestMachine machine({e::addi(a1, zero, 10), e::add(a2, a2, a1), e::addi(a1, a1, -1), e::bne(a1, zero, -8), e::ret()});
  RunResult result = machine.run();
  ASSERT_EQ(result.cause, StopReason::Returned) << result.describe();
  EXPECT_EQ(machine.state().x[a2], 55u);
  EXPECT_EQ(result.instructionsRetired, 1u + 3 * 10 + 1);
  EXPECT_EQ(machine.state().pc, returnAddress);
}

TEST(Integer, MisalignedLoadsAndStoresWork) {
  TestMachine machine({e::sd(a1, a0, 3), e::ld(a2, a0, 3), e::lw(a3, a0, 7), e::ret()});
  machine.state().x[a1] = 0x8877665544332211ull;
  RunResult result = machine.run();
  ASSERT_EQ(result.cause, StopReason::Returned) << result.describe();
  EXPECT_EQ(machine.state().x[a2], 0x8877665544332211ull);
  EXPECT_EQ(machine.state().x[a3], 0xffffffff88776655ull); // lw sign-extends
  EXPECT_EQ(machine.load<uint64_t>(3), 0x8877665544332211ull);
}

TEST(Integer, WritesToX0AreDiscarded) {
  TestMachine machine({e::addi(zero, zero, 5), e::add(a1, zero, zero), e::ld(zero, a0, 0), e::ret()});
  machine.store<uint64_t>(0, 42);
  ASSERT_EQ(machine.run().cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[zero], 0u);
  EXPECT_EQ(machine.state().x[a1], 0u);
}

TEST(Integer, CompressedCode) {
  // c.li a1, 5; c.addi a1, -1; c.bnez a1, -2; c.mv a2, a0; c.sd a1?..: keep it small:
  // loop: c.addi a1, -1 ; c.bnez a1, loop ; c.jr ra
  TestMachine machine(
      {0x4595 /* c.li a1, 5 */, 0x15fd /* c.addi a1, -1 */, 0xfdfd /* c.bnez a1, -2 */, 0x8082 /* c.jr ra */});
  RunResult result = machine.run();
  ASSERT_EQ(result.cause, StopReason::Returned) << result.describe();
  EXPECT_EQ(machine.state().x[a1], 0u);
  EXPECT_EQ(result.instructionsRetired, 1u + 2 * 5 + 1);
}

TEST(Integer, AuipcJalAndJalrLinkAddresses) {
  // auipc a1, 0; jal a2, +8; (skipped) addi a3, zero, 1; jalr a3?: use ret
  TestMachine machine({e::u(0x17, a1, 0), e::j(a2, 8), e::addi(a3, zero, 1), e::ret()});
  ASSERT_EQ(machine.run().cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[a1], codeBase);
  EXPECT_EQ(machine.state().x[a2], codeBase + 8);
  EXPECT_EQ(machine.state().x[a3], 0u);
}

TEST(Integer, CountersCountRetiredInstructions) {
  // rdinstret a1 after two instructions; rdcycle a2 after three
  TestMachine machine({e::addi(zero, zero, 0), e::addi(zero, zero, 0), e::csrrs(a1, 0xc02, zero),
                       e::csrrs(a2, 0xc00, zero), e::csrrs(a3, 0xc01, zero), e::ret()});
  machine.state().instret = 100;
  ASSERT_EQ(machine.run().cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[a1], 102u);
  EXPECT_EQ(machine.state().x[a2], 103u);
  EXPECT_EQ(machine.state().x[a3], 104u);
  EXPECT_EQ(machine.state().instret, 106u);
}

TEST(Integer, InstructionLimitStopsAndResumes) {
  TestMachine machine({e::addi(a1, a1, 1), e::bne(a1, a2, -4), e::ret()});
  machine.state().x[a2] = 1000;
  RunResult first = machine.run(501);
  ASSERT_EQ(first.cause, StopReason::InstructionLimit);
  EXPECT_EQ(first.instructionsRetired, 501u);
  EXPECT_EQ(first.pc, codeBase + 4); // 251 addi and 250 bne retired
  EXPECT_EQ(machine.state().x[a1], 251u);
  RunResult second = machine.run();
  ASSERT_EQ(second.cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[a1], 1000u);
  EXPECT_EQ(machine.state().instret, 2001u);
}
