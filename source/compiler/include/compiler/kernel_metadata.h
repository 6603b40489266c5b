// Kernel metadata from Clang's kernel_arg_* / attribute metadata.
#pragma once

#include "compiler/kernel_info.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <array>
#include <vector>

namespace compiler {

/// True for an OpenCL kernel as Clang emits it (spir_kernel calling
/// convention), not for Clang 22's `__clang_ocl_kern_imp_<name>` copies.
bool isKernel(const llvm::Function &function);

/// The defined kernels of `module`, in module order.
llvm::SmallVector<llvm::Function *, 8> kernelFunctions(llvm::Module &module);

/// The metadata of one kernel. Argument sizes use the module's data layout
/// (host-side sizes: float3 is 16 bytes, pointers are pointer-sized).
KernelInfo kernelInfo(const llvm::Function &kernel);

/// Whether a kernel's argument is an image (its kernel_arg_base_type).
bool isImageArgument(const llvm::Argument &argument);

/// A kernel's (or its work-item function's) reqd_work_group_size and
/// work_group_size_hint attributes: zeros when absent.
std::array<size_t, 3> requiredWorkGroupSize(const llvm::Function &kernel);
std::array<size_t, 3> workGroupSizeHint(const llvm::Function &kernel);

/// kernelInfo() of every kernel in `module`.
std::vector<KernelInfo> kernelInfos(llvm::Module &module);

} // namespace compiler
