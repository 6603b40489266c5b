// How one OpenCL NDRange becomes Vulkan dispatches (vulkan_kernel_abi.h):
// Vulkan runs only whole work-groups of one size, at most
// maxComputeWorkGroupCount per dimension, so a range is cut into the full
// groups and the partial ones of each dimension (up to 8 pieces, each with
// its own local size), and a piece with too many groups into chunks. Each
// piece tells the kernel its first group's OpenCL id (GroupOffset).
#pragma once

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>

namespace vulkan_target {

struct DispatchPiece {
  std::array<uint32_t, 3> localSize{1, 1, 1};
  std::array<uint32_t, 3> groupOffset{0, 0, 0};
  std::array<uint32_t, 3> groupCount{1, 1, 1};
};

/// The dispatches covering `globalSize` work-items in groups of
/// `localSize` (both positive in every dimension), in an order that runs
/// the full groups first.
llvm::SmallVector<DispatchPiece, 8> splitRange(const std::array<uint64_t, 3> &globalSize,
                                               const std::array<uint64_t, 3> &localSize,
                                               const std::array<uint32_t, 3> &maxGroupCount);

/// The distinct local sizes of splitRange's pieces (the pipelines a launch
/// needs).
llvm::SmallVector<std::array<uint32_t, 3>, 8> pieceLocalSizes(const std::array<uint64_t, 3> &globalSize,
                                                              const std::array<uint64_t, 3> &localSize);

} // namespace vulkan_target
