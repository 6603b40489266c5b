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

// A window at the addresses of its own host view: blocks' device addresses
// are their host addresses, and only pointers inside it can be wrapped.
TEST(WindowArena, IdentityWindowMapsHostAddressesToThemselves) {
  constexpr uint64_t kSize = 1 << 20;
  auto arena = mux::support::WindowArena::createIdentity(kSize);
  ASSERT_TRUE(static_cast<bool>(arena)) << llvm::toString(arena.takeError());
  EXPECT_TRUE((*arena)->identityMapped());
  EXPECT_EQ((*arena)->base(), reinterpret_cast<uint64_t>((*arena)->host()));
  auto block = (*arena)->allocate(4096, 256);
  ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
  EXPECT_EQ(block->deviceAddress, reinterpret_cast<uint64_t>(block->host));
  EXPECT_EQ((*arena)->deviceAddressOf(block->host + 10), block->deviceAddress + 10);
  int outside = 0;
  EXPECT_EQ((*arena)->deviceAddressOf(&outside), std::nullopt);
  EXPECT_EQ((*arena)->deviceAddressOf((*arena)->host() + kSize), std::nullopt);
  (*arena)->release(*block, 4096, 256);
}

// A window elsewhere still wraps its own memory, at its device address.
TEST(WindowArena, FixedWindowWrapsOnlyItsOwnMemory) {
  auto arena = mux::support::WindowArena::create(0x8000'0000, 1 << 20);
  ASSERT_TRUE(static_cast<bool>(arena)) << llvm::toString(arena.takeError());
  EXPECT_FALSE((*arena)->identityMapped());
  EXPECT_EQ((*arena)->deviceAddressOf((*arena)->host() + 64), uint64_t{0x8000'0000 + 64});
  int outside = 0;
  EXPECT_EQ((*arena)->deviceAddressOf(&outside), std::nullopt);
}
