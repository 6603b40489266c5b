// RAII holders for OpenCL objects, shared by the test suites (test/cl,
// test/stress); free of any test framework.
#pragma once

#include <CL/cl.h>

#include <utility>

namespace cltest {

template <typename T, cl_int(CL_API_CALL *Release)(T)> class Holder {
public:
  Holder() = default;
  explicit Holder(T handle) : handle_(handle) {}
  Holder(const Holder &) = delete;
  Holder &operator=(const Holder &) = delete;
  Holder(Holder &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Holder &operator=(Holder &&other) noexcept {
    reset(std::exchange(other.handle_, nullptr));
    return *this;
  }
  ~Holder() { reset(); }

  void reset(T handle = nullptr) {
    if (handle_)
      Release(handle_);
    handle_ = handle;
  }
  T release() { return std::exchange(handle_, nullptr); }
  T get() const { return handle_; }
  // For APIs taking an array of handles (wait lists).
  const T *ptr() const { return &handle_; }
  operator T() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  // For APIs that return a handle through an out parameter (clEnqueue* events).
  T *out() {
    reset();
    return &handle_;
  }

private:
  T handle_ = nullptr;
};

using Context = Holder<cl_context, clReleaseContext>;
using Queue = Holder<cl_command_queue, clReleaseCommandQueue>;
using Mem = Holder<cl_mem, clReleaseMemObject>;
using Program = Holder<cl_program, clReleaseProgram>;
using Kernel = Holder<cl_kernel, clReleaseKernel>;
using Event = Holder<cl_event, clReleaseEvent>;

} // namespace cltest
