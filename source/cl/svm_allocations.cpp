#include "svm_allocations.h"

#include "buffer.h"
#include "context.h"
#include "device.h"

#include "mux/device.h"

namespace polymux::cl {

bool supportsSvm(const Device &device) {
  return device.info().svmCapabilities & mux::svm_capability::CoarseGrainBuffer;
}

bool contextSupportsSvm(const Context &context) {
  for (const Device *device : context.devices())
    if (supportsSvm(*device))
      return true;
  return false;
}

namespace {

/// The capabilities an allocation with `flags` needs of every device.
uint64_t neededCapabilities(cl_svm_mem_flags flags) {
  uint64_t needed = mux::svm_capability::CoarseGrainBuffer;
  if (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)
    needed |= mux::svm_capability::FineGrainBuffer;
  if (flags & CL_MEM_SVM_ATOMICS)
    needed |= mux::svm_capability::Atomics;
  return needed;
}

bool offers(const Device &device, uint64_t needed) { return (device.info().svmCapabilities & needed) == needed; }

/// The buffer's destructor callback: the shared memory goes after the
/// buffer's storages (which only wrap it).
void CL_CALLBACK freeSharedMemory(cl_mem, void *memory) {
  auto *shared = static_cast<mux::Memory *>(memory);
  shared->unmap();
  delete shared;
}

/// An internal buffer over `owner`'s shared memory, with storage on every
/// device of the context that offers `needed`, each at the memory's own
/// address; null when one of them cannot address it there.
Ref<BufferObject> shareFrom(Context &context, Device &owner, cl_svm_mem_flags flags, size_t size, size_t alignment,
                            uint64_t needed) {
  auto memory = owner.mux().allocateSharedMemory(size, alignment);
  if (!memory) {
    llvm::consumeError(memory.takeError());
    return nullptr;
  }
  auto view = (*memory)->map(0, size);
  if (!view) {
    llvm::consumeError(view.takeError());
    return nullptr;
  }
  constexpr cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
  Ref<BufferObject> buffer = adopt(new BufferObject(context, CL_MEM_USE_HOST_PTR | (flags & access), size, *view, {}));
  buffer->addDestructorCallback(freeSharedMemory, memory->release());
  for (Device *device : context.devices()) {
    if (!offers(*device, needed))
      continue;
    auto storage = buffer->storage(*device);
    if (!storage) {
      llvm::consumeError(storage.takeError());
      return nullptr;
    }
    if (!(*storage)->wrapsHostPtr || (*storage)->buffer->deviceAddress() != reinterpret_cast<uint64_t>(*view))
      return nullptr;
  }
  return buffer;
}

} // namespace

void *SvmAllocations::allocate(Context &context, cl_svm_mem_flags flags, size_t size, size_t alignment) {
  const uint64_t needed = neededCapabilities(flags);
  // Any offering device may own the memory if the others can address it
  // at the same place (a simulator's window can be wrapped by the host
  // device, not the reverse): the first that works.
  for (Device *owner : context.devices()) {
    if (!offers(*owner, needed))
      continue;
    Ref<BufferObject> buffer = shareFrom(context, *owner, flags, size, alignment, needed);
    if (!buffer)
      continue;
    auto allocation = std::make_shared<SvmAllocation>();
    allocation->base = static_cast<std::byte *>(buffer->hostPtr());
    allocation->size = size;
    allocation->flags = flags;
    allocation->buffer = std::move(buffer);
    std::lock_guard lock(mutex_);
    allocations_.emplace(allocation->base, allocation);
    return allocation->base;
  }
  return nullptr;
}

bool SvmAllocations::free(void *pointer) {
  std::shared_ptr<const SvmAllocation> allocation;
  {
    std::lock_guard lock(mutex_);
    auto it = allocations_.find(static_cast<const std::byte *>(pointer));
    if (it == allocations_.end())
      return false;
    allocation = std::move(it->second);
    allocations_.erase(it);
  }
  // Released here, outside the lock; the buffer (and the memory) go with
  // their last reference, which a command in flight may hold.
  return true;
}

std::shared_ptr<const SvmAllocation> SvmAllocations::find(const void *pointer) const {
  const auto *byte = static_cast<const std::byte *>(pointer);
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(byte);
  if (it == allocations_.begin())
    return nullptr;
  --it;
  const uint64_t offset = byte - it->first;
  if (offset < it->second->size)
    return it->second;
  return nullptr;
}

std::shared_ptr<const SvmAllocation> SvmAllocations::findBase(const void *pointer) const {
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(static_cast<const std::byte *>(pointer));
  return it == allocations_.end() ? nullptr : it->second;
}

} // namespace polymux::cl
