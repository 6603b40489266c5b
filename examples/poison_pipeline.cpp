// poison_pipeline: a pipeline of commands in the poisoned-memory error model
// (cl_polymux_async_error_model) where one faulting kernel fails only what
// depends on it.
//
//   OCL_ICD_VENDORS=<build>/icd ./poison_pipeline
//
// On one in-order queue of a context created with
// CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX:
//   produce   writes `stage` but also stores through a wild pointer: it
//             faults, fails, and poisons `stage`;
//   consume   reads `stage` (waiting on produce): it does not run and fails
//             with CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX;
//   read back `result` (waiting on consume): does not run either;
//   scale     an independent kernel on other buffers: runs and is correct.
// clCheckEventExecutionPOLYMUX on the read-back names produce, two edges up.
// Exits non-zero when any of that does not happen. On a device that does
// not detect wild writes (no fault, nothing fails) it says so and exits 0.
#include "cl_example.h"

#include <CL/cl_ext_polymux.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char *kSource = R"CLC(
__kernel void produce(__global int *stage, ulong wild) {
  size_t i = get_global_id(0);
  stage[i] = (int)i;
  if (i == 0)
    *(__global volatile int *)wild = 1; // the bug
}

__kernel void consume(__global const int *stage, __global int *result) {
  size_t i = get_global_id(0);
  result[i] = stage[i] * 2;
}

__kernel void scale(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 3;
}
)CLC";

const char *statusName(cl_int status) {
  switch (status) {
  case CL_COMPLETE:
    return "CL_COMPLETE";
  case CL_OUT_OF_RESOURCES:
    return "CL_OUT_OF_RESOURCES";
  case CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX:
    return "CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX";
  default:
    return "another status";
  }
}

cl_int eventStatus(cl_event event) {
  cl_int status = 0;
  example::check(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
                 "clGetEventInfo");
  return status;
}

cl_kernel kernelWithArgs(cl_program program, const char *name, cl_mem first, const void *second, size_t secondSize) {
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &status);
  example::check(status, "clCreateKernel");
  example::check(clSetKernelArg(kernel, 0, sizeof first, &first), "clSetKernelArg");
  example::check(clSetKernelArg(kernel, 1, secondSize, second), "clSetKernelArg");
  return kernel;
}

} // namespace

int main() {
  using example::check;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  example::Selection selection = example::selectDevice();
  std::printf("platform: %s\ndevice:   %s\n", selection.platformName.c_str(), selection.deviceName.c_str());
  if (!example::hasExtension(selection.device, CL_POLYMUX_ASYNC_ERROR_MODEL_EXTENSION_NAME)) {
    std::printf("the device does not report %s: nothing to run\n", CL_POLYMUX_ASYNC_ERROR_MODEL_EXTENSION_NAME);
    return 0;
  }
  auto checkExecution =
      example::extensionFunction<clCheckEventExecutionPOLYMUX_fn>(selection.platform, "clCheckEventExecutionPOLYMUX");

  cl_int status = CL_SUCCESS;
  const cl_context_properties properties[] = {CL_CONTEXT_ERROR_MODEL_POLYMUX, CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX, 0};
  cl_context context = clCreateContext(properties, 1, &selection.device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, selection.device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");
  cl_program program = example::buildProgram(context, selection.device, kSource);

  constexpr size_t n = 1024;
  std::vector<cl_int> ones(n, 1);
  auto makeBuffer = [&](void *host) {
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), n * sizeof(cl_int),
                                host, &status);
    check(status, "clCreateBuffer");
    return mem;
  };
  cl_mem stage = makeBuffer(nullptr), result = makeBuffer(nullptr);
  cl_mem input = makeBuffer(ones.data()), output = makeBuffer(nullptr);

  const cl_ulong wild = 0x10; // the first page: mapped by no process
  cl_kernel produce = kernelWithArgs(program, "produce", stage, &wild, sizeof wild);
  cl_kernel consume = kernelWithArgs(program, "consume", stage, &result, sizeof result);
  cl_kernel scale = kernelWithArgs(program, "scale", input, &output, sizeof output);

  cl_event produced = nullptr, consumed = nullptr, readBack = nullptr, scaled = nullptr;
  check(clEnqueueNDRangeKernel(queue, produce, 1, nullptr, &n, nullptr, 0, nullptr, &produced), "produce");
  check(clEnqueueNDRangeKernel(queue, consume, 1, nullptr, &n, nullptr, 1, &produced, &consumed), "consume");
  std::vector<cl_int> results(n, -1);
  check(clEnqueueReadBuffer(queue, result, CL_FALSE, 0, n * sizeof(cl_int), results.data(), 1, &consumed, &readBack),
        "clEnqueueReadBuffer");
  check(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &n, nullptr, 0, nullptr, &scaled), "scale");

  // One check for the whole pipeline, at the end of it.
  cl_event failed = nullptr;
  cl_int error = CL_SUCCESS;
  check(checkExecution(readBack, &failed, &error), "clCheckEventExecutionPOLYMUX");
  check(clFinish(queue), "clFinish");
  std::vector<cl_int> scaledValues(n, 0);
  check(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, n * sizeof(cl_int), scaledValues.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");

  const cl_int produceStatus = eventStatus(produced);
  std::printf("produce:   %s\nconsume:   %s\nread back: %s\nscale:     %s\n", statusName(produceStatus),
              statusName(eventStatus(consumed)), statusName(eventStatus(readBack)), statusName(eventStatus(scaled)));
  const char *who = failed == produced   ? "produce"
                    : failed == consumed ? "consume"
                    : failed             ? "another command"
                                         : "none";
  std::printf("clCheckEventExecutionPOLYMUX(read back): failed command %s, error %s\n", who, statusName(error));

  bool ok = true;
  if (produceStatus == CL_COMPLETE) {
    std::printf("the device did not detect the wild write: nothing failed, nothing to show\n");
  } else {
    ok = produceStatus < 0 && eventStatus(consumed) == CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX &&
         eventStatus(readBack) == CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX && failed == produced && error == produceStatus &&
         results == std::vector<cl_int>(n, -1);
  }
  ok = ok && eventStatus(scaled) == CL_COMPLETE && scaledValues == std::vector<cl_int>(n, 3);

  if (failed)
    clReleaseEvent(failed);
  for (cl_event event : {produced, consumed, readBack, scaled})
    clReleaseEvent(event);
  for (cl_kernel kernel : {produce, consume, scale})
    clReleaseKernel(kernel);
  for (cl_mem mem : {stage, result, input, output})
    clReleaseMemObject(mem);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  if (!ok) {
    std::fprintf(stderr, "error: the failure did not spread as the error model says\n");
    return 1;
  }
  std::printf("only what depended on the faulting kernel failed\n");
  return 0;
}
