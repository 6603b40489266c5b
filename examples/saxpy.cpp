// saxpy: y = a*x + y over a large float array, checked against the host.
//
//   OCL_ICD_VENDORS=<build>/icd ./saxpy [elements]
//
// Prints the device, the largest error against the host result and the time
// of the kernel (enqueue to finish). Exits non-zero on a wrong result.
#include "cl_example.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

const char *kSource = R"CLC(
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)CLC";

} // namespace

int main(int argc, char **argv) {
  using example::check;
  // Line-buffered even into a pipe: a run killed by a timeout still shows how far it got.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const cl_uint n = argc > 1 ? static_cast<cl_uint>(std::strtoul(argv[1], nullptr, 0)) : 1u << 24;
  if (n == 0) {
    std::fprintf(stderr, "usage: saxpy [elements > 0]\n");
    return 2;
  }

  example::Selection selection = example::selectDevice();
  std::printf("platform: %s\ndevice:   %s\n", selection.platformName.c_str(), selection.deviceName.c_str());

  // Values chosen so a*x and the sum are exact in float: the result is the
  // same whether or not the device contracts them into an fma.
  const float a = 2.5f;
  std::vector<float> x(n), y(n);
  for (cl_uint i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1024) * 0.25f;
    y[i] = static_cast<float>(i % 77) - 38.0f;
  }
  std::vector<float> expected(n);
  for (cl_uint i = 0; i < n; ++i)
    expected[i] = a * x[i] + y[i];

  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &selection.device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, selection.device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");

  auto buildStart = std::chrono::steady_clock::now();
  cl_program program = example::buildProgram(context, selection.device, kSource);
  cl_kernel kernel = clCreateKernel(program, "saxpy", &status);
  check(status, "clCreateKernel");
  double buildSeconds = example::secondsSince(buildStart);

  const size_t bytes = size_t{n} * sizeof(float);
  cl_mem xBuffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, x.data(), &status);
  check(status, "clCreateBuffer(x)");
  cl_mem yBuffer = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer(y)");

  check(clSetKernelArg(kernel, 0, sizeof(float), &a), "clSetKernelArg(a)");
  check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &xBuffer), "clSetKernelArg(x)");
  check(clSetKernelArg(kernel, 2, sizeof(cl_mem), &yBuffer), "clSetKernelArg(y)");
  check(clSetKernelArg(kernel, 3, sizeof(cl_uint), &n), "clSetKernelArg(n)");

  // saxpy updates y in place, so y is rewritten before each run; the first
  // run also pays for first-touch page faults and lazy allocation.
  const size_t globalSize = n;
  const int runs = 5;
  double firstSeconds = 0, kernelSeconds = 0;
  for (int run = 0; run < runs; ++run) {
    check(clEnqueueWriteBuffer(queue, yBuffer, CL_TRUE, 0, bytes, y.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
    auto kernelStart = std::chrono::steady_clock::now();
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &globalSize, nullptr, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(queue), "clFinish");
    double seconds = example::secondsSince(kernelStart);
    if (run == 0)
      firstSeconds = kernelSeconds = seconds;
    kernelSeconds = std::min(kernelSeconds, seconds);
  }

  std::vector<float> result(n);
  check(clEnqueueReadBuffer(queue, yBuffer, CL_TRUE, 0, bytes, result.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");

  double maxError = 0;
  size_t wrong = 0, firstWrong = 0;
  for (size_t i = 0; i < n; ++i) {
    double error = std::fabs(static_cast<double>(result[i]) - expected[i]);
    if (!(error <= 1e-6 * std::max(1.0, std::fabs(static_cast<double>(expected[i]))))) {
      if (wrong++ == 0)
        firstWrong = i;
    }
    if (!(error <= maxError)) // also catches NaN
      maxError = error;
  }

  std::printf("elements: %u\n", n);
  std::printf("build:    %.1f ms\n", buildSeconds * 1e3);
  std::printf("kernel:   %.3f ms best of %d (%.2f GB/s), first run %.3f ms\n", kernelSeconds * 1e3, runs,
              3.0 * bytes / kernelSeconds / 1e9, firstSeconds * 1e3);
  std::printf("max error: %g\n", maxError);

  clReleaseMemObject(yBuffer);
  clReleaseMemObject(xBuffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);

  if (wrong) {
    std::printf("saxpy: FAILED: %zu of %u elements wrong, first at %zu: got %g, expected %g\n", wrong, n, firstWrong,
                result[firstWrong], expected[firstWrong]);
    return 1;
  }
  std::printf("saxpy: ok\n");
  return 0;
}
