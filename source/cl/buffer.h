// Buffers and sub-buffers: the MemObject implementation behind clCreateBuffer
// and clCreateSubBuffer, with per-device storage and map tracking.
//
// Storage: a root buffer owns one mux::Memory + mux::Buffer per device it is
// used on (allocated on first use; eagerly at creation in single-device
// contexts so allocation failures surface there). A sub-buffer is a view of
// its root's storage at an offset.
//
// Multi-device contexts: the per-device copies are kept coherent by
// migration. The root buffer's BufferContents (buffer_contents.h) records,
// per byte range, which devices' copies hold the latest contents and after
// which command; every command that uses a buffer lists the ranges it reads
// and writes (Command::bufferUses), and the queue copies stale ranges onto its
// device before the command runs (migration.h). One-device contexts have no
// BufferContents and record no uses: nothing changes for them.
//
// CL_MEM_USE_HOST_PTR wraps the application's memory (zero copy) when the
// device can address it and the pointer is aligned enough; otherwise the
// device copy is filled from it at creation and synchronised with it at
// map/unmap, the points where the specification makes host_ptr defined.
// Copies on several devices that all wrap host_ptr are one memory: moving
// the contents between them copies nothing.
#pragma once

#include "memory.h"

#include "buffer_contents.h"
#include "command.h"
#include "context.h"
#include "error_model.h"

#include "mux/device.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace polymux::cl {

class StagingBuffer;

class BufferObject final : public MemObject {
public:
  /// A root buffer. `flags` are validated already.
  BufferObject(Context &context, cl_mem_flags flags, size_t size, void *hostPtr,
               std::vector<cl_mem_properties> properties);
  /// A sub-buffer of `parent` (a root buffer).
  BufferObject(BufferObject &parent, cl_mem_flags flags, size_t origin, size_t size);

  /// The buffer behind `handle`, or null when it is not a buffer of ours.
  static BufferObject *fromHandle(cl_mem handle);

  Context &context() const override { return *context_; }
  cl_mem_object_type type() const override { return CL_MEM_OBJECT_BUFFER; }
  /// As reported by CL_MEM_FLAGS and checked by every API call: the flags
  /// of creation or of the last clModifyMemoryFlagsPOLYMUX (sub-buffers:
  /// including inherited flags, limited by the parent's current flags).
  cl_mem_flags flags() const override;
  /// clModifyMemoryFlagsPOLYMUX: replaces the kernel-access and host-access
  /// flags. CL_INVALID_VALUE when `flags` is not a valid combination,
  /// changes the allocation flags, or (sub-buffers) is more permissive than
  /// the parent. Atomic with respect to every other use of the flags.
  cl_int replaceAccessFlags(cl_mem_flags flags);
  size_t size() const override { return size_; }
  llvm::Expected<BufferBinding> binding(Device &device) override;

  BufferObject *parent() const { return parent_.get(); }
  /// Offset in the parent (sub-buffers), else 0.
  size_t origin() const { return origin_; }
  BufferObject &root() { return parent_ ? *parent_ : *this; }
  /// CL_MEM_HOST_PTR: the application's pointer (USE_HOST_PTR), else null.
  void *hostPtr() const override { return hostPtr_; }
  cl_uint mapCount() const override;
  MemObject *associatedObject() const override { return parent_.get(); }
  size_t associatedOffset() const override { return origin_; }
  std::span<const cl_mem_properties> creationProperties() const override { return properties_; }

  /// The storage of the root buffer on one device.
  struct Storage {
    ~Storage();
    Device *device = nullptr;
    std::unique_ptr<mux::Memory> memory;
    std::unique_ptr<mux::Buffer> buffer;
    std::byte *hostView = nullptr; ///< persistent mapping of host-visible memory
    bool coherent = true;          ///< no flushes needed around host access
    bool wrapsHostPtr = false;     ///< USE_HOST_PTR zero copy: memory is hostPtr
  };
  /// Allocates on first use. Errors carry mux statuses (OutOfMemory ...).
  llvm::Expected<Storage *> storage(Device &device);
  /// The storage on `device` if it is allocated already, else null.
  Storage *existingStorage(const Device &device);

  /// Where the latest contents are (root buffers of multi-device contexts;
  /// null otherwise). Guarded by the scheduler lock.
  BufferContents *contents() { return root().contents_.get(); }
  /// The poison error model's state of the root buffer (error_model.h).
  PoisonState &poison() { return root().poison_; }
  /// In root coordinates.
  void addUse(Command &command, uint64_t offset, uint64_t size, ContentAccess access) override;
  /// Allocates on the context's only device (no-op with several devices):
  /// returns CL_MEM_OBJECT_ALLOCATION_FAILURE and friends.
  cl_int allocateEagerly();

  struct Mapping {
    void *pointer = nullptr;
    size_t offset = 0;
    size_t size = 0;
    cl_map_flags flags = 0;
    Device *device = nullptr;
    bool staged = false;           ///< data copied through `pointer` at map/unmap
    std::shared_ptr<void> staging; ///< staging memory owned by the mapping
    /// When `staging` is a staging buffer of the device (commands that
    /// cannot access host memory): the map and unmap copy to and from it.
    StagingBuffer *deviceStaging = nullptr;
  };
  void addMapping(Mapping mapping);
  /// Removes the most recent mapping of `pointer` made on `device`.
  std::optional<Mapping> takeMapping(void *pointer, Device &device);

protected:
  /// Frees the storage, then runs destructor callbacks (last registered first).
  void destroy() override;

private:
  llvm::Expected<std::unique_ptr<Storage>> allocateStorage(Device &device);

  Ref<Context> context_;
  Ref<BufferObject> parent_;
  /// The flags this object was given (see flags()). Written only under the
  /// root's flagsMutex_, which sub-buffers also hold to read them with
  /// their parent's.
  std::atomic<cl_mem_flags> ownFlags_;
  mutable std::mutex flagsMutex_;
  size_t size_;
  size_t origin_ = 0;
  void *hostPtr_ = nullptr;
  std::vector<cl_mem_properties> properties_;
  /// COPY_HOST_PTR contents kept for devices not allocated yet.
  std::vector<std::byte> initialData_;
  /// COPY_HOST_PTR source during clCreateBuffer (single device).
  const void *copySource_ = nullptr;

  /// Root buffers of multi-device contexts only.
  std::unique_ptr<BufferContents> contents_;
  /// Used on root buffers of poison error model contexts only.
  PoisonState poison_;

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Storage>> storages_;
  std::vector<Mapping> mappings_;
};

/// Page-aligned host memory for staging copies (maps of memory the host
/// cannot see, migrations between devices); null when out of memory.
std::shared_ptr<void> allocateHostStaging(size_t size);

/// The cl error for a failed allocation (OutOfMemory →
/// CL_MEM_OBJECT_ALLOCATION_FAILURE).
cl_int allocationError(llvm::Error error);

} // namespace polymux::cl
