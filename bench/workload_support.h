// Helpers the workloads share: owning wrappers for OpenCL objects (so an
// exception in the middle of a workload leaks nothing), building a kernel,
// creating a buffer, timing repeated launches, and turning failures into
// figure-less Figures.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>

namespace bench {

struct ReleaseMem {
  void operator()(cl_mem m) const { clReleaseMemObject(m); }
};
struct ReleaseKernel {
  void operator()(cl_kernel k) const { clReleaseKernel(k); }
};
struct ReleaseProgram {
  void operator()(cl_program p) const { clReleaseProgram(p); }
};
using MemPtr = std::unique_ptr<std::remove_pointer_t<cl_mem>, ReleaseMem>;
using KernelPtr = std::unique_ptr<std::remove_pointer_t<cl_kernel>, ReleaseKernel>;
using ProgramPtr = std::unique_ptr<std::remove_pointer_t<cl_program>, ReleaseProgram>;

struct BuiltKernel {
  ProgramPtr program;
  KernelPtr kernel;
};

inline BuiltKernel build(const DeviceSession &session, const char *source, const char *name) {
  cl_program program = nullptr;
  cl_kernel kernel = session.buildKernel(source, name, program);
  return {ProgramPtr(program), KernelPtr(kernel)};
}

inline MemPtr createBuffer(const DeviceSession &session, cl_mem_flags flags, size_t bytes, void *host = nullptr) {
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(session.context(), flags, bytes, host, &status);
  check(status, "clCreateBuffer");
  return MemPtr(mem);
}

/// The fastest of `runs` enqueue -> clFinish launches of a 1-D kernel, in
/// seconds. One more launch before them warms up (first touch of the output,
/// code paging) and is not counted.
inline double bestKernelSeconds(const DeviceSession &session, cl_kernel kernel, size_t globalSize, size_t runs) {
  double best = 1e30;
  for (size_t run = 0; run <= runs; ++run) {
    auto start = Clock::now();
    check(clEnqueueNDRangeKernel(session.queue(), kernel, 1, nullptr, &globalSize, nullptr, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(session.queue()), "clFinish");
    if (run > 0)
      best = std::min(best, secondsSince(start));
  }
  return best;
}

inline Figure fromError(const ClError &error) {
  Figure figure;
  figure.problem = std::string(error.what()) + " -> " + std::to_string(error.code());
  return figure;
}

inline Figure wrongResult(std::string what) {
  Figure figure;
  figure.problem = std::move(what);
  figure.wrong = true;
  return figure;
}

} // namespace bench
