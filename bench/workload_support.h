// Helpers the workloads share: owning wrappers for OpenCL objects (so an
// exception in the middle of a workload leaks nothing), building a kernel,
// creating a buffer, timing repeated launches, and turning failures into
// figure-less Figures.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

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

/// Whether the device offers double precision (a DOUBLE_FP_CONFIG).
inline bool deviceHasFp64(cl_device_id device) {
  cl_device_fp_config config = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config, &config, nullptr), "clGetDeviceInfo");
  return config != 0;
}

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

/// No figure because the device does not offer the workload (`why`): not a
/// failure of the run.
inline Figure unsupportedFigure(std::string why) {
  Figure figure;
  figure.problem = std::move(why);
  figure.unsupported = true;
  return figure;
}

inline Figure wrongResult(std::string what) {
  Figure figure;
  figure.problem = std::move(what);
  figure.wrong = true;
  return figure;
}

/// About `samples` indices spread evenly over [0, count), the first and the
/// last included: the outputs a workload checks when checking all would cost
/// more host time than the kernel.
inline std::vector<size_t> sampleIndices(size_t count, size_t samples) {
  std::vector<size_t> indices;
  if (count == 0)
    return indices;
  const size_t stride = std::max<size_t>(count / std::max<size_t>(samples, 1), 1);
  for (size_t i = 0; i < count; i += stride)
    indices.push_back(i);
  if (indices.back() != count - 1)
    indices.push_back(count - 1);
  return indices;
}

/// The fastest of several figures of one workload (vector widths, access
/// patterns), for a "best" row; the others keep their own rows, so a wrong
/// one still fails the run there. With no figure at all, the first problem.
inline Figure bestOf(std::span<const Figure> figures) {
  Figure best;
  for (const Figure &figure : figures)
    if (figure.value && (!best.value || *figure.value > *best.value))
      best = figure;
  if (!best.value && !figures.empty())
    best = figures.front();
  return best;
}

} // namespace bench
