// Programs: source or binaries, built per device through compiler::Target.
#pragma once

#include "object.h"

#include "compiler/target.h"
#include "mux/executable.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
  /// The same executable, shared: it outlives a rebuild of the program for
  /// as long as the caller holds it.
  llvm::Expected<std::shared_ptr<mux::Executable>> sharedExecutable(Device &device);

  /// The devices the program is associated with.
  std::span<Device *const> devices() const;
  /// Whether `device` has a successfully built executable.
  bool hasExecutable(const Device &device) const;
  /// ProgramBinaryFlag bits (program_binary.h) of the build for `device`.
  uint32_t buildFlags(const Device &device) const;
  /// Finds kernel `name` in the built executables and, on success, counts a
  /// kernel as attached (rebuilds fail with CL_INVALID_OPERATION until
  /// detachKernel()). Returns CL_INVALID_PROGRAM_EXECUTABLE,
  /// CL_INVALID_KERNEL_NAME or CL_INVALID_KERNEL_DEFINITION on failure.
  cl_int attachKernel(std::string_view name, compiler::KernelInfo &info);
  void detachKernel();
  /// Kernel names of the built executable (first device that has one), or
  /// nullopt when no device has an executable.
  std::optional<std::vector<std::string>> kernelNames() const;

  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);
  ~Program() override;
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace polymux::cl
