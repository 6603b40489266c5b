// Programs: source or binaries, built per device through compiler::Target.
#pragma once

#include "object.h"

#include "compiler/target.h"
#include "mux/executable.h"

namespace polymux::cl {

class Context;
class Device;

class Program final : public Object<_cl_program, ObjectKind::Program> {
public:
  static Program *fromHandle(cl_program handle) { return Object::fromHandle<Program>(handle); }

  Context &context() const;
  /// The executable built for `device`, or null if the program has no
  /// successfully built executable for it.
  compiler::Module *module(const Device &device) const;
  /// The mux executable loaded from module(device)->binary(), loaded once.
  llvm::Expected<mux::Executable *> executable(Device &device);

  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);
  ~Program() override;
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace polymux::cl
