#include "record_arena.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace vulkan_target {

llvm::Expected<ArenaSlice> RecordArena::allocate(uint64_t size, uint64_t alignment) {
  uint64_t offset = llvm::alignTo(used_, alignment);
  if (blocks_.empty() || offset + size > blocks_.back()->size()) {
    auto block = allocateDeviceAllocation(device_, std::max(size, kBlockSize), preferDeviceLocal_);
    if (!block)
      return block.takeError();
    blocks_.push_back(std::move(*block));
    offset = 0;
  }
  used_ = offset + size;
  const DeviceAllocation &block = *blocks_.back();
  return ArenaSlice{block.handle(), offset, block.host() + offset, block.address() + offset};
}

void RecordArena::reset() {
  if (blocks_.size() > 1 || (!blocks_.empty() && blocks_.front()->size() > kBlockSize)) {
    blocks_.clear();
  }
  used_ = 0;
}

} // namespace vulkan_target
