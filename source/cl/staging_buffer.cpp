#include "staging_buffer.h"

#include <algorithm>
#include <bit>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace polymux::cl {

/// The free staging buffers of one device.
class StagingPool {
public:
  explicit StagingPool(mux::Device &device) : device_(device) {}

  llvm::Expected<std::shared_ptr<StagingBuffer>> acquire(uint64_t size, StagingBuffer::HostAccess access) {
    std::unique_ptr<StagingBuffer> buffer = takeFree(size, access);
    if (!buffer) {
      auto allocated = StagingBuffer::allocate(device_, capacityFor(size), access);
      if (!allocated)
        return allocated.takeError();
      buffer = std::move(*allocated);
    }
    return std::shared_ptr<StagingBuffer>(buffer.release(), [this](StagingBuffer *released) { giveBack(released); });
  }

private:
  /// Free buffers kept beyond this many bytes are freed, oldest first.
  static constexpr uint64_t kKeptBytes = uint64_t{512} << 20;

  /// Rounded up so that transfers of similar sizes share buffers, but never
  /// beyond what one allocation may hold.
  uint64_t capacityFor(uint64_t size) const {
    constexpr uint64_t kSmallest = 64 << 10, kGranule = 1 << 20;
    uint64_t capacity =
        size <= kGranule ? std::bit_ceil(std::max(size, kSmallest)) : (size + kGranule - 1) / kGranule * kGranule;
    return std::max(size, std::min(capacity, device_.info().maxMemAllocSize));
  }

  std::unique_ptr<StagingBuffer> takeFree(uint64_t size, StagingBuffer::HostAccess access) {
    std::lock_guard lock(mutex_);
    // The smallest that fits, and not one so large that a small transfer
    // would keep it from a large one.
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      const uint64_t capacity = (*it)->capacity();
      if ((*it)->access() != access || capacity < size || capacity > 2 * capacityFor(size))
        continue;
      if (best == free_.end() || capacity < (*best)->capacity())
        best = it;
    }
    if (best == free_.end())
      return nullptr;
    std::unique_ptr<StagingBuffer> buffer = std::move(*best);
    free_.erase(best);
    freeBytes_ -= buffer->capacity();
    return buffer;
  }

  void giveBack(StagingBuffer *released) {
    std::unique_ptr<StagingBuffer> buffer(released);
    std::deque<std::unique_ptr<StagingBuffer>> evicted; // freed outside the lock
    std::lock_guard lock(mutex_);
    if (buffer->capacity() > kKeptBytes)
      return;
    freeBytes_ += buffer->capacity();
    free_.push_back(std::move(buffer));
    while (freeBytes_ > kKeptBytes) {
      freeBytes_ -= free_.front()->capacity();
      evicted.push_back(std::move(free_.front()));
      free_.pop_front();
    }
  }

  mux::Device &device_;
  std::mutex mutex_;
  std::deque<std::unique_ptr<StagingBuffer>> free_;
  uint64_t freeBytes_ = 0;
};

namespace {

/// One pool per device for the life of the process: OpenCL root devices live
/// as long as the platform, and the pools are never destroyed so that no
/// exit-time destructor frees device memory after its device.
StagingPool &poolOf(mux::Device &device) {
  static std::mutex mutex;
  static auto *pools = new std::unordered_map<const mux::Device *, std::unique_ptr<StagingPool>>;
  std::lock_guard lock(mutex);
  std::unique_ptr<StagingPool> &pool = (*pools)[&device];
  if (!pool)
    pool = std::make_unique<StagingPool>(device);
  return *pool;
}

} // namespace

llvm::Expected<std::shared_ptr<StagingBuffer>> StagingBuffer::create(mux::Device &device, uint64_t size,
                                                                     HostAccess access) {
  return poolOf(device).acquire(size, access);
}

llvm::Expected<std::unique_ptr<StagingBuffer>> StagingBuffer::allocate(mux::Device &device, uint64_t capacity,
                                                                       HostAccess access) {
  std::unique_ptr<StagingBuffer> staging(new StagingBuffer);
  staging->capacity_ = capacity;
  staging->access_ = access;
  auto buffer = device.createBuffer(capacity);
  if (!buffer)
    return buffer.takeError();
  staging->buffer_ = std::move(*buffer);
  const mux::MemoryRequirements requirements = staging->buffer_->memoryRequirements();
  const uint64_t bytes = std::max(requirements.size, capacity);
  const uint64_t alignment = std::max<uint64_t>(requirements.alignment, 1);
  auto memory = [&]() -> llvm::Expected<std::unique_ptr<mux::Memory>> {
    if (access == HostAccess::ReadWrite) {
      auto cached = device.allocateMemory(bytes, mux::MemoryHostVisible | mux::MemoryHostCached, alignment);
      if (cached)
        return cached;
      llvm::consumeError(cached.takeError()); // no cached type: any host-visible one
    }
    return device.allocateMemory(bytes, mux::MemoryHostVisible, alignment);
  }();
  if (!memory)
    return memory.takeError();
  staging->memory_ = std::move(*memory);
  if (auto error = staging->buffer_->bind(*staging->memory_, 0))
    return error;
  auto view = staging->memory_->map(0, capacity);
  if (!view)
    return view.takeError();
  staging->view_ = static_cast<std::byte *>(*view);
  staging->coherent_ = staging->memory_->properties() & mux::MemoryHostCoherent;
  return staging;
}

StagingBuffer::~StagingBuffer() {
  if (view_)
    memory_->unmap();
  buffer_.reset(); // the view before the memory it is bound to
}

void StagingBuffer::hostWrote(uint64_t size) {
  if (!coherent_)
    memory_->flushToDevice(0, size);
}

void StagingBuffer::beforeHostRead(uint64_t size) {
  if (!coherent_)
    memory_->flushFromDevice(0, size);
}

} // namespace polymux::cl
