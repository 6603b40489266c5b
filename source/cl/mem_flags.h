// The cl_mem_flags rules of buffers: the three groups of flags, which
// combinations are valid, what a sub-buffer may ask for relative to its
// parent, and what the host may do. Shared by clCreateBuffer,
// clCreateSubBuffer, the host transfers and clModifyMemoryFlagsPOLYMUX
// (cl_polymux_mutable_mem_flags, doc/extensions/).
#pragma once

#include "object.h"

namespace polymux::cl::memflags {

/// How kernels may access the memory object.
constexpr cl_mem_flags kernelAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
/// How the host may access it through the API.
constexpr cl_mem_flags hostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
/// Where the storage comes from; fixed when the memory object is created.
constexpr cl_mem_flags allocation = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// Known bits only, at most one flag of each access group, USE_HOST_PTR
/// without ALLOC_HOST_PTR or COPY_HOST_PTR.
bool validCombination(cl_mem_flags flags);

/// The kernel-access flag in effect: CL_MEM_READ_WRITE when none is given.
cl_mem_flags kernelAccessOf(cl_mem_flags flags);

inline bool hostMayRead(cl_mem_flags flags) { return !(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
inline bool hostMayWrite(cl_mem_flags flags) { return !(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

/// Whether a sub-buffer may have the access flags of `requested` under a
/// parent whose flags are `parent`: it may not be more permissive
/// (the CL_INVALID_VALUE rules of clCreateSubBuffer).
bool allowedUnderParent(cl_mem_flags parent, cl_mem_flags requested);

/// The flags a sub-buffer stores for `requested` (already allowed under
/// `parent`): an access group `requested` leaves empty is the parent's, and
/// the allocation flags are the parent's.
cl_mem_flags resolveForSubBuffer(cl_mem_flags parent, cl_mem_flags requested);

/// The flags a sub-buffer has in effect when its own flags are `own` and its
/// parent's are now `parent`, which may have become more restrictive since
/// `own` was resolved: the kernel access is the parent's when the parent is
/// READ_ONLY or WRITE_ONLY, the host may do only what both allow. Equal to
/// `own` while `own` is allowed under `parent`.
cl_mem_flags limitByParent(cl_mem_flags own, cl_mem_flags parent);

} // namespace polymux::cl::memflags
