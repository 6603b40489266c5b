// The launch ABI shared by CPU-like targets (host, riscv_sim): how the
// runtime calls a compiled kernel and how it lays out kernel arguments.
//
// The compiler wraps each kernel `k` in an entry function named
// `__polymux_entry_<k>` of type CpuKernelEntry. One call runs one whole
// work-group: the wrapper loops over the work-items of the group.
#pragma once

#include "mux/kernel_exit.h"
#include <cstddef>

#include <climits>
#include <cstdint>

namespace compiler::abi {

/// Everything a work-group needs to know about its launch. Plain data, the
/// layout is part of the ABI (the compiler emits loads from these offsets).
/// Addresses are device addresses of 64 bits, whatever the host's pointers
/// are: the host's own pointers on the host, guest addresses on a simulator.
struct WorkGroupInfo {
  uint32_t workDim;
  uint32_t reserved;
  uint64_t globalOffset[3];
  uint64_t globalSize[3];
  uint64_t enqueuedLocalSize[3]; ///< the local size given at enqueue
  uint64_t localSize[3];         ///< this group's size (smaller at the edges)
  uint64_t numGroups[3];
  uint64_t groupId[3];
  /// Per-work-group __local storage for __local variables (at offset 0,
  /// `localMemSize` bytes as the binary reports) followed by the __local
  /// arguments; 0 when the kernel uses none.
  uint64_t localMemory;
  /// Bytes of the whole __local area (variables and arguments).
  uint64_t localMemorySize;
  /// Per-work-item storage for values live across barriers: work-item with
  /// local linear id i owns `workItemStateSize` bytes (as the binary reports
  /// per kernel) at workItemState + i * workItemStateSize, 128-byte aligned.
  /// 0 when the kernel has no barriers.
  uint64_t workItemState;
  /// The launch's printf buffer (compiler/abi/printf_abi.h); 0 when the
  /// kernel does not call printf.
  uint64_t printfBuffer;
  /// [stackBegin, stackEnd): the stack of the thread running this group.
  /// With workItemState it bounds private memory (to_private, get_fence).
  uint64_t stackBegin;
  uint64_t stackEnd;
  /// End of the group's work-item state: workItemState + workItemStateSize
  /// * (enqueued local linear size); 0 when workItemState is. With
  /// workItemState it bounds the private variables kept across barriers.
  uint64_t workItemStateEnd;
  /// The launch's exit record (cl_polymux_kernel_exit): an int32_t that
  /// holds kKernelNotExiting until a work-item calls kernel_exit(status),
  /// then the status. Shared by every work-group of the launch.
  uint64_t kernelExit;
};

/// What WorkGroupInfo::kernelExit points to while no work-item has called
/// kernel_exit. The status it stands for is reserved: kernel_exit(INT32_MIN)
/// records EXIT_INVALID_STATUS instead.
inline constexpr int32_t kKernelNotExiting = mux::kernel_exit::NotExiting;
/// kernel_exit's status when it was given kKernelNotExiting.
inline constexpr int32_t kKernelExitInvalidStatus = mux::kernel_exit::InvalidStatus;

/// void entry(const void *packedArgs, const WorkGroupInfo *info), both
/// device addresses (a target whose kernels run in the process calls it
/// directly).
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
