// Kernel objects: a program's kernel plus the argument values set so far.
#pragma once

#include "object.h"

#include "compiler/kernel_info.h"
#include "mux/command_buffer.h"
#include "mux/executable.h"

#include <cstdint>
#include <vector>

namespace polymux::cl {

struct Command;

class Device;
class Program;

class Kernel final : public Object<_cl_kernel, ObjectKind::Kernel> {
public:
  static Kernel *fromHandle(cl_kernel handle) { return Object::fromHandle<Kernel>(handle); }

  Program &program() const;
  const compiler::KernelInfo &info() const;

  /// The mux kernel for `device`, created from the program's executable on
  /// first use and kept for the kernel's lifetime.
  llvm::Expected<mux::Kernel *> muxKernel(Device &device);
  /// The argument values as `device` sees them. The memory objects they
  /// reference go into the launch's keepAlive (kept while it is in flight)
  /// and, in multi-device contexts, its bufferUses. Fails with
  /// CL_INVALID_KERNEL_ARGS when an argument is not set, or the error of
  /// placing a buffer on `device`.
  cl_int deviceArgs(Device &device, std::vector<mux::KernelArg> &args, Command &launch);
  /// Bytes of __local memory the __local pointer arguments set so far take.
  uint64_t localArgBytes() const;
  /// clSetKernelArgSVMPointer once validated: argument `index` points
  /// `offset` bytes into the internal buffer of an SVM allocation
  /// (svm_allocations.h), or is NULL when `buffer` is.
  void setSvmArg(cl_uint index, cl_mem buffer, uint64_t offset);
  /// CL_KERNEL_EXEC_INFO_SVM_PTRS: the SVM allocations kernels may reach
  /// through pointers other than the arguments (each launch keeps them).
  void setExecInfoSvmPointers(std::vector<const void *> pointers);

  /// clRetainKernel / clReleaseKernel. The program counts a kernel as
  /// attached (blocking rebuilds) only while the application holds it;
  /// references the implementation holds (commands in flight) do not count.
  void retainByApplication();
  void releaseByApplication();

  struct Impl;
  explicit Kernel(std::unique_ptr<Impl> impl);
  ~Kernel() override;
  Impl &impl() const { return *impl_; }

private:
  /// Detaches from the program once (the last application reference, or
  /// destruction, whichever comes first).
  void detachFromProgram();

  std::unique_ptr<Impl> impl_;
};

/// cl_kernel_arg_type_qualifier bits of compiler::TypeQualifier bits.
cl_kernel_arg_type_qualifier typeQualifier(uint32_t bits);

} // namespace polymux::cl
