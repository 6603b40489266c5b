// Shared virtual memory entry points: clSVMAlloc/clSVMFree, the clEnqueueSVM*
// commands, clSetKernelArgSVMPointer and clSetKernelExecInfo.
//
// Every allocation is an internal buffer over memory that the host and every
// SVM-capable device of the context address at the same place
// (svm_allocations.h), so the commands are buffer commands on it: memcpy is a
// copy, read or write of buffer ranges, memfill a buffer fill. A device
// offers SVM only where its memory is the host's memory itself
// (mux::DeviceInfo::svmCapabilities), so a map or unmap moves no data: they
// are ordering points with their events, as is a migration.
#include "buffer.h"
#include "command.h"
#include "command_builders.h"
#include "context.h"
#include "device.h"
#include "host_staging.h"
#include "kernel.h"
#include "program.h"
#include "queue.h"
#include "svm_allocations.h"

#include <bit>
#include <cstring>

namespace polymux::cl {
namespace {

/// The largest alignment clSVMAlloc accepts (a page); 0 asks for the
/// alignment of the largest OpenCL C type (long16, 128 bytes).
constexpr size_t kMaxSvmAlignment = 4096;
constexpr size_t kDefaultSvmAlignment = 128;

/// A command queue whose device offers SVM.
cl_int resolveSvmQueue(cl_command_queue handle, CommandQueue *&queue) {
  queue = CommandQueue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  return supportsSvm(queue->device()) ? CL_SUCCESS : CL_INVALID_OPERATION;
}

/// A kernel whose context has an SVM device.
cl_int resolveSvmKernel(cl_kernel handle, Kernel *&kernel) {
  kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  return contextSupportsSvm(kernel->program().context()) ? CL_SUCCESS : CL_INVALID_OPERATION;
}

/// [pointer, pointer + size) inside one SVM allocation of `context`: that
/// allocation, else null.
std::shared_ptr<const SvmAllocation> allocationHolding(const Context &context, const void *pointer, size_t size) {
  auto allocation = context.svmAllocations().find(pointer);
  if (!allocation || size > allocation->size - allocation->offsetOf(pointer))
    return nullptr;
  return allocation;
}

/// The allocation's storage on the queue's device.
cl_int bindOnQueue(const SvmAllocation &allocation, CommandQueue &queue, BufferBinding &binding) {
  auto result = allocation.buffer->binding(queue.device());
  if (!result)
    return allocationError(result.takeError());
  binding = *result;
  return CL_SUCCESS;
}

/// Keeps the allocation's memory while `command` is in flight and lists
/// its range among the command's uses (multi-device contexts).
void useAllocation(Command &command, const SvmAllocation &allocation, const void *pointer, size_t size,
                   ContentAccess access) {
  command.keepAlive.emplace_back(allocation.buffer.get());
  allocation.buffer->addUse(command, allocation.offsetOf(pointer), size, access);
}

bool validMapFlags(cl_map_flags flags) {
  if (flags & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    return false;
  return !((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)));
}

} // namespace

cl_int buildSvmMemcpy(cl_command_queue queueHandle, void *dst, const void *src, size_t size, bool hostCopies,
                      CommandSink sink) {
  CommandQueue *queue;
  if (cl_int code = resolveSvmQueue(queueHandle, queue))
    return code;
  if (!dst || !src)
    return CL_INVALID_VALUE;
  const auto *dstBytes = static_cast<const std::byte *>(dst);
  const auto *srcBytes = static_cast<const std::byte *>(src);
  if (size && dstBytes < srcBytes + size && srcBytes < dstBytes + size)
    return CL_MEM_COPY_OVERLAP;
  Context &context = queue->context();
  auto dstAllocation = size ? allocationHolding(context, dst, size) : nullptr;
  auto srcAllocation = size ? allocationHolding(context, src, size) : nullptr;
  // A range that starts in an allocation must end in it.
  if ((!dstAllocation && size && context.svmAllocations().find(dst)) ||
      (!srcAllocation && size && context.svmAllocations().find(src)))
    return CL_INVALID_VALUE;
  if (size && !dstAllocation && !srcAllocation && !hostCopies)
    return CL_INVALID_VALUE;
  Command command;
  command.type = CL_COMMAND_SVM_MEMCPY;
  BufferBinding dstBinding, srcBinding;
  if (dstAllocation)
    if (cl_int code = bindOnQueue(*dstAllocation, *queue, dstBinding))
      return code;
  if (srcAllocation)
    if (cl_int code = bindOnQueue(*srcAllocation, *queue, srcBinding))
      return code;
  mux::Device &device = queue->device().mux();
  if (dstAllocation && srcAllocation) {
    const uint64_t dstOffset = dstBinding.offset + dstAllocation->offsetOf(dst);
    const uint64_t srcOffset = srcBinding.offset + srcAllocation->offsetOf(src);
    command.record = [dstBinding, srcBinding, dstOffset, srcOffset, size](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.copyBuffer(*srcBinding.buffer, srcOffset, *dstBinding.buffer, dstOffset, size);
    };
  } else if (dstAllocation) {
    if (cl_int code = setHostWrite(command, device, *dstBinding.buffer,
                                   dstBinding.offset + dstAllocation->offsetOf(dst), src, size))
      return code;
  } else if (srcAllocation) {
    if (cl_int code = setHostRead(command, device, *srcBinding.buffer, srcBinding.offset + srcAllocation->offsetOf(src),
                                  dst, size))
      return code;
  } else if (size) {
    // Host memory on both sides: copied on the host when the command's turn
    // comes (before its event completes).
    command.onComplete = [dst, src, size] { std::memcpy(dst, src, size); };
  }
  if (srcAllocation)
    useAllocation(command, *srcAllocation, src, size, ContentAccess::Read);
  if (dstAllocation)
    useAllocation(command, *dstAllocation, dst, size, ContentAccess::Overwrite);
  return sink(*queue, std::move(command));
}

cl_int buildSvmMemFill(cl_command_queue queueHandle, void *svmPtr, const void *pattern, size_t patternSize, size_t size,
                       CommandSink sink) {
  CommandQueue *queue;
  if (cl_int code = resolveSvmQueue(queueHandle, queue))
    return code;
  if (!svmPtr || !pattern || !std::has_single_bit(patternSize) || patternSize > 128)
    return CL_INVALID_VALUE;
  if (reinterpret_cast<uintptr_t>(svmPtr) % patternSize || size % patternSize)
    return CL_INVALID_VALUE;
  Command command;
  command.type = CL_COMMAND_SVM_MEMFILL;
  if (size == 0) // nothing to fill: a marker
    return sink(*queue, std::move(command));
  auto allocation = allocationHolding(queue->context(), svmPtr, size);
  if (!allocation)
    return CL_INVALID_VALUE;
  BufferBinding binding;
  if (cl_int code = bindOnQueue(*allocation, *queue, binding))
    return code;
  // The pattern is copied now: the application may reuse its memory at once.
  const auto *bytes = static_cast<const std::byte *>(pattern);
  command.record = [binding, offset = binding.offset + allocation->offsetOf(svmPtr), size,
                    copy = std::vector<std::byte>(bytes, bytes + patternSize)](mux::CommandBuffer &commandBuffer) {
    return commandBuffer.fillBuffer(*binding.buffer, offset, size, copy.data(), copy.size());
  };
  useAllocation(command, *allocation, svmPtr, size, ContentAccess::Overwrite);
  return sink(*queue, std::move(command));
}

namespace {

/// Commands that move no data (map, unmap, migrate): ordering points over
/// the allocations they name.
struct OrderingCommand {
  Command command;
  explicit OrderingCommand(cl_command_type type) { command.type = type; }
  /// Records no work, like a marker: its event does not take the outcome
  /// of an earlier command.
  cl_int enqueue(CommandQueue &queue, bool blocking, cl_uint numEvents, const cl_event *waitList, cl_event *event) {
    return queue.enqueue(std::move(command), numEvents, waitList, event, blocking);
  }
};

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context context_handle, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  Context *context = Context::fromHandle(context_handle);
  if (!context)
    return nullptr;
  constexpr cl_svm_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  constexpr cl_svm_mem_flags known = access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  if ((flags & ~known) || std::popcount(flags & access) > 1)
    return nullptr;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
    return nullptr;
  if (alignment != 0 && (!std::has_single_bit(alignment) || alignment > kMaxSvmAlignment))
    return nullptr;
  size_t largest = 0;
  for (Device *device : context->devices())
    if (supportsSvm(*device))
      largest = std::max<size_t>(largest, device->info().maxMemAllocSize);
  if (size == 0 || size > largest)
    return nullptr; // also when no device offers SVM
  size_t aligned = std::max<size_t>(alignment ? alignment : kDefaultSvmAlignment, kDefaultSvmAlignment);
  try {
    return context->svmAllocations().allocate(*context, flags, size, aligned);
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context_handle, void *svm_pointer) {
  Context *context = Context::fromHandle(context_handle);
  if (!context || !svm_pointer)
    return;
  // Not from clSVMAlloc on this context: undefined, so ignored.
  context->svmAllocations().free(svm_pointer);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                  void *svm_pointers[], void *user_data),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  CommandQueue *queue;
  if (cl_int code = resolveSvmQueue(command_queue, queue))
    return code;
  if ((num_svm_pointers == 0) != (svm_pointers == nullptr))
    return CL_INVALID_VALUE;
  std::vector<void *> pointers(svm_pointers, svm_pointers + num_svm_pointers);
  for (void *pointer : pointers)
    if (!pointer)
      return CL_INVALID_VALUE;
  OrderingCommand free(CL_COMMAND_SVM_FREE);
  // The callback gets our copy of the list: the application may have
  // reused its array by then.
  free.command.onComplete = [queueHandle = queue->handle(), context = Ref<Context>(&queue->context()),
                             pointers = std::move(pointers), pfn_free_func, user_data]() mutable {
    if (pfn_free_func) {
      pfn_free_func(queueHandle, static_cast<cl_uint>(pointers.size()), pointers.data(), user_data);
      return;
    }
    for (void *pointer : pointers)
      context->svmAllocations().free(pointer);
  };
  return free.enqueue(*queue, false, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
                                                   const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event) {
  return buildSvmMemcpy(command_queue, dst_ptr, src_ptr, size, true, [&](CommandQueue &queue, Command &&command) {
    return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event, blocking_copy);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
                                                    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list, cl_event *event) {
  return buildSvmMemFill(command_queue, svm_ptr, pattern, pattern_size, size,
                         [&](CommandQueue &queue, Command &&command) {
                           return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
                         });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                                cl_map_flags flags, void *svm_ptr, size_t size,
                                                cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                cl_event *event) {
  CommandQueue *queue;
  if (cl_int code = resolveSvmQueue(command_queue, queue))
    return code;
  if (!svm_ptr || size == 0 || !validMapFlags(flags))
    return CL_INVALID_VALUE;
  auto allocation = allocationHolding(queue->context(), svm_ptr, size);
  if (!allocation)
    return CL_INVALID_VALUE;
  OrderingCommand map(CL_COMMAND_SVM_MAP);
  useAllocation(map.command, *allocation, svm_ptr, size, ContentAccess::Read);
  return map.enqueue(*queue, blocking_map, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                                  cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                  cl_event *event) {
  CommandQueue *queue;
  if (cl_int code = resolveSvmQueue(command_queue, queue))
    return code;
  if (!svm_ptr)
    return CL_INVALID_VALUE;
  auto allocation = queue->context().svmAllocations().find(svm_ptr);
  if (!allocation)
    return CL_INVALID_VALUE;
  OrderingCommand unmap(CL_COMMAND_SVM_UNMAP);
  // The host may have written any of it.
  useAllocation(unmap.command, *allocation, allocation->base, allocation->size, ContentAccess::Update);
  return unmap.enqueue(*queue, false, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                                       const void **svm_pointers, const size_t *sizes,
                                                       cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                                                       const cl_event *event_wait_list, cl_event *event) {
  CommandQueue *queue;
  if (cl_int code = resolveSvmQueue(command_queue, queue))
    return code;
  if (num_svm_pointers == 0 || !svm_pointers)
    return CL_INVALID_VALUE;
  if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  OrderingCommand migrate(CL_COMMAND_SVM_MIGRATE_MEM);
  for (cl_uint i = 0; i < num_svm_pointers; ++i) {
    const void *pointer = svm_pointers[i];
    if (!pointer)
      return CL_INVALID_VALUE;
    // A size of 0 means the whole allocation from `pointer` on.
    auto allocation = queue->context().svmAllocations().find(pointer);
    if (!allocation)
      return CL_INVALID_VALUE;
    const size_t rest = allocation->size - allocation->offsetOf(pointer);
    const size_t size = sizes && sizes[i] ? sizes[i] : rest;
    if (size > rest)
      return CL_INVALID_VALUE;
    useAllocation(migrate.command, *allocation, pointer, size, ContentAccess::Read);
  }
  return migrate.enqueue(*queue, false, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel_handle, cl_uint arg_index,
                                                         const void *arg_value) {
  Kernel *kernel;
  if (cl_int code = resolveSvmKernel(kernel_handle, kernel))
    return code;
  Context &context = kernel->program().context();
  const compiler::KernelInfo &info = kernel->info();
  if (arg_index >= info.args.size())
    return CL_INVALID_ARG_INDEX;
  using Kind = compiler::KernelArgInfo::Kind;
  const Kind kind = info.args[arg_index].kind;
  if (kind != Kind::GlobalPointer && kind != Kind::ConstantPointer)
    return CL_INVALID_ARG_VALUE;
  if (!arg_value) {
    kernel->setSvmArg(arg_index, nullptr, 0);
    return CL_SUCCESS;
  }
  auto allocation = context.svmAllocations().find(arg_value);
  if (!allocation)
    return CL_INVALID_ARG_VALUE;
  kernel->setSvmArg(arg_index, allocation->buffer->handle(), allocation->offsetOf(arg_value));
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel_handle, cl_kernel_exec_info param_name,
                                                    size_t param_value_size, const void *param_value) {
  // Every exec-info parameter OpenCL 3.0 defines is about SVM.
  Kernel *kernel;
  if (cl_int code = resolveSvmKernel(kernel_handle, kernel))
    return code;
  Context &context = kernel->program().context();
  switch (param_name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
    // (0, NULL) unsets the list.
    if ((!param_value && param_value_size) || param_value_size % sizeof(void *) != 0)
      return CL_INVALID_VALUE;
    const auto *pointers = static_cast<const void *const *>(param_value);
    try {
      kernel->setExecInfoSvmPointers(std::vector<const void *>(pointers, pointers + param_value_size / sizeof(void *)));
    } catch (const std::bad_alloc &) {
      return CL_OUT_OF_HOST_MEMORY;
    }
    return CL_SUCCESS;
  }
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
    if (!param_value || param_value_size != sizeof(cl_bool))
      return CL_INVALID_VALUE;
    const cl_bool enable = *static_cast<const cl_bool *>(param_value);
    if (!enable)
      return CL_SUCCESS; // the default: only allocations of clSVMAlloc
    // Kernels on such a device reach any host memory already.
    for (const Device *device : context.devices())
      if (device->info().svmCapabilities & mux::svm_capability::FineGrainSystem)
        return CL_SUCCESS;
    return CL_INVALID_OPERATION;
  }
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
