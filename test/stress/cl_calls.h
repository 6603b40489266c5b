// OpenCL calls for the stress workload: an unexpected error becomes an
// ApiError exception (caught per operation and counted as a failure), and
// the device facts the workload sizes itself by.
#pragma once

#include "cl_holder.h"

#include <CL/cl.h>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stress {

using cltest::Context;
using cltest::Event;
using cltest::Kernel;
using cltest::Mem;
using cltest::Program;
using cltest::Queue;

struct ApiError : std::runtime_error {
  ApiError(const std::string &what, cl_int code);
  cl_int code;
};

/// Throws ApiError("<what>: <error name>") unless `err` is CL_SUCCESS.
void ok(cl_int err, const char *what);

cl_int eventStatus(cl_event event);

/// Sets the kernel's arguments in order (cl_mem, scalars, {size, nullptr}
/// for __local ones: LocalSize).
struct LocalSize {
  size_t bytes;
};
template <class T> void setArg(cl_kernel kernel, cl_uint index, const T &value) {
  ok(clSetKernelArg(kernel, index, sizeof(T), &value), "clSetKernelArg");
}
inline void setArg(cl_kernel kernel, cl_uint index, const LocalSize &local) {
  ok(clSetKernelArg(kernel, index, local.bytes, nullptr), "clSetKernelArg(__local)");
}
template <class... Args> void setArgs(cl_kernel kernel, const Args &...args) {
  cl_uint index = 0;
  (setArg(kernel, index++, args), ...);
}

Kernel createKernel(cl_program program, const char *name);
/// Enqueues `kernel` over `global` work-items (work-groups of `local`, or
/// the driver's choice when 0) after the events of `waits`.
void enqueueKernel(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local,
                   std::initializer_list<cl_event> waits = {}, cl_event *event = nullptr);
Mem createBuffer(cl_context context, cl_mem_flags flags, size_t bytes, void *host = nullptr);
/// The first `count` uint32 of `mem`, by a blocking read on `queue` after
/// `after` (when not null).
std::vector<uint32_t> readBack(cl_command_queue queue, cl_mem mem, size_t count, cl_event after = nullptr);

/// What the workload needs to know about a device.
struct DeviceFacts {
  cl_device_id id = nullptr;
  std::string name;
  cl_ulong localMemSize = 0;
  cl_uint baseAddressAlignBytes = 0; ///< of sub-buffer origins
  size_t maxWorkGroupSize = 0;
  bool outOfOrder = false; ///< CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE on host queues
  bool images = false;
  bool compiler = false;

  static DeviceFacts of(cl_device_id device);
};

} // namespace stress
