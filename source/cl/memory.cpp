// Buffers and sub-buffers (BufferObject) and the memory-object entry points:
// clCreateBuffer[WithProperties], clCreateSubBuffer, retain/release, info,
// destructor callbacks. The clEnqueue*Buffer commands are in enqueue_buffer.cpp.
#include "buffer.h"

#include "command.h"
#include "context.h"
#include "device.h"
#include "host_staging.h"
#include "info.h"
#include "mem_flags.h"
#include "svm_allocations.h"

#include "mux/support/log.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace polymux::cl {

std::shared_ptr<void> allocateHostStaging(size_t size) {
  constexpr size_t alignment = 4096;
  void *memory = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (!memory)
    return nullptr;
  return std::shared_ptr<void>(memory, [](void *p) { std::free(p); });
}

cl_int allocationError(llvm::Error error) {
  if (!error)
    return CL_SUCCESS;
  mux::Status status = mux::takeStatus(std::move(error));
  return status == mux::Status::OutOfMemory ? CL_MEM_OBJECT_ALLOCATION_FAILURE : clErrorFromStatus(status);
}

BufferObject::BufferObject(Context &context, cl_mem_flags flags, size_t size, void *hostPtr,
                           std::vector<cl_mem_properties> properties)
    : context_(&context), ownFlags_(flags), size_(size), properties_(std::move(properties)) {
  if (context.devices().size() > 1)
    contents_ = std::make_unique<BufferContents>(size, context.devices().size());
  if (flags & CL_MEM_USE_HOST_PTR)
    hostPtr_ = hostPtr;
  if (flags & CL_MEM_COPY_HOST_PTR) {
    if (context.devices().size() == 1) {
      copySource_ = hostPtr; // used by allocateEagerly() during clCreateBuffer
    } else {
      auto *bytes = static_cast<const std::byte *>(hostPtr);
      initialData_.assign(bytes, bytes + size);
    }
  }
}

BufferObject::BufferObject(BufferObject &parent, cl_mem_flags flags, size_t origin, size_t size)
    : context_(&parent.context()), parent_(&parent), ownFlags_(flags), size_(size), origin_(origin) {
  if (parent.hostPtr())
    hostPtr_ = static_cast<std::byte *>(parent.hostPtr()) + origin;
}

BufferObject *BufferObject::fromHandle(cl_mem handle) {
  MemObject *object = MemObject::fromHandle(handle);
  return object ? dynamic_cast<BufferObject *>(object) : nullptr;
}

llvm::Expected<BufferBinding> BufferObject::binding(Device &device) {
  auto storage = this->storage(device);
  if (!storage)
    return storage.takeError();
  return BufferBinding{(*storage)->buffer.get(), origin_};
}

llvm::Expected<BufferObject::Storage *> BufferObject::storage(Device &device) {
  if (parent_)
    return parent_->storage(device);
  if (Storage *existing = existingStorage(device))
    return existing;
  // Allocated and filled without the lock: filling may wait for the device,
  // whose completion callbacks take the scheduler lock, under which
  // migrations look storages up (existingStorage).
  auto storage = allocateStorage(device);
  if (!storage) {
    // Logged with its reason, then passed on with the same status.
    mux::Status status = mux::Status::Failure;
    std::string reason;
    llvm::handleAllErrors(
        storage.takeError(),
        [&](const mux::StatusError &error) {
          status = error.status();
          reason = error.message();
        },
        [&](const llvm::ErrorInfoBase &error) { reason = error.message(); });
    mux::support::log(mux::support::LogLevel::Warning, "memory",
                      "allocating " + std::to_string(size_) + " bytes on '" + device.info().name + "' failed (" +
                          mux::statusName(status) + "): " + reason);
    return mux::makeError(status, reason);
  }
  if (mux::support::logEnabled(mux::support::LogLevel::Debug, "memory"))
    mux::support::log(mux::support::LogLevel::Debug, "memory",
                      "allocated " + std::to_string(size_) + " bytes on '" + device.info().name + "'");
  std::lock_guard lock(mutex_);
  for (auto &existing : storages_)
    if (existing->device == &device)
      return existing.get(); // another thread was first; ours is dropped
  storages_.push_back(std::move(*storage));
  return storages_.back().get();
}

BufferObject::Storage *BufferObject::existingStorage(const Device &device) {
  if (parent_)
    return parent_->existingStorage(device);
  std::lock_guard lock(mutex_);
  for (auto &storage : storages_)
    if (storage->device == &device)
      return storage.get();
  return nullptr;
}

void BufferObject::addUse(Command &command, uint64_t offset, uint64_t size, ContentAccess access) {
  const uint64_t begin = origin_ + offset;
  if (context_->poisonErrorModel())
    command.memoryUses.push_back(MemoryUse{this, &root(), begin, begin + size, access});
  if (!contents())
    return;
  command.bufferUses.push_back(BufferUse{&root(), begin, begin + size, access});
}

cl_int BufferObject::allocateEagerly() {
  auto devices = context_->devices();
  cl_int code = CL_SUCCESS;
  if (devices.size() == 1) {
    auto storage = this->storage(*devices.front());
    if (!storage)
      code = allocationError(storage.takeError());
  }
  copySource_ = nullptr; // the application's pointer is only valid during creation
  return code;
}

namespace {

/// Copies `size` bytes from the host into freshly allocated device storage.
llvm::Error upload(mux::Device &device, BufferObject::Storage &storage, const void *source, size_t size) {
  if (storage.hostView) {
    std::memcpy(storage.hostView, source, size);
    if (!storage.coherent)
      storage.memory->flushToDevice(0, size);
    return llvm::Error::success();
  }
  // Memory the host cannot see: write it with a one-off command buffer,
  // through a staging buffer where commands cannot read host memory.
  auto commandBuffer = device.createCommandBuffer();
  if (!commandBuffer)
    return commandBuffer.takeError();
  std::shared_ptr<StagingBuffer> staging;
  if (device.info().commandsAccessHostMemory) {
    if (auto error = (*commandBuffer)->writeBuffer(*storage.buffer, 0, source, size))
      return error;
  } else {
    auto created = StagingBuffer::create(device, size, StagingBuffer::HostAccess::Write);
    if (!created)
      return created.takeError();
    staging = std::move(*created);
    std::memcpy(staging->view(), source, size);
    staging->hostWrote(size);
    if (auto error = (*commandBuffer)->copyBuffer(staging->buffer(), 0, *storage.buffer, 0, size))
      return error;
  }
  if (auto error = (*commandBuffer)->finalize())
    return error;
  auto fence = device.createFence();
  if (!fence)
    return fence.takeError();
  if (auto error = device.queue().dispatch(**commandBuffer, {}, {}, fence->get(), nullptr))
    return error;
  mux::Status status = (*fence)->wait(std::chrono::nanoseconds::max());
  if (status != mux::Status::Success)
    return mux::makeError(status, "initial buffer upload failed");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<BufferObject::Storage>> BufferObject::allocateStorage(Device &device) {
  mux::Device &mux = device.mux();
  // Never changed after creation (clModifyMemoryFlagsPOLYMUX keeps them).
  const cl_mem_flags allocation = ownFlags_.load(std::memory_order_relaxed) & memflags::allocation;
  auto storage = std::make_unique<Storage>();
  storage->device = &device;
  auto buffer = mux.createBuffer(size_);
  if (!buffer)
    return buffer.takeError();
  storage->buffer = std::move(*buffer);
  const mux::MemoryRequirements requirements = storage->buffer->memoryRequirements();

  if ((allocation & CL_MEM_USE_HOST_PTR) && requirements.size <= size_ &&
      reinterpret_cast<uintptr_t>(hostPtr_) % std::max<uint64_t>(requirements.alignment, 1) == 0) {
    auto wrapped = mux.wrapHostMemory(hostPtr_, size_);
    if (wrapped) {
      storage->memory = std::move(*wrapped);
      storage->wrapsHostPtr = true;
    } else {
      llvm::consumeError(wrapped.takeError()); // e.g. Unsupported: copy instead
    }
  }
  if (!storage->memory) {
    uint32_t properties =
        (allocation & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_USE_HOST_PTR)) ? mux::MemoryHostVisible : mux::MemoryDeviceLocal;
    auto memory = mux.allocateMemory(std::max<uint64_t>(requirements.size, size_), properties,
                                     std::max<uint64_t>(requirements.alignment, 1));
    if (!memory)
      return memory.takeError();
    storage->memory = std::move(*memory);
  }
  if (auto error = storage->buffer->bind(*storage->memory, 0))
    return error;

  const uint32_t properties = storage->memory->properties();
  storage->coherent = properties & mux::MemoryHostCoherent;
  if (properties & mux::MemoryHostVisible) {
    auto view = storage->memory->map(0, storage->memory->size());
    if (!view)
      return view.takeError();
    storage->hostView = static_cast<std::byte *>(*view);
  }

  const void *initial = nullptr;
  if ((allocation & CL_MEM_USE_HOST_PTR) && !storage->wrapsHostPtr)
    initial = hostPtr_;
  else if (allocation & CL_MEM_COPY_HOST_PTR)
    initial = copySource_ ? copySource_ : (initialData_.empty() ? nullptr : initialData_.data());
  if (initial)
    if (auto error = upload(mux, *storage, initial, size_))
      return error;
  return storage;
}

void BufferObject::addMapping(Mapping mapping) {
  std::lock_guard lock(mutex_);
  mappings_.push_back(std::move(mapping));
}

std::optional<BufferObject::Mapping> BufferObject::takeMapping(void *pointer, Device &device) {
  std::lock_guard lock(mutex_);
  for (auto it = mappings_.rbegin(); it != mappings_.rend(); ++it) {
    if (it->pointer == pointer && it->device == &device) {
      Mapping mapping = std::move(*it);
      mappings_.erase(std::next(it).base());
      return mapping;
    }
  }
  return std::nullopt;
}

cl_uint BufferObject::mapCount() const {
  std::lock_guard lock(mutex_);
  return static_cast<cl_uint>(mappings_.size());
}

BufferObject::Storage::~Storage() {
  if (hostView)
    memory->unmap();
  buffer.reset(); // the view before the memory it is bound to
}

void BufferObject::destroy() {
  storages_.clear();
  mappings_.clear();
  runDestructorCallbacks();
  delete this;
}

namespace {

cl_mem failMem(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
  return nullptr;
}

cl_mem createBuffer(cl_context contextHandle, const cl_mem_properties *properties, bool withProperties,
                    cl_mem_flags flags, size_t size, void *hostPtr, cl_int *errcodeRet) {
  Context *context = Context::fromHandle(contextHandle);
  if (!context)
    return failMem(errcodeRet, CL_INVALID_CONTEXT);
  std::vector<cl_mem_properties> propertyList;
  if (withProperties && properties) {
    // No buffer property is supported (no cl_ext_buffer_device_address ...).
    if (properties[0] != 0)
      return failMem(errcodeRet, CL_INVALID_PROPERTY);
    propertyList.push_back(0);
  }
  if (!memflags::validCombination(flags))
    return failMem(errcodeRet, CL_INVALID_VALUE);
  if (size == 0)
    return failMem(errcodeRet, CL_INVALID_BUFFER_SIZE);
  bool fitsSomeDevice = false;
  for (Device *device : context->devices())
    fitsSomeDevice |= size <= device->info().maxMemAllocSize;
  if (!fitsSomeDevice)
    return failMem(errcodeRet, CL_INVALID_BUFFER_SIZE);
  const bool needsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needsHostPtr != (hostPtr != nullptr))
    return failMem(errcodeRet, CL_INVALID_HOST_PTR);
  // A buffer on SVM memory must fit in its allocation.
  if (flags & CL_MEM_USE_HOST_PTR)
    if (auto svm = context->svmAllocations().find(hostPtr); svm && size > svm->size - svm->offsetOf(hostPtr))
      return failMem(errcodeRet, CL_INVALID_BUFFER_SIZE);

  auto *buffer = new BufferObject(*context, flags, size, hostPtr, std::move(propertyList));
  if (cl_int code = buffer->allocateEagerly(); code != CL_SUCCESS) {
    buffer->release();
    return failMem(errcodeRet, code);
  }
  if (errcodeRet)
    *errcodeRet = CL_SUCCESS;
  return buffer->handle();
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                               cl_int *errcode_ret) {
  return createBuffer(context, nullptr, false, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                             cl_mem_flags flags, size_t size, void *host_ptr,
                                                             cl_int *errcode_ret) {
  return createBuffer(context, properties, true, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer_handle, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void *buffer_create_info, cl_int *errcode_ret) {
  BufferObject *parent = BufferObject::fromHandle(buffer_handle);
  if (!parent || parent->parent())
    return failMem(errcode_ret, CL_INVALID_MEM_OBJECT);
  // Host-pointer flags cannot be given, only inherited.
  if (!memflags::validCombination(flags) || (flags & memflags::allocation))
    return failMem(errcode_ret, CL_INVALID_VALUE);
  const cl_mem_flags parentFlags = parent->flags();
  if (!memflags::allowedUnderParent(parentFlags, flags))
    return failMem(errcode_ret, CL_INVALID_VALUE);
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info)
    return failMem(errcode_ret, CL_INVALID_VALUE);
  const auto &region = *static_cast<const cl_buffer_region *>(buffer_create_info);
  if (region.origin > parent->size() || region.size > parent->size() - region.origin)
    return failMem(errcode_ret, CL_INVALID_VALUE);
  if (region.size == 0)
    return failMem(errcode_ret, CL_INVALID_BUFFER_SIZE);
  bool alignedForSomeDevice = false;
  for (Device *device : parent->context().devices())
    alignedForSomeDevice |= region.origin % std::max<uint32_t>(device->info().memBaseAddrAlign, 1) == 0;
  if (!alignedForSomeDevice)
    return failMem(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);

  const cl_mem_flags resolved = memflags::resolveForSubBuffer(parentFlags, flags);
  auto *buffer = new BufferObject(*parent, resolved, region.origin, region.size);
  if (errcode_ret)
    *errcode_ret = CL_SUCCESS;
  return buffer->handle();
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem handle) {
  MemObject *memory = MemObject::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  memory->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem handle) {
  MemObject *memory = MemObject::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  memory->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem handle, cl_mem_info param_name, size_t param_value_size,
                                                   void *param_value, size_t *param_value_size_ret) {
  MemObject *memory = MemObject::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  auto answer = [&](const auto &value) {
    return writeInfo(param_value_size, param_value, param_value_size_ret, value);
  };
  switch (param_name) {
  case CL_MEM_TYPE:
    return answer(memory->type());
  case CL_MEM_FLAGS:
    return answer(memory->flags());
  case CL_MEM_SIZE:
    return answer(memory->size());
  case CL_MEM_HOST_PTR:
    return answer(memory->hostPtr());
  case CL_MEM_MAP_COUNT:
    return answer(memory->mapCount());
  case CL_MEM_REFERENCE_COUNT:
    return answer(static_cast<cl_uint>(memory->refCount()));
  case CL_MEM_CONTEXT:
    return answer(memory->context().handle());
  case CL_MEM_ASSOCIATED_MEMOBJECT: {
    MemObject *associated = memory->associatedObject();
    return answer(associated ? associated->handle() : cl_mem{nullptr});
  }
  case CL_MEM_OFFSET:
    return answer(memory->associatedOffset());
  case CL_MEM_USES_SVM_POINTER: // a USE_HOST_PTR buffer on clSVMAlloc memory
    return answer(cl_bool(memory->hostPtr() && memory->context().svmAllocations().find(memory->hostPtr())));
  case CL_MEM_PROPERTIES:
    return writeInfoArray(param_value_size, param_value, param_value_size_ret, memory->creationProperties());
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem handle,
                                                                 void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                                                 void *user_data) {
  MemObject *memory = MemObject::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  memory->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}

} // extern "C"
