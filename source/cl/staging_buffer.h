// Host-visible buffers of a device through which the OpenCL layer moves data
// when the device's commands cannot touch host pointers (a GPU). They come
// from a pool per device: allocating host-visible memory (pinning pages on a
// GPU) costs more than the copy it serves.
#pragma once

#include "mux/device.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace polymux::cl {

/// A host-visible buffer of one device, mapped for its whole life.
class StagingBuffer {
public:
  /// What the host does with the bytes: only writes them (uncached,
  /// write-combined memory is as fast as any), or reads them too (prefer
  /// memory the host caches: reading write-combined memory is slow).
  enum class HostAccess { Write, ReadWrite };

  /// A buffer of at least `size` bytes, reused from the device's pool where
  /// one is free; it returns there when the last reference goes.
  static llvm::Expected<std::shared_ptr<StagingBuffer>> create(mux::Device &device, uint64_t size,
                                                               HostAccess access = HostAccess::ReadWrite);
  ~StagingBuffer();

  mux::Buffer &buffer() const { return *buffer_; }
  std::byte *view() const { return view_; }
  uint64_t capacity() const { return capacity_; }
  HostAccess access() const { return access_; }
  /// Call after the host wrote [0, size) of view().
  void hostWrote(uint64_t size);
  /// Call before the host reads [0, size) of view() that the device wrote.
  void beforeHostRead(uint64_t size);

private:
  friend class StagingPool;
  StagingBuffer() = default;
  static llvm::Expected<std::unique_ptr<StagingBuffer>> allocate(mux::Device &device, uint64_t capacity,
                                                                 HostAccess access);

  std::unique_ptr<mux::Memory> memory_;
  std::unique_ptr<mux::Buffer> buffer_;
  std::byte *view_ = nullptr;
  uint64_t capacity_ = 0;
  HostAccess access_ = HostAccess::ReadWrite;
  bool coherent_ = false;
};

} // namespace polymux::cl
