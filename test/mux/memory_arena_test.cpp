// The heap arena the CPU devices allocate from: small blocks come from the
// heap, blocks of a huge page or more from their own huge-page mapping.
#include "mux/support/memory_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

/// The transparent huge page size the system reports, 0 when none.
uint64_t systemHugePageSize() {
  uint64_t bytes = 0;
  if (FILE *file = std::fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r")) {
    if (std::fscanf(file, "%lu", &bytes) != 1)
      bytes = 0;
    std::fclose(file);
  }
  return bytes;
}

void expectWholeBlockUsable(std::byte *data, uint64_t size) {
  std::memset(data, 0x5a, size);
  for (uint64_t offset : {uint64_t{0}, size / 2, size - 1})
    EXPECT_EQ(data[offset], std::byte{0x5a}) << offset;
}

TEST(HeapArena, SmallBlocksHonourTheirAlignment) {
  mux::support::MemoryArena &arena = mux::support::heapArena();
  for (uint64_t alignment : {64u, 128u, 4096u}) {
    auto block = arena.allocate(3 * alignment, alignment);
    ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
    EXPECT_EQ(block->deviceAddress, reinterpret_cast<uint64_t>(block->host));
    EXPECT_EQ(block->deviceAddress % alignment, 0u);
    expectWholeBlockUsable(block->host, 3 * alignment);
    arena.release(*block, 3 * alignment, alignment);
  }
}

TEST(HeapArena, LargeBlocksStartOnAHugePage) {
  const uint64_t huge = systemHugePageSize();
  mux::support::MemoryArena &arena = mux::support::heapArena();
  const uint64_t size = 2 * (huge ? huge : uint64_t{2} << 20) + 3 * 4096 + 128;
  for (int round = 0; round < 3; ++round) { // released mappings are reusable
    auto block = arena.allocate(size, 128);
    ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
    EXPECT_EQ(block->deviceAddress, reinterpret_cast<uint64_t>(block->host));
    EXPECT_EQ(block->deviceAddress % (huge ? huge : 128), 0u);
    expectWholeBlockUsable(block->host, size);
    arena.release(*block, size, 128);
  }
}

} // namespace
