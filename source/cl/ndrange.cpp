// clEnqueueNDRangeKernel, clEnqueueTask and clEnqueueNativeKernel: validate
// the index space against the kernel and device, pick a work-group size when
// the application leaves it to us, and hand the launch to the queue.
#include "command_builders.h"
#include "context.h"
#include "device.h"
#include "kernel.h"
#include "program.h"
#include "program_binary.h"
#include "program_impl.h"
#include "queue.h"

#include <algorithm>
#include <array>
#include <limits>
#include <new>

using namespace polymux::cl;

namespace {

/// Work-group size aimed at when the application passes no local size:
/// large enough to amortise per-group costs, small enough to leave several
/// groups for parallelism on typical problem sizes. A GPU's groups share a
/// compute unit's registers, and 256 leaves room for several. A CPU runs
/// each group as a loop on one thread, where every group costs a call and
/// its set-up: up to 1024 amortises that (the STREAM triad gains 4-11% on
/// the host over 256) while every thread still gets a few groups.
size_t targetWorkGroupSize(const mux::DeviceInfo &info, const std::array<size_t, 3> &global, uint32_t dims) {
  constexpr size_t kGpuTarget = 256, kCpuTarget = 1024, kGroupsPerComputeUnit = 4;
  if (info.type != mux::DeviceType::CPU)
    return kGpuTarget;
  uint64_t items = 1;
  for (uint32_t d = 0; d < dims; ++d)
    items *= global[d];
  const uint64_t groupsWanted = uint64_t{std::max(info.computeUnits, 1u)} * kGroupsPerComputeUnit;
  size_t target = kCpuTarget;
  while (target > kGpuTarget && items / target < groupsWanted)
    target /= 2;
  return target;
}

struct WorkGroupLimits {
  size_t maxGroupSize;                ///< kernel and device limit on the product
  std::array<size_t, 3> maxItemSizes; ///< per-dimension device limit
  size_t preferredMultiple;
  bool uniform;      ///< global must be a multiple of local
  size_t targetSize; ///< targetWorkGroupSize
};

/// Largest divisor of `n` not above `cap` (at least 1), preferring multiples
/// of `multiple` when one exists.
size_t largestDivisor(size_t n, size_t cap, size_t multiple) {
  cap = std::max<size_t>(1, std::min(cap, n));
  if (multiple > 1)
    for (size_t candidate = cap / multiple * multiple; candidate >= multiple; candidate -= multiple)
      if (n % candidate == 0)
        return candidate;
  for (size_t candidate = cap; candidate > 1; --candidate)
    if (n % candidate == 0)
      return candidate;
  return 1;
}

/// A local size for `global` when the application gave none.
std::array<size_t, 3> chooseLocalSize(uint32_t dims, const std::array<size_t, 3> &global,
                                      const WorkGroupLimits &limits) {
  std::array<size_t, 3> local{1, 1, 1};
  size_t budget = std::max<size_t>(1, std::min(limits.maxGroupSize, limits.targetSize));
  for (uint32_t d = 0; d < dims; ++d) {
    size_t cap = std::min({budget, limits.maxItemSizes[d], std::max<size_t>(global[d], 1)});
    size_t size = largestDivisor(global[d], cap, limits.preferredMultiple);
    // A poor divisor (e.g. of a prime size) makes many tiny groups; a
    // partial last group is cheaper when the program allows it.
    if (!limits.uniform && size * 2 <= cap) {
      size = cap;
      if (limits.preferredMultiple > 1 && size >= limits.preferredMultiple)
        size = size / limits.preferredMultiple * limits.preferredMultiple;
    }
    local[d] = size;
    budget = std::max<size_t>(1, budget / size);
  }
  return local;
}

cl_int errorFrom(llvm::Error error, cl_int fallback) {
  std::string ignored;
  return errorCodeFor(takeStatusAndMessage(std::move(error), ignored), fallback);
}

} // namespace

namespace polymux::cl {

llvm::Error recordKernelLaunch(mux::CommandBuffer &commandBuffer, const KernelLaunch &launch) {
  if (launch.empty)
    return llvm::Error::success();
  return commandBuffer.ndrange(*launch.kernel, launch.args, launch.range);
}

cl_int buildKernelLaunch(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                         const size_t *global_work_offset, const size_t *global_work_size,
                         const size_t *local_work_size, cl_command_type commandType, CommandSink sink,
                         KernelLaunch *launch) {
  CommandQueue *queue = CommandQueue::fromHandle(command_queue);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  Kernel *k = Kernel::fromHandle(kernel);
  if (!k)
    return CL_INVALID_KERNEL;
  Program &program = k->program();
  if (&program.context() != &queue->context())
    return CL_INVALID_CONTEXT;
  Device &device = queue->device();
  if (!program.hasExecutable(device))
    return CL_INVALID_PROGRAM_EXECUTABLE;
  const mux::DeviceInfo &info = device.info();
  if (work_dim < 1 || work_dim > 3 || work_dim > info.maxWorkItemDimensions)
    return CL_INVALID_WORK_DIMENSION;

  // Index space: sizes and offsets must fit the device's size_t. Since
  // OpenCL 2.1 a NULL global size, like a zero in any dimension, makes a
  // command that runs no work-item and completes like a marker.
  static constexpr size_t kNoWorkItems[3] = {0, 0, 0};
  if (!global_work_size)
    global_work_size = kNoWorkItems;
  const uint64_t sizeMax =
      info.addressBits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << info.addressBits) - 1;
  mux::NDRange range;
  range.dimensions = work_dim;
  bool empty = false;
  for (cl_uint d = 0; d < work_dim; ++d) {
    size_t global = global_work_size[d];
    if (global > sizeMax)
      return CL_INVALID_GLOBAL_WORK_SIZE;
    size_t offset = global_work_offset ? global_work_offset[d] : 0;
    if (offset > sizeMax - global)
      return CL_INVALID_GLOBAL_OFFSET;
    range.globalSize[d] = global;
    range.globalOffset[d] = offset;
    empty |= global == 0; // allowed since OpenCL 2.1: the launch does nothing
  }

  auto muxKernel = k->muxKernel(device);
  if (!muxKernel)
    return errorFrom(muxKernel.takeError(), CL_OUT_OF_RESOURCES);
  const uint32_t flags = program.buildFlags(device);
  const WorkGroupLimits limits{std::min((*muxKernel)->maxWorkGroupSize(), info.maxWorkGroupSize), info.maxWorkItemSizes,
                               std::max<size_t>(1, (*muxKernel)->preferredWorkGroupSizeMultiple()),
                               (flags & BinaryFlagUniformWorkGroups) != 0,
                               targetWorkGroupSize(info, range.globalSize, work_dim)};
  const auto &reqd = k->info().reqdWorkGroupSize;
  const bool hasReqd = reqd[0] != 0;

  if (local_work_size) {
    // The total is checked before the per-dimension limits, in the order
    // the specification lists the two errors.
    size_t total = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      if (local_work_size[d] == 0)
        return CL_INVALID_WORK_GROUP_SIZE;
      total *= local_work_size[d];
      range.localSize[d] = local_work_size[d];
    }
    if (total > limits.maxGroupSize)
      return CL_INVALID_WORK_GROUP_SIZE;
    for (cl_uint d = 0; d < work_dim; ++d)
      if (local_work_size[d] > info.maxWorkItemSizes[d])
        return CL_INVALID_WORK_ITEM_SIZE;
  } else if (hasReqd) {
    for (cl_uint d = 0; d < work_dim; ++d) {
      if (reqd[d] > info.maxWorkItemSizes[d])
        return CL_INVALID_WORK_ITEM_SIZE;
      range.localSize[d] = reqd[d];
    }
  } else if (!empty) {
    range.localSize = chooseLocalSize(work_dim, range.globalSize, limits);
  }
  if (hasReqd) {
    for (cl_uint d = 0; d < 3; ++d)
      if (range.localSize[d] != reqd[d])
        return CL_INVALID_WORK_GROUP_SIZE;
    if (reqd[0] * reqd[1] * reqd[2] > limits.maxGroupSize)
      return CL_INVALID_WORK_GROUP_SIZE;
  }
  if (limits.uniform)
    for (cl_uint d = 0; d < work_dim; ++d)
      if (range.globalSize[d] % range.localSize[d] != 0)
        return CL_INVALID_WORK_GROUP_SIZE;

  // __local memory: the kernel's own plus its __local pointer arguments.
  if ((*muxKernel)->localMemSize() + k->localArgBytes() > info.localMemSize)
    return CL_OUT_OF_RESOURCES;

  Command command;
  command.type = commandType;
  command.keepAlive.push_back(Ref<ObjectBase>(k));
  command.kernelExit = KernelExitState{k->info().name, k->program().impl().exitMessages, std::nullopt, {}};
  std::vector<mux::KernelArg> args;
  if (cl_int code = k->deviceArgs(device, args, command); code != CL_SUCCESS)
    return code;
  // Here, before the queue takes the scheduler lock: preparing may compile
  // (a pipeline for this local size), which must not stall other queues.
  if (!empty)
    if (auto error = (*muxKernel)->prepareLaunch(args, range))
      return errorFrom(std::move(error), CL_OUT_OF_RESOURCES);
  KernelLaunch recorded{*muxKernel, std::move(args), range, empty};
  if (launch)
    *launch = recorded;
  command.record = [recorded = std::move(recorded)](mux::CommandBuffer &commandBuffer) {
    return recordKernelLaunch(commandBuffer, recorded);
  };
  return sink(*queue, std::move(command));
}

} // namespace polymux::cl

namespace {

cl_int enqueueKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                     const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event,
                     cl_command_type commandType) {
  return buildKernelLaunch(command_queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size,
                           commandType, [&](CommandQueue &queue, Command &&command) {
                             return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
                           });
}

} // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                                       cl_uint work_dim, const size_t *global_work_offset,
                                                       const size_t *global_work_size, const size_t *local_work_size,
                                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                       cl_event *event) {
  try {
    return enqueueKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size,
                         num_events_in_wait_list, event_wait_list, event, CL_COMMAND_NDRANGE_KERNEL);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event) {
  const size_t one = 1;
  try {
    return enqueueKernel(command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list, event_wait_list, event,
                         CL_COMMAND_TASK);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                                      void(CL_CALLBACK *user_func)(void *), void *args, size_t cb_args,
                                                      cl_uint num_mem_objects, const cl_mem *mem_list,
                                                      const void **args_mem_loc, cl_uint num_events_in_wait_list,
                                                      const cl_event *event_wait_list, cl_event *event) {
  if (!CommandQueue::fromHandle(command_queue))
    return CL_INVALID_COMMAND_QUEUE;
  if (!user_func)
    return CL_INVALID_VALUE;
  // No device reports CL_EXEC_NATIVE_KERNEL in CL_DEVICE_EXECUTION_CAPABILITIES.
  return CL_INVALID_OPERATION;
}

} // extern "C"
