// The A extension across harts on two host threads sharing one region.
#include "test_machine.h"

#include <gtest/gtest.h>
#include <thread>

using namespace riscv_sim::sim;
using namespace riscv_sim::sim::test;
namespace e = riscv_sim::sim::encode;

namespace {

constexpr uint64_t sharedBase = 0x40000000;
constexpr uint32_t amo(uint32_t funct5, bool dbl, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t aqrl = 0) {
  return e::r(0x2f, rd, dbl ? 3 : 2, rs1, rs2, funct5 << 2 | aqrl);
}

/// Runs `program` on `harts` harts on their own threads, each mapping the
/// same shared memory at sharedBase (with a1 pointing at it, a2 = iterations).
void runConcurrently(const std::vector<uint32_t> &program, std::vector<std::byte> &shared, unsigned harts,
                     uint64_t iterations) {
  std::vector<std::thread> threads;
  for (unsigned h = 0; h < harts; ++h)
    threads.emplace_back([&] {
      TestMachine machine(program);
      machine.memory().map({sharedBase, shared.size(), shared.data(), Read | Write, "shared"});
      machine.state().x[a1] = sharedBase;
      machine.state().x[a2] = iterations;
      RunResult result = machine.run(~uint64_t(0));
      EXPECT_EQ(result.cause, StopReason::Returned) << result.describe();
    });
  for (std::thread &thread : threads)
    thread.join();
}

} // namespace

TEST(Atomic, AmoaddCountersReachTheExactSum) {
  // loop: amoadd.d.aqrl zero, t0(=1), (a1); amoadd.w zero, t0, 8(a1)... w at a1+8 via t1
  std::vector<uint32_t> program = {e::addi(t0, zero, 1),
                                   e::addi(t1, a1, 8),
                                   amo(0x00, true, zero, a1, t0, 3),
                                   amo(0x00, false, zero, t1, t0),
                                   e::addi(a2, a2, -1),
                                   e::bne(a2, zero, -12),
                                   e::ret()};
  std::vector<std::byte> shared(64);
  runConcurrently(program, shared, 2, 200000);
  uint64_t counter64;
  uint32_t counter32;
  std::memcpy(&counter64, shared.data(), 8);
  std::memcpy(&counter32, shared.data() + 8, 4);
  EXPECT_EQ(counter64, 400000u);
  EXPECT_EQ(counter32, 400000u);
}

TEST(Atomic, LoadReservedStoreConditionalLoopIncrements) {
  // retry: lr.w.aq t0, (a1); addi t0, t0, 1; sc.w.rl t1, t0, (a1); bne t1, zero, retry; loop over a2
  std::vector<uint32_t> program = {amo(0x02, false, t0, a1, 0, 2),
                                   e::addi(t0, t0, 1),
                                   amo(0x03, false, t1, a1, t0, 1),
                                   e::bne(t1, zero, -12),
                                   e::addi(a2, a2, -1),
                                   e::bne(a2, zero, -20),
                                   e::ret()};
  std::vector<std::byte> shared(64);
  runConcurrently(program, shared, 2, 200000);
  uint32_t counter;
  std::memcpy(&counter, shared.data(), 4);
  EXPECT_EQ(counter, 400000u);
}

TEST(Atomic, OperationsReturnOldValueSignExtended) {
  struct Case {
    uint32_t funct5;
    bool dbl;
    uint64_t memory, operand, expectedMemory;
  };
  const Case cases[] = {
      {0x01, false, 0x80000000, 5, 5},                         // swap
      {0x04, false, 0x80000000, 0xff, 0x800000ff},             // xor
      {0x0c, true, 0xff00ff00ff00ff00, 0x0ff0, 0x0f00},        // and
      {0x08, true, 0x1, 0x2, 0x3},                             // or
      {0x10, false, 0x80000000, 5, 0x80000000},                // min (signed)
      {0x14, false, 0x80000000, 5, 5},                         // max
      {0x18, false, 0x80000000, 5, 5},                         // minu
      {0x1c, true, 0x8000000000000000, 5, 0x8000000000000000}, // maxu
      {0x10, true, 3, static_cast<uint64_t>(-3), static_cast<uint64_t>(-3)},
  };
  for (const Case &c : cases) {
    TestMachine machine({amo(c.funct5, c.dbl, a2, a0, a3), e::ret()});
    machine.store<uint64_t>(0, c.memory);
    machine.state().x[a3] = c.operand;
    ASSERT_EQ(machine.run().cause, StopReason::Returned);
    uint64_t old = c.dbl ? c.memory : static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(c.memory)));
    EXPECT_EQ(machine.state().x[a2], old) << c.funct5;
    uint64_t stored = c.dbl ? machine.load<uint64_t>(0) : machine.load<uint32_t>(0);
    EXPECT_EQ(stored, c.dbl ? c.expectedMemory : static_cast<uint32_t>(c.expectedMemory)) << c.funct5;
  }
}

TEST(Atomic, StoreConditionalFailsWithoutReservation) {
  // sc.d without lr fails (1); lr.d then sc.d to another address fails; then succeeds
  TestMachine machine({amo(0x03, true, t0, a0, a3), amo(0x02, true, t1, a0, 0), e::addi(a1, a0, 8),
                       amo(0x03, true, t2, a1, a3), amo(0x02, true, t1, a0, 0), amo(0x03, true, a2, a0, a3), e::ret()});
  machine.state().x[a3] = 77;
  ASSERT_EQ(machine.run().cause, StopReason::Returned);
  EXPECT_EQ(machine.state().x[t0], 1u);
  EXPECT_EQ(machine.state().x[t2], 1u);
  EXPECT_EQ(machine.state().x[a2], 0u);
  EXPECT_EQ(machine.load<uint64_t>(0), 77u);
  EXPECT_EQ(machine.load<uint64_t>(8), 0u);
}
