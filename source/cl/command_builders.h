// The commands both a queue (clEnqueue*) and a command buffer
// (clCommand*KHR) take: each builder checks its arguments against the queue,
// builds the Command and hands it to a sink, which enqueues it or records it
// into a command buffer. A command's `record` owns everything it uses, so a
// command buffer may record it again later (mutable dispatch).
#pragma once

#include "command.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace polymux::cl {

class CommandQueue;

/// Where a validated command goes; returns the entry point's result.
using CommandSink = llvm::function_ref<cl_int(CommandQueue &, Command &&)>;

cl_int buildCopyBuffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t srcOffset, size_t dstOffset, size_t size,
                       CommandSink sink);
cl_int buildFillBuffer(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t patternSize, size_t offset,
                       size_t size, CommandSink sink);
cl_int buildCopyBufferRect(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *srcOrigin,
                           const size_t *dstOrigin, const size_t *region, size_t srcRowPitch, size_t srcSlicePitch,
                           size_t dstRowPitch, size_t dstSlicePitch, CommandSink sink);

/// clEnqueueSVMMemcpy's checks and command (svm.cpp). `hostCopies`: a copy
/// between two host ranges is allowed (done on the host at the command's
/// turn); command buffers, which record only device work, refuse it.
cl_int buildSvmMemcpy(cl_command_queue queue, void *dst, const void *src, size_t size, bool hostCopies,
                      CommandSink sink);
cl_int buildSvmMemFill(cl_command_queue queue, void *svmPtr, const void *pattern, size_t patternSize, size_t size,
                       CommandSink sink);

/// The parts of a kernel launch a mutable command buffer may change later.
struct KernelLaunch {
  mux::Kernel *kernel = nullptr;
  std::vector<mux::KernelArg> args;
  mux::NDRange range;
  bool empty = false; ///< a zero global size: records nothing
};

/// clEnqueueNDRangeKernel's checks. `launch`, when given, receives a copy of
/// what the command records.
cl_int buildKernelLaunch(cl_command_queue queue, cl_kernel kernel, cl_uint workDim, const size_t *globalWorkOffset,
                         const size_t *globalWorkSize, const size_t *localWorkSize, cl_command_type type,
                         CommandSink sink, KernelLaunch *launch = nullptr);

/// Records `launch` (its kernel prepared for its range already).
llvm::Error recordKernelLaunch(mux::CommandBuffer &commandBuffer, const KernelLaunch &launch);

} // namespace polymux::cl
