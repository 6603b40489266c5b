// OpenCL helpers for the benchmark harness: errors become exceptions (so one
// failing device does not stop the others), one context+queue per device,
// program building with the build log, and timing.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace bench {

/// An OpenCL call failed: `what` names the call, `code` is its error.
class ClError : public std::runtime_error {
public:
  ClError(const std::string &what, cl_int code) : std::runtime_error(what), code_(code) {}
  cl_int code() const { return code_; }

private:
  cl_int code_;
};

inline void check(cl_int status, const char *what) {
  if (status != CL_SUCCESS)
    throw ClError(what, status);
}

/// Sets `kernel`'s arguments 0, 1, ... to `arguments` (each by its size).
template <typename... Arguments> void setKernelArguments(cl_kernel kernel, const Arguments &...arguments) {
  cl_uint index = 0;
  (check(clSetKernelArg(kernel, index++, sizeof(arguments), &arguments), "clSetKernelArg"), ...);
}

std::string platformName(cl_platform_id platform);
std::string deviceName(cl_device_id device);

/// A device under test with its own context and in-order queue.
class DeviceSession {
public:
  DeviceSession(cl_platform_id platform, cl_device_id device);
  ~DeviceSession();
  DeviceSession(const DeviceSession &) = delete;
  DeviceSession &operator=(const DeviceSession &) = delete;

  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return device_; }

  /// Builds `source` and returns kernel `name` (the caller releases both).
  /// Throws ClError with the build log appended on failure.
  cl_kernel buildKernel(const char *source, const char *name, cl_program &program) const;

private:
  cl_device_id device_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace bench
