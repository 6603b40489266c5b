// Where the latest contents of a buffer are, in a context with several
// devices: the bookkeeping behind migration (migration.h).
//
// A root buffer is split into extents, byte ranges whose copies are in the
// same state. For each device of the context an extent's copy is either
// valid (it holds the latest contents, once its `ready` command has run) or
// stale. "Latest" follows enqueue order: the last command enqueued that
// writes a range makes its device's copy the only valid one. A new buffer is
// one extent valid everywhere: its initial contents (COPY_HOST_PTR,
// USE_HOST_PTR, or undefined) are what every device's storage starts with.
//
// Guarded by the scheduler lock (batch.h), like the batches the `ready`
// events point into.
#pragma once

#include "event.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <span>
#include <vector>

namespace polymux::cl {

class BufferContents {
public:
  /// One device's copy of an extent.
  struct Copy {
    /// Holds the latest contents once `ready` has run.
    bool valid = true;
    /// The command after which it does: the last writer on this device, or
    /// the migration that filled it. Null: nothing to wait for.
    Ref<Event> ready;
    /// `ready` is a migration the OpenCL layer enqueued: commands using the
    /// copy must wait for it (the application cannot know about it).
    bool readyIsMigration = false;

    bool operator==(const Copy &other) const {
      return valid == other.valid && ready == other.ready && readyIsMigration == other.readyIsMigration;
    }
  };

  struct Extent {
    uint64_t begin = 0;
    uint64_t end = 0;
    llvm::SmallVector<Copy, 2> copies; ///< by the device's index in the context
  };

  /// One extent of `size` bytes, valid on each of `deviceCount` devices.
  BufferContents(uint64_t size, size_t deviceCount);

  /// The extents covering exactly [begin, end) (extents straddling either
  /// end are split first). Valid until the next call that changes extents.
  std::span<Extent> extents(uint64_t begin, uint64_t end);
  /// Merges neighbouring extents whose copies are in the same state, so a
  /// buffer used whole stays one extent. Dropped references are duplicates
  /// of kept ones, so no object can be destroyed here.
  void coalesce();

private:
  /// Index of the extent starting at `offset`, splitting one if needed.
  size_t splitAt(uint64_t offset);

  std::vector<Extent> extents_; ///< sorted, covering [0, size)
};

} // namespace polymux::cl
