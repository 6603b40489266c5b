// Memory objects (buffers and sub-buffers).
#pragma once

#include "object.h"

#include "mux/memory.h"

#include <cstdint>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

namespace polymux::cl {

class Context;
class Device;
struct Command;
enum class ContentAccess : uint8_t;

/// Where a memory object lives on one device: a mux buffer and the offset of
/// this object inside it (non-zero for sub-buffers).
struct BufferBinding {
  mux::Buffer *buffer = nullptr;
  uint64_t offset = 0;
};

class MemObject : public Object<_cl_mem, ObjectKind::Memory> {
public:
  static MemObject *fromHandle(cl_mem handle) { return Object::fromHandle<MemObject>(handle); }

  virtual Context &context() const = 0;
  virtual cl_mem_object_type type() const = 0;
  virtual cl_mem_flags flags() const = 0;
  virtual size_t size() const = 0;
  /// The storage of this object on `device`; allocates it on first use.
  /// Fails with CL_MEM_OBJECT_ALLOCATION_FAILURE-like errors.
  virtual llvm::Expected<BufferBinding> binding(Device &device) = 0;
  /// Lists [offset, offset + size) of this object among the ranges `command`
  /// uses (Command::bufferUses); a no-op in one-device contexts.
  virtual void addUse(Command &command, uint64_t offset, uint64_t size, ContentAccess access) = 0;

  // clGetMemObjectInfo answers (defaults: a memory object with no host
  // pointer, parent, mappings or properties).
  virtual void *hostPtr() const { return nullptr; }
  virtual cl_uint mapCount() const { return 0; }
  virtual MemObject *associatedObject() const { return nullptr; }
  virtual size_t associatedOffset() const { return 0; }
  virtual std::span<const cl_mem_properties> creationProperties() const { return {}; }

  using DestructorFn = void(CL_CALLBACK *)(cl_mem, void *);
  void addDestructorCallback(DestructorFn fn, void *userData) {
    std::lock_guard lock(destructorMutex_);
    destructorCallbacks_.emplace_back(fn, userData);
  }

protected:
  /// Runs the destructor callbacks, last registered first. Subclasses call it
  /// from destroy() once their storage is released, then delete themselves.
  void runDestructorCallbacks() {
    for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
      it->first(handle(), it->second);
    destructorCallbacks_.clear();
  }

private:
  std::mutex destructorMutex_;
  std::vector<std::pair<DestructorFn, void *>> destructorCallbacks_;
};

} // namespace polymux::cl
