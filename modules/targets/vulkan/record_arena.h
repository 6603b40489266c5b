// Host-written data a command buffer's commands read on the device (fill
// patterns, argument buffers, access bounds), or device-written data the
// host reads (printf buffers, access reports): slices of a few host-visible
// blocks, kept until the command buffer is reset. An arena for the first
// kind prefers device-local memory (a GPU's BAR), where every work-item's
// reads are cheap; one for the second does not, since host reads of a
// GPU's memory are slow.
#pragma once

#include "device_allocation.h"

#include <vector>

namespace vulkan_target {

struct ArenaSlice {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t offset = 0; ///< within `buffer`
  std::byte *host = nullptr;
  uint64_t address = 0; ///< device address of the slice
};

class RecordArena {
public:
  RecordArena(Device &device, bool preferDeviceLocal) : device_(device), preferDeviceLocal_(preferDeviceLocal) {}
  /// `size` bytes aligned to `alignment` (a power of two, at most 256).
  llvm::Expected<ArenaSlice> allocate(uint64_t size, uint64_t alignment);
  /// Forgets every slice; keeps one block for the next recording.
  void reset();

private:
  static constexpr uint64_t kBlockSize = 256 * 1024;
  Device &device_;
  bool preferDeviceLocal_;
  std::vector<std::unique_ptr<DeviceAllocation>> blocks_;
  uint64_t used_ = 0; ///< bytes used of the last block
};

} // namespace vulkan_target
