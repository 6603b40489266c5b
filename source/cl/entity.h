// cl_polymux_kernel_arg_entities: clGetEntityInfoPOLYMUX,
// clNumMemberEntitiesPOLYMUX, clGetEntityMemberInfoPOLYMUX (entity.cpp)
// and the clGetKernelArgInfo query that hands out the first handle.
#pragma once

#include "object.h"

#include "CL/cl_ext_polymux.h"
#include "compiler/kernel_info.h"

namespace polymux::cl {

class Kernel;

/// clGetKernelArgInfo(CL_KERNEL_ARG_ENTITY_POLYMUX) for `arg` of `kernel`:
/// the entity named after the parameter when `named` (the program was built
/// with -cl-kernel-arg-info), else the parameter's unnamed type.
cl_int kernelArgEntityInfo(Kernel &kernel, const compiler::KernelArgInfo &arg, bool named, size_t paramValueSize,
                           void *paramValue, size_t *paramValueSizeRet);

} // namespace polymux::cl
