// The shared virtual memory allocations of one context (clSVMAlloc): which
// allocation holds a pointer, and the buffer that gives it storage on each
// device.
//
// An allocation is the memory of one device's allocateSharedMemory() (host
// address == device address), seen by the OpenCL layer as an internal
// CL_MEM_USE_HOST_PTR buffer of the whole range: every SVM-capable device of
// the context wraps that same memory at that same address, so kernel
// arguments, transfers and fills reuse the buffer machinery, and the
// per-device copies of a multi-device context are one memory. The buffer
// owns the shared memory (freed with the buffer's last reference, so a
// command in flight keeps it). Like any buffer it holds its context: an
// allocation the application never frees keeps the context alive.
#pragma once

#include "object.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace polymux::cl {

class BufferObject;
class Context;
class Device;

struct SvmAllocation {
  std::byte *base = nullptr;
  size_t size = 0;
  cl_svm_mem_flags flags = 0;
  Ref<BufferObject> buffer;

  /// Offset of `pointer` in the allocation.
  uint64_t offsetOf(const void *pointer) const { return static_cast<const std::byte *>(pointer) - base; }
};

class SvmAllocations {
public:
  /// Allocates `size` bytes aligned to `alignment` (a power of two) shared
  /// by every SVM-capable device of `context`; null when it cannot.
  void *allocate(Context &context, cl_svm_mem_flags flags, size_t size, size_t alignment);
  /// Forgets the allocation starting at `pointer` (false when none does);
  /// its memory goes once no command uses it any more.
  bool free(void *pointer);
  /// The allocation holding `pointer`, or null.
  std::shared_ptr<const SvmAllocation> find(const void *pointer) const;
  /// The allocation `pointer` starts, or null.
  std::shared_ptr<const SvmAllocation> findBase(const void *pointer) const;

private:
  mutable std::mutex mutex_;
  /// By base address.
  std::map<const std::byte *, std::shared_ptr<const SvmAllocation>> allocations_;
};

/// Whether `device` offers SVM (coarse-grained buffers at least).
bool supportsSvm(const Device &device);
/// Whether some device of `context` does.
bool contextSupportsSvm(const Context &context);

} // namespace polymux::cl
