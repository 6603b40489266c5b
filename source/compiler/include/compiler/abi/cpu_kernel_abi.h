// The launch ABI shared by CPU-like targets (host, riscv_sim): how the
// runtime calls a compiled kernel and how it lays out kernel arguments.
//
// The compiler wraps each kernel `k` in an entry function named
// `__polymux_entry_<k>` of type CpuKernelEntry. One call runs one whole
// work-group: the wrapper loops over the work-items of the group.
#pragma once

#include <cstddef>
#include <cstdint>

namespace compiler::abi {

/// Everything a work-group needs to know about its launch. Plain data, the
/// layout is part of the ABI (the compiler emits loads from these offsets).
struct WorkGroupInfo {
  uint32_t workDim;
  uint32_t reserved;
  uint64_t globalOffset[3];
  uint64_t globalSize[3];
  uint64_t enqueuedLocalSize[3];  ///< the local size given at enqueue
  uint64_t localSize[3];          ///< this group's size (smaller at the edges)
  uint64_t numGroups[3];
  uint64_t groupId[3];
  /// Per-work-group __local storage for local arguments and variables;
  /// null when the kernel uses none.
  void *localMemory;
};

/// void entry(const void *packedArgs, const WorkGroupInfo *info)
using CpuKernelEntry = void (*)(const void *packedArgs, const WorkGroupInfo *info);

/// Entry-function name for kernel `name`.
inline constexpr const char *kEntryPrefix = "__polymux_entry_";

/// Packed arguments: argument i is stored at the next offset aligned to
/// `packedArgAlignment(size)` after argument i-1. Pointers (buffers, local
/// pointers) occupy 8 bytes; values occupy their host-side size.
constexpr uint64_t packedArgAlignment(uint64_t size) {
  uint64_t alignment = 1;
  while (alignment < size && alignment < 128)
    alignment <<= 1;
  return alignment;
}

constexpr uint64_t alignTo(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

} // namespace compiler::abi
