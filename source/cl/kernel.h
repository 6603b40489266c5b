// Kernel objects: a program's kernel plus the argument values set so far.
#pragma once

#include "object.h"

#include "compiler/kernel_info.h"
#include "mux/command_buffer.h"
#include "mux/executable.h"

#include <vector>

namespace polymux::cl {

class Device;
class Program;

class Kernel final : public Object<_cl_kernel, ObjectKind::Kernel> {
public:
  static Kernel *fromHandle(cl_kernel handle) { return Object::fromHandle<Kernel>(handle); }

  Program &program() const;
  const compiler::KernelInfo &info() const;

  struct Impl;
  explicit Kernel(std::unique_ptr<Impl> impl);
  ~Kernel() override;
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace polymux::cl
