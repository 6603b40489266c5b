// splitRange: every work-item of the range is covered exactly once, by
// pieces of one local size each and at most the device's group counts.
#include "launch_split.h"

#include "llvm/ADT/ArrayRef.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

namespace vulkantest {
namespace {

using vulkan_target::DispatchPiece;
using vulkan_target::splitRange;

/// Runs the pieces on the host: each work-item's OpenCL global id.
std::map<std::tuple<uint64_t, uint64_t, uint64_t>, int> cover(llvm::ArrayRef<DispatchPiece> pieces,
                                                              const std::array<uint64_t, 3> &local) {
  std::map<std::tuple<uint64_t, uint64_t, uint64_t>, int> seen;
  for (const DispatchPiece &piece : pieces)
    for (uint32_t gz = 0; gz < piece.groupCount[2]; ++gz)
      for (uint32_t gy = 0; gy < piece.groupCount[1]; ++gy)
        for (uint32_t gx = 0; gx < piece.groupCount[0]; ++gx)
          for (uint32_t lz = 0; lz < piece.localSize[2]; ++lz)
            for (uint32_t ly = 0; ly < piece.localSize[1]; ++ly)
              for (uint32_t lx = 0; lx < piece.localSize[0]; ++lx)
                ++seen[{(gx + piece.groupOffset[0]) * local[0] + lx, (gy + piece.groupOffset[1]) * local[1] + ly,
                        (gz + piece.groupOffset[2]) * local[2] + lz}];
  return seen;
}

void expectExactCover(const std::array<uint64_t, 3> &global, const std::array<uint64_t, 3> &local,
                      const std::array<uint32_t, 3> &maxGroups, size_t expectedPieces) {
  auto pieces = splitRange(global, local, maxGroups);
  EXPECT_EQ(pieces.size(), expectedPieces);
  for (const DispatchPiece &piece : pieces)
    for (int d = 0; d < 3; ++d) {
      EXPECT_LE(piece.groupCount[d], maxGroups[d]);
      EXPECT_GE(piece.groupCount[d], 1u);
    }
  auto seen = cover(pieces, local);
  EXPECT_EQ(seen.size(), global[0] * global[1] * global[2]);
  for (const auto &[id, count] : seen) {
    EXPECT_EQ(count, 1);
    EXPECT_LT(std::get<0>(id), global[0]);
    EXPECT_LT(std::get<1>(id), global[1]);
    EXPECT_LT(std::get<2>(id), global[2]);
  }
}

TEST(LaunchSplitTest, UniformRangeIsOnePiece) { expectExactCover({64, 8, 1}, {16, 4, 1}, {65535, 65535, 65535}, 1); }

TEST(LaunchSplitTest, PartialGroupsInEveryDimensionGiveEightPieces) {
  expectExactCover({13, 7, 5}, {4, 3, 2}, {65535, 65535, 65535}, 8);
}

TEST(LaunchSplitTest, RangeSmallerThanOneGroupIsOnePartialPiece) {
  auto pieces = splitRange({3, 1, 1}, {8, 1, 1}, {65535, 65535, 65535});
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].localSize[0], 3u);
  EXPECT_EQ(pieces[0].groupOffset[0], 0u);
}

TEST(LaunchSplitTest, TooManyGroupsAreChunked) {
  // 10 full groups and a partial one per dimension with at most 3 groups
  // per dispatch: 4 chunks of full groups plus the partial piece.
  expectExactCover({43, 1, 1}, {4, 1, 1}, {3, 3, 3}, 5);
  expectExactCover({9, 10, 1}, {2, 3, 1}, {2, 2, 2}, 2 * 2 + 2 + 2 + 1);
}

TEST(LaunchSplitTest, FullGroupsComeFirst) {
  auto pieces = splitRange({13, 7, 1}, {4, 3, 1}, {65535, 65535, 65535});
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].localSize, (std::array<uint32_t, 3>{4, 3, 1}));
  EXPECT_EQ(pieces[0].groupCount, (std::array<uint32_t, 3>{3, 2, 1}));
}

} // namespace
} // namespace vulkantest
