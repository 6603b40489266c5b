// What the system can still commit (mux/support/system_memory.h), and the
// heap arena refusing a block the system could not commit instead of
// handing it out for the out-of-memory killer to settle later.
#include "mux/support/memory_arena.h"
#include "mux/support/system_memory.h"

#include <gtest/gtest.h>

#include <unistd.h>

namespace {

TEST(SystemMemoryTest, AvailableIsWithinTheMachine) {
  std::optional<uint64_t> available = mux::support::systemMemoryAvailable();
  ASSERT_TRUE(available) << "/proc/meminfo has MemAvailable on every supported kernel";
  const uint64_t total = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  EXPECT_GT(*available, 0u);
  EXPECT_LE(*available, total);
  EXPECT_GT(mux::support::processPrivateResidentBytes(), 0u);
}

TEST(SystemMemoryTest, CanHoldKeepsAReserve) {
  const uint64_t available = mux::support::systemMemoryAvailable().value_or(0);
  ASSERT_GT(available, 0u);
  EXPECT_TRUE(mux::support::systemMemoryCanHold(1 << 20, 0));
  EXPECT_FALSE(mux::support::systemMemoryCanHold(available, 0)) << "all of it leaves no reserve";
  EXPECT_FALSE(mux::support::systemMemoryCanHold(1 << 20, available)) << "granted memory not yet touched counts";
}

TEST(SystemMemoryTest, HeapArenaRefusesWhatTheSystemCannotCommit) {
  const uint64_t available = mux::support::systemMemoryAvailable().value_or(0);
  ASSERT_GT(available, 0u);
  // Lazily committed, the mapping would succeed; nothing is touched either way.
  auto block = mux::support::heapArena().allocate(available + (uint64_t{1} << 30), 64);
  if (block) {
    mux::support::heapArena().release(*block, available + (uint64_t{1} << 30), 64);
    FAIL() << "a block larger than the available memory was handed out";
  }
  llvm::consumeError(block.takeError());
  auto small = mux::support::heapArena().allocate(uint64_t{64} << 20, 64);
  ASSERT_TRUE(static_cast<bool>(small)) << llvm::toString(small.takeError());
  mux::support::heapArena().release(*small, uint64_t{64} << 20, 64);
}

} // namespace
