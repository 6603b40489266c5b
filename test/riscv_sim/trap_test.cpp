// Traps stop the hart with the right cause, pc, instruction and address,
// never touch host memory outside the regions, and leave the hart usable.
#include "test_machine.h"

#include <gtest/gtest.h>

using namespace riscv_sim::sim;
using namespace riscv_sim::sim::test;
namespace e = riscv_sim::sim::encode;

namespace {

/// Runs the program and expects a trap of `cause` at instruction `index`
/// (4-byte instructions only).
RunResult expectTrap(TestMachine &machine, StopReason cause, unsigned index) {
  RunResult result = machine.run();
  EXPECT_EQ(result.cause, cause) << result.describe();
  EXPECT_EQ(result.pc, codeBase + 4 * index);
  EXPECT_EQ(machine.state().pc, result.pc);
  EXPECT_EQ(result.instructionsRetired, index);
  EXPECT_TRUE(result.isTrap());
  return result;
}

/// After a trap the same hart runs again from a fixed-up pc.
void expectReusable(TestMachine &machine, unsigned resumeIndex) {
  machine.state().pc = codeBase + 4 * resumeIndex;
  RunResult result = machine.run();
  EXPECT_EQ(result.cause, StopReason::Returned) << result.describe();
}

} // namespace

TEST(Trap, IllegalInstruction) {
  TestMachine machine({e::addi(a1, zero, 1), 0xffffffff, e::addi(a1, a1, 1), e::ret()});
  RunResult result = expectTrap(machine, StopReason::IllegalInstruction, 1);
  EXPECT_EQ(result.instruction, 0xffffffffu);
  EXPECT_NE(result.describe().find("illegal instruction at pc 0x1004"), std::string::npos) << result.describe();
  expectReusable(machine, 2);
  EXPECT_EQ(machine.state().x[a1], 2u);
}

TEST(Trap, UnknownCsrAndWritesToCountersAreIllegal) {
  TestMachine machine({e::csrrs(a1, 0x300 /* mstatus */, zero), e::csrrw(zero, 0xc00, a1), e::ret()});
  expectTrap(machine, StopReason::IllegalInstruction, 0);
  machine.state().pc = codeBase + 4;
  EXPECT_EQ(machine.run().cause, StopReason::IllegalInstruction);
}

TEST(Trap, LoadOutsideRegions) {
  TestMachine machine({e::addi(a1, zero, 1), e::ld(a2, a0, -8), e::ret()});
  RunResult result = expectTrap(machine, StopReason::LoadAccessFault, 1);
  EXPECT_EQ(result.address, dataBase - 8);
  EXPECT_NE(result.describe().find("ld x12, -8(x10)"), std::string::npos) << result.describe();
  EXPECT_NE(result.describe().find("address 0xffff8"), std::string::npos) << result.describe();
  expectReusable(machine, 2);
}

TEST(Trap, AccessCrossingTheEndOfARegion) {
  TestMachine machine({e::ld(a2, a1, 0), e::ret()});
  machine.state().x[a1] = dataBase + 4096 - 4;
  RunResult result = expectTrap(machine, StopReason::LoadAccessFault, 0);
  EXPECT_EQ(result.address, dataBase + 4096 - 4);
}

TEST(Trap, StoreToReadOnlyRegion) {
  TestMachine machine({e::sw(a1, a2, 16), e::ret()});
  machine.state().x[a2] = readOnlyBase;
  RunResult result = expectTrap(machine, StopReason::StoreAccessFault, 0);
  EXPECT_EQ(result.address, readOnlyBase + 16);
}

TEST(Trap, StoreToCode) {
  TestMachine machine({e::sd(a1, a2, 0), e::ret()});
  machine.state().x[a2] = codeBase;
  EXPECT_EQ(expectTrap(machine, StopReason::StoreAccessFault, 0).address, codeBase);
}

TEST(Trap, Breakpoint) {
  TestMachine machine({e::addi(a1, zero, 1), e::ebreak(), e::ret()});
  RunResult result = expectTrap(machine, StopReason::Breakpoint, 1);
  EXPECT_EQ(result.instruction, e::ebreak());
  expectReusable(machine, 2);
}

TEST(Trap, MisalignedAtomic) {
  constexpr uint32_t amoaddW = e::r(0x2f, a2, 2, a1, a3, 0);
  TestMachine machine({amoaddW, e::ret()});
  machine.state().x[a1] = dataBase + 2;
  RunResult result = expectTrap(machine, StopReason::MisalignedAtomic, 0);
  EXPECT_EQ(result.address, dataBase + 2);
  EXPECT_NE(result.describe().find("amoadd.w"), std::string::npos) << result.describe();
  machine.state().x[a1] = dataBase + 4;
  expectReusable(machine, 0);
}

TEST(Trap, AtomicOutsideRegions) {
  constexpr uint32_t lrD = e::r(0x2f, a2, 3, a1, 0, 0x08);
  TestMachine machine({lrD, e::ret()});
  machine.state().x[a1] = 0x40;
  EXPECT_EQ(expectTrap(machine, StopReason::LoadAccessFault, 0).address, 0x40u);
}

TEST(Trap, JumpOutsideExecutableMemory) {
  TestMachine machine({e::jalr(ra, a0, 0), e::ret()});
  RunResult result = machine.run();
  EXPECT_EQ(result.cause, StopReason::InstructionAccessFault) << result.describe();
  EXPECT_EQ(result.pc, dataBase);
  EXPECT_EQ(result.address, dataBase);
  EXPECT_EQ(machine.state().x[ra], codeBase + 4); // the jump itself retired
}

TEST(Trap, RunningOffTheEndOfCode) {
  // 4096 bytes of code: the last instruction is a nop, then nothing.
  std::vector<uint32_t> program(1024, e::addi(zero, zero, 0));
  TestMachine machine(program);
  RunResult result = machine.run();
  EXPECT_EQ(result.cause, StopReason::InstructionAccessFault) << result.describe();
  EXPECT_EQ(result.pc, codeBase + 4096);
  EXPECT_EQ(result.instructionsRetired, 1024u);
}

TEST(Trap, EnvironmentCallStopsAfterItAndResumes) {
  TestMachine machine({e::addi(17, zero, 93), e::ecall(), e::addi(a1, a1, 7), e::ret()});
  RunResult result = machine.run();
  ASSERT_EQ(result.cause, StopReason::EnvironmentCall) << result.describe();
  EXPECT_FALSE(result.isTrap());
  EXPECT_EQ(result.pc, codeBase + 8);
  EXPECT_EQ(machine.state().x[17], 93u);
  EXPECT_EQ(result.instructionsRetired, 2u);
  result = machine.run();
  EXPECT_EQ(result.cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[a1], 7u);
}

TEST(Trap, ReservedDynamicRoundingModeIsIllegal) {
  // frm = 5, then fadd.s with the dynamic mode
  TestMachine machine({e::addi(a1, zero, 5), e::csrrw(zero, 2, a1), e::opFp(0x00, 1, 2, 3), e::ret()});
  expectTrap(machine, StopReason::IllegalInstruction, 2);
}

TEST(AddressSpace, RejectsOverlapsAndEmptyRegions) {
  std::vector<std::byte> memory(64);
  AddressSpace space;
  EXPECT_TRUE(space.map({0x1000, 32, memory.data(), Read, "a"}));
  EXPECT_FALSE(space.map({0x101f, 8, memory.data() + 32, Read, "overlaps a"}));
  EXPECT_FALSE(space.map({0x2000, 0, memory.data(), Read, "empty"}));
  EXPECT_FALSE(space.map({~uint64_t(0) - 4, 16, memory.data(), Read, "wraps"}));
  EXPECT_TRUE(space.map({0x1020, 32, memory.data() + 32, Read | Write, "b"}));
  ASSERT_NE(space.find(0x1020, 8), nullptr);
  EXPECT_EQ(space.find(0x1020, 8)->name, "b");
  EXPECT_EQ(space.find(0x101c, 8), nullptr); // crosses from a into b
  EXPECT_EQ(space.find(0x1040), nullptr);
}
