#include "launch_split.h"

#include <algorithm>

namespace vulkan_target {
namespace {

/// One dimension's parts: full groups, then the partial group.
struct Part {
  uint32_t localSize;
  uint64_t firstGroup;
  uint64_t groups;
};

llvm::SmallVector<Part, 2> partsOf(uint64_t global, uint64_t local) {
  llvm::SmallVector<Part, 2> parts;
  if (global / local)
    parts.push_back({static_cast<uint32_t>(local), 0, global / local});
  if (global % local)
    parts.push_back({static_cast<uint32_t>(global % local), global / local, 1});
  return parts;
}

} // namespace

llvm::SmallVector<DispatchPiece, 8> splitRange(const std::array<uint64_t, 3> &globalSize,
                                               const std::array<uint64_t, 3> &localSize,
                                               const std::array<uint32_t, 3> &maxGroupCount) {
  std::array<llvm::SmallVector<Part, 2>, 3> parts;
  for (int d = 0; d < 3; ++d)
    parts[d] = partsOf(globalSize[d], localSize[d]);
  llvm::SmallVector<DispatchPiece, 8> pieces;
  for (const Part &z : parts[2])
    for (const Part &y : parts[1])
      for (const Part &x : parts[0]) {
        const std::array<const Part *, 3> dims{&x, &y, &z};
        // Chunks of at most maxGroupCount groups per dimension.
        std::array<uint64_t, 3> chunks;
        for (int d = 0; d < 3; ++d)
          chunks[d] = (dims[d]->groups + maxGroupCount[d] - 1) / maxGroupCount[d];
        for (uint64_t cz = 0; cz < chunks[2]; ++cz)
          for (uint64_t cy = 0; cy < chunks[1]; ++cy)
            for (uint64_t cx = 0; cx < chunks[0]; ++cx) {
              const std::array<uint64_t, 3> chunk{cx, cy, cz};
              DispatchPiece piece;
              for (int d = 0; d < 3; ++d) {
                uint64_t first = chunk[d] * maxGroupCount[d];
                piece.localSize[d] = dims[d]->localSize;
                piece.groupOffset[d] = static_cast<uint32_t>(dims[d]->firstGroup + first);
                piece.groupCount[d] =
                    static_cast<uint32_t>(std::min<uint64_t>(maxGroupCount[d], dims[d]->groups - first));
              }
              pieces.push_back(piece);
            }
      }
  // Full-group pieces first: on a GPU they are the bulk of the work.
  std::stable_sort(pieces.begin(), pieces.end(), [](const DispatchPiece &a, const DispatchPiece &b) {
    return a.localSize[0] * a.localSize[1] * a.localSize[2] > b.localSize[0] * b.localSize[1] * b.localSize[2];
  });
  return pieces;
}

llvm::SmallVector<std::array<uint32_t, 3>, 8> pieceLocalSizes(const std::array<uint64_t, 3> &globalSize,
                                                              const std::array<uint64_t, 3> &localSize) {
  llvm::SmallVector<std::array<uint32_t, 3>, 8> sizes;
  for (const Part &z : partsOf(globalSize[2], localSize[2]))
    for (const Part &y : partsOf(globalSize[1], localSize[1]))
      for (const Part &x : partsOf(globalSize[0], localSize[0]))
        sizes.push_back({x.localSize, y.localSize, z.localSize});
  return sizes;
}

} // namespace vulkan_target
