#include "mux/support/host_memory.h"

#include "llvm/Support/MathExtras.h"

#include <bit>
#include <new>
#include <string>

namespace mux::support {

llvm::Expected<std::unique_ptr<HostMemory>> HostMemory::allocate(uint64_t size, uint64_t alignment,
                                                                 uint32_t properties, MemoryArena &arena) {
  if (size == 0)
    return makeError(Status::InvalidArgument, "memory size is zero");
  if (alignment == 0 || !std::has_single_bit(alignment))
    return makeError(Status::InvalidArgument, "alignment " + std::to_string(alignment) + " is not a power of two");
  if ((properties & ~kHostMemoryProperties) != 0)
    return makeError(Status::Unsupported, "requested memory properties host RAM does not have");
  if (size > SIZE_MAX - alignment)
    return makeError(Status::OutOfMemory, "allocation of " + std::to_string(size) + " bytes is too large");
  // Round up so the last (partial) vector a kernel loads stays inside the
  // allocation's pages.
  uint64_t rounded = llvm::alignTo(size, alignment);
  auto block = arena.allocate(rounded, alignment);
  if (!block)
    return block.takeError();
  return std::unique_ptr<HostMemory>(
      new HostMemory(block->host, block->deviceAddress, size, alignment, properties, &arena));
}

llvm::Expected<std::unique_ptr<HostMemory>> HostMemory::wrap(void *pointer, uint64_t size, uint32_t properties,
                                                             const MemoryArena &arena) {
  if (!pointer)
    return makeError(Status::InvalidArgument, "wrapped host pointer is null");
  if (size == 0)
    return makeError(Status::InvalidArgument, "wrapped memory size is zero");
  std::optional<uint64_t> address = arena.deviceAddressOf(pointer);
  if (!address)
    return makeError(Status::Unsupported, "the device cannot address application memory");
  return std::unique_ptr<HostMemory>(
      new HostMemory(static_cast<std::byte *>(pointer), *address, size, 0, properties, nullptr));
}

HostMemory::~HostMemory() {
  if (ownsAllocation())
    arena_->release({data_, deviceAddress_}, (size_ + alignment_ - 1) / alignment_ * alignment_, alignment_);
}

llvm::Expected<void *> HostMemory::map(uint64_t offset, uint64_t size) {
  if (!(properties_ & MemoryHostVisible))
    return makeError(Status::Unsupported, "memory is not host-visible");
  if (offset > size_ || size > size_ - offset)
    return makeError(Status::InvalidArgument, "map range [" + std::to_string(offset) + ", +" + std::to_string(size) +
                                                  ") exceeds memory of " + std::to_string(size_) + " bytes");
  mapCount_.fetch_add(1, std::memory_order_relaxed);
  return static_cast<void *>(data_ + offset);
}

void HostMemory::unmap() {
  // An unbalanced unmap is a caller bug; ignore it rather than wrap around.
  uint32_t count = mapCount_.load(std::memory_order_relaxed);
  while (count > 0 && !mapCount_.compare_exchange_weak(count, count - 1, std::memory_order_relaxed)) {
  }
}

llvm::Error HostBuffer::bind(Memory &memory, uint64_t offset) {
  auto *host = dynamic_cast<HostMemory *>(&memory);
  if (!host)
    return makeError(Status::InvalidArgument, "memory was not allocated by this device");
  if (memory_)
    return makeError(Status::InvalidArgument, "buffer is already bound");
  if (offset > host->size() || size_ > host->size() - offset)
    return makeError(Status::InvalidArgument, "buffer of " + std::to_string(size_) + " bytes at offset " +
                                                  std::to_string(offset) + " exceeds memory of " +
                                                  std::to_string(host->size()) + " bytes");
  if (offset % alignment_ != 0)
    return makeError(Status::InvalidArgument, "offset " + std::to_string(offset) + " breaks the buffer alignment of " +
                                                  std::to_string(alignment_));
  memory_ = host;
  offset_ = offset;
  return llvm::Error::success();
}

llvm::Expected<HostBuffer *> asBoundHostBuffer(Buffer &buffer, const char *what) {
  auto *host = dynamic_cast<HostBuffer *>(&buffer);
  if (!host)
    return makeError(Status::InvalidArgument, std::string(what) + " buffer was not created by this device");
  if (!host->data())
    return makeError(Status::InvalidArgument, std::string(what) + " buffer is not bound to memory");
  return host;
}

} // namespace mux::support
