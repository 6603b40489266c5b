// An application may exit while a kernel is still running and after it has
// released its own handles, leaving the queue's worker thread to drop the
// last reference to the program (and unload its code) while the exit
// handlers run. That must not touch anything the exit handlers destroyed;
// the sanitizer build caught the JIT being freed under the worker here.
#include "cl_test.h"

#include <cstdlib>

using namespace cltest;

namespace {

class ProcessExitTest : public DeviceTest {};

// Runs in the death test's child process: returns only on an OpenCL error.
void exitWithKernelInFlight(cl_context context, cl_device_id device, cl_command_queue queue) {
  const char *source = R"(
__kernel void spin(__global uint *out, uint rounds) {
  uint x = (uint)get_global_id(0);
  for (uint i = 0; i < rounds; ++i)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
})";
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  if (status != CL_SUCCESS || clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS)
    return;
  cl_kernel kernel = clCreateKernel(program, "spin", &status);
  if (status != CL_SUCCESS)
    return;
  const size_t items = 1024;
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint), nullptr, &status);
  if (status != CL_SUCCESS)
    return;
  // About a quarter of a second of work per core: still running at exit.
  const cl_uint rounds = 1u << 20;
  if (clSetKernelArg(kernel, 0, sizeof out, &out) != CL_SUCCESS ||
      clSetKernelArg(kernel, 1, sizeof rounds, &rounds) != CL_SUCCESS ||
      clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr) != CL_SUCCESS ||
      clFlush(queue) != CL_SUCCESS)
    return;
  // The queue now holds the only references to the kernel and program.
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  std::exit(0);
}

TEST_P(ProcessExitTest, ExitWithKernelInFlightAndHandlesReleased) {
  // "threadsafe" re-runs this test alone in a fresh process: the parent
  // already has driver threads, which a plain fork() would not carry over.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(exitWithKernelInFlight(context_, device(), queue_), testing::ExitedWithCode(0), "");
}

} // namespace

CLTEST_INSTANTIATE(ProcessExitTest);
