// search_exit: a search that stops the whole kernel once it has found what
// it looks for (cl_polymux_kernel_exit), and the message the application
// registered for that exit code.
//
//   OCL_ICD_VENDORS=<build>/icd ./search_exit [elements]
//
// Each work-item compares one element with the needle; the one that finds
// it stores its index and calls kernel_exit(FOUND). Work-groups that have
// not started by then never start, so the search reads far less than the
// whole array. Exits non-zero on a wrong result.
#include "cl_example.h"

#include <CL/cl_ext_polymux.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char *kSource = R"CLC(
#define FOUND 1 // the application's own exit code: positive

__kernel void find(__global const int *haystack, int needle, __global int *where,
                   __global int *groups_started) {
  if (get_local_id(0) == 0)
    atomic_inc(groups_started);
  size_t i = get_global_id(0);
  if (haystack[i] == needle) {
    *where = (int)i;
    kernel_exit(FOUND);
  }
}
)CLC";

} // namespace

int main(int argc, char **argv) {
  using example::check;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const cl_uint n = argc > 1 ? static_cast<cl_uint>(std::strtoul(argv[1], nullptr, 0)) : 1u << 24;
  if (n < 1024) {
    std::fprintf(stderr, "usage: search_exit [elements >= 1024]\n");
    return 2;
  }

  example::Selection selection = example::selectDevice();
  std::printf("platform: %s\ndevice:   %s\n", selection.platformName.c_str(), selection.deviceName.c_str());
  if (!example::hasExtension(selection.device, CL_POLYMUX_KERNEL_EXIT_EXTENSION_NAME)) {
    // Not an error: the example has nothing to show on such a device.
    std::printf("the device does not report %s: nothing to run\n", CL_POLYMUX_KERNEL_EXIT_EXTENSION_NAME);
    return 0;
  }
  auto registerMessage = example::extensionFunction<clRegisterProgramErrorMessagePOLYMUX_fn>(
      selection.platform, "clRegisterProgramErrorMessagePOLYMUX");
  auto exitStatus = example::extensionFunction<clGetKernelExecutionStatusPOLYMUX_fn>(
      selection.platform, "clGetKernelExecutionStatusPOLYMUX");

  // The needle sits an eighth of the way in; everything else differs.
  std::vector<cl_int> haystack(n);
  for (cl_uint i = 0; i < n; ++i)
    haystack[i] = static_cast<cl_int>(i % 1000003);
  const cl_uint position = n / 8;
  const cl_int needle = -42;
  haystack[position] = needle;

  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &selection.device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, selection.device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");
  cl_program program = example::buildProgram(context, selection.device, kSource);
  check(registerMessage(program, 1, "found the needle; its index is in `where`"),
        "clRegisterProgramErrorMessagePOLYMUX");
  cl_kernel kernel = clCreateKernel(program, "find", &status);
  check(status, "clCreateKernel");

  cl_mem data =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), haystack.data(), &status);
  check(status, "clCreateBuffer");
  cl_int counters[2] = {-1, 0}; // where, groups started
  cl_mem where =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int), &counters[0], &status);
  check(status, "clCreateBuffer");
  cl_mem started =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int), &counters[1], &status);
  check(status, "clCreateBuffer");
  check(clSetKernelArg(kernel, 0, sizeof data, &data), "clSetKernelArg");
  check(clSetKernelArg(kernel, 1, sizeof needle, &needle), "clSetKernelArg");
  check(clSetKernelArg(kernel, 2, sizeof where, &where), "clSetKernelArg");
  check(clSetKernelArg(kernel, 3, sizeof started, &started), "clSetKernelArg");

  const size_t global = n, local = 64;
  cl_event event = nullptr;
  check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &event),
        "clEnqueueNDRangeKernel");
  check(clWaitForEvents(1, &event), "clWaitForEvents");

  cl_int code = 0;
  check(exitStatus(event, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, sizeof code, &code, nullptr),
        "clGetKernelExecutionStatusPOLYMUX");
  size_t length = 0;
  check(exitStatus(event, CL_KERNEL_STATUS_EXIT_MSG_POLYMUX, 0, nullptr, &length), "clGetKernelExecutionStatusPOLYMUX");
  std::string message(length, '\0');
  check(exitStatus(event, CL_KERNEL_STATUS_EXIT_MSG_POLYMUX, length, message.data(), nullptr),
        "clGetKernelExecutionStatusPOLYMUX");
  message.resize(message.find('\0'));
  check(clEnqueueReadBuffer(queue, where, CL_TRUE, 0, sizeof(cl_int), &counters[0], 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  check(clEnqueueReadBuffer(queue, started, CL_TRUE, 0, sizeof(cl_int), &counters[1], 0, nullptr, nullptr),
        "clEnqueueReadBuffer");

  const size_t groups = global / local;
  std::printf("exit code %d: %s\n", code, message.c_str());
  std::printf("needle at %d (expected %u); %d of %zu work-groups started\n", counters[0], position, counters[1],
              groups);
  clReleaseEvent(event);
  clReleaseMemObject(started);
  clReleaseMemObject(where);
  clReleaseMemObject(data);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  if (code != 1 || counters[0] != static_cast<cl_int>(position)) {
    std::fprintf(stderr, "error: wrong result\n");
    return 1;
  }
  return 0;
}
