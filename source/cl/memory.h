// Memory objects (buffers and sub-buffers).
#pragma once

#include "object.h"

#include "mux/memory.h"

#include <cstdint>

namespace polymux::cl {

class Context;
class Device;

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
};

} // namespace polymux::cl
