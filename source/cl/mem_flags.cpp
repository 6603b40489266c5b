// The cl_mem_flags rules (mem_flags.h), the current flags of a buffer, and
// clModifyMemoryFlagsPOLYMUX (cl_polymux_mutable_mem_flags): the kernel- and
// host-access flags of a buffer may be replaced after creation. Every API
// call reads a buffer's flags once, through BufferObject::flags(), when it is
// made; a command enqueued before a change keeps what was checked then.
#include "mem_flags.h"

#include "buffer.h"

#include "CL/cl_ext_polymux.h"

#include <mutex>

namespace polymux::cl {
namespace memflags {
namespace {

bool atMostOneBit(cl_mem_flags bits) { return (bits & (bits - 1)) == 0; }

} // namespace

bool validCombination(cl_mem_flags flags) {
  if (flags & ~(kernelAccess | hostAccess | allocation))
    return false;
  if (!atMostOneBit(flags & kernelAccess) || !atMostOneBit(flags & hostAccess))
    return false;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return false;
  return true;
}

cl_mem_flags kernelAccessOf(cl_mem_flags flags) {
  return (flags & kernelAccess) ? (flags & kernelAccess) : CL_MEM_READ_WRITE;
}

bool allowedUnderParent(cl_mem_flags parent, cl_mem_flags requested) {
  const cl_mem_flags parentKernel = kernelAccessOf(parent);
  const cl_mem_flags requestedKernel = requested & kernelAccess;
  if (requestedKernel && parentKernel != CL_MEM_READ_WRITE && requestedKernel != parentKernel)
    return false;
  if (requested & hostAccess) {
    if (hostMayRead(requested) && !hostMayRead(parent))
      return false;
    if (hostMayWrite(requested) && !hostMayWrite(parent))
      return false;
  }
  return true;
}

cl_mem_flags resolveForSubBuffer(cl_mem_flags parent, cl_mem_flags requested) {
  cl_mem_flags resolved = requested;
  if (!(requested & kernelAccess))
    resolved |= kernelAccessOf(parent);
  if (!(requested & hostAccess))
    resolved |= parent & hostAccess;
  return resolved | (parent & allocation);
}

cl_mem_flags limitByParent(cl_mem_flags own, cl_mem_flags parent) {
  cl_mem_flags limited = own & allocation;
  const cl_mem_flags parentKernel = kernelAccessOf(parent);
  limited |= parentKernel == CL_MEM_READ_WRITE ? (own & kernelAccess) : parentKernel;
  const bool read = hostMayRead(own) && hostMayRead(parent);
  const bool write = hostMayWrite(own) && hostMayWrite(parent);
  if (read == hostMayRead(own) && write == hostMayWrite(own))
    limited |= own & hostAccess;
  else
    limited |= read ? CL_MEM_HOST_READ_ONLY : write ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_NO_ACCESS;
  return limited;
}

} // namespace memflags

cl_mem_flags BufferObject::flags() const {
  if (!parent_)
    return ownFlags_.load(std::memory_order_acquire);
  // Both under the root's lock, so that a change of either is seen whole.
  std::lock_guard lock(parent_->flagsMutex_);
  return memflags::limitByParent(ownFlags_.load(std::memory_order_relaxed),
                                 parent_->ownFlags_.load(std::memory_order_relaxed));
}

cl_int BufferObject::replaceAccessFlags(cl_mem_flags flags) {
  if (!memflags::validCombination(flags))
    return CL_INVALID_VALUE;
  std::lock_guard lock(root().flagsMutex_);
  const cl_mem_flags own = ownFlags_.load(std::memory_order_relaxed);
  if ((flags & memflags::allocation) != (own & memflags::allocation))
    return CL_INVALID_VALUE;
  if (!parent_) {
    ownFlags_.store(flags, std::memory_order_release);
    return CL_SUCCESS;
  }
  const cl_mem_flags parentFlags = parent_->ownFlags_.load(std::memory_order_relaxed);
  if (!memflags::allowedUnderParent(parentFlags, flags))
    return CL_INVALID_VALUE;
  ownFlags_.store(memflags::resolveForSubBuffer(parentFlags, flags), std::memory_order_release);
  return CL_SUCCESS;
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clModifyMemoryFlagsPOLYMUX(cl_mem memobj, cl_mem_flags flags) {
  BufferObject *buffer = BufferObject::fromHandle(memobj);
  if (!buffer)
    return CL_INVALID_MEM_OBJECT;
  return buffer->replaceAccessFlags(flags);
}

} // extern "C"
