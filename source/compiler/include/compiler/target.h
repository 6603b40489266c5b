// The compiler interfaces a Mux device offers, modelled on ComputeMux:
// compiler::Target (one per device) -> Module -> Kernel.
#pragma once

#include "compiler/kernel_info.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace compiler {

/// What a Module holds, as CL_PROGRAM_BINARY_TYPE reports.
enum class ModuleKind { CompiledObject, Library, Executable };

/// An embedded header for clCompileProgram (`#include "name"` finds it).
struct Header {
  std::string name;
  std::string source;
};

class Kernel {
public:
  virtual ~Kernel() = default;
  virtual const KernelInfo &info() const = 0;
  /// Returns a target binary for launches with `localSize` (zeros: any
  /// size). A target may return its module-wide binary.
  virtual llvm::Expected<std::vector<std::byte>> specialize(const std::array<size_t, 3> &localSize) = 0;
};

class Module {
public:
  virtual ~Module() = default;
  virtual ModuleKind kind() const = 0;
  /// Kernels of an Executable module (empty for the other kinds).
  virtual std::span<const KernelInfo> kernels() const = 0;
  virtual llvm::Expected<std::unique_ptr<Kernel>> createKernel(std::string_view name) = 0;
  /// The target binary for mux::Device::createExecutable (Executable only).
  virtual llvm::Expected<std::vector<std::byte>> binary() = 0;
  /// Bytes of program-scope __global variables an Executable allocates
  /// (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE); 0 for the other kinds.
  virtual uint64_t globalVariableTotalSize() const = 0;
  /// Round-trips through Target::deserialize (program binaries, cache).
  virtual llvm::Expected<std::vector<std::byte>> serialize() const = 0;
};

class Target {
public:
  virtual ~Target() = default;
  /// Identifies the compiler and device for cache keys and binary checks.
  virtual std::string identity() const = 0;
  /// clCompileProgram: source -> CompiledObject. Diagnostics go to `log`.
  virtual llvm::Expected<std::unique_ptr<Module>> compile(std::string_view source, std::string_view options,
                                                          std::span<const Header> headers, std::string &log) = 0;
  /// clLinkProgram: objects/libraries -> Executable, or Library when
  /// `options` contains -create-library.
  virtual llvm::Expected<std::unique_ptr<Module>> link(std::span<Module *const> modules, std::string_view options,
                                                       std::string &log) = 0;
  /// clBuildProgram: compile + link in one step.
  virtual llvm::Expected<std::unique_ptr<Module>> build(std::string_view source, std::string_view options,
                                                        std::string &log) = 0;
  /// The SPIR-V versions compileIL and buildIL read, as CL_DEVICE_IL_VERSION
  /// spells them ("SPIR-V_1.0 SPIR-V_1.1"); empty when they read none.
  virtual std::string ilVersions() const { return {}; }
  /// clCompileProgram on a program made from SPIR-V -> CompiledObject.
  virtual llvm::Expected<std::unique_ptr<Module>> compileIL(std::span<const std::byte> /*il*/,
                                                            std::string_view /*options*/, std::string & /*log*/) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "this device reads no SPIR-V");
  }
  /// clBuildProgram on a program made from SPIR-V -> Executable.
  virtual llvm::Expected<std::unique_ptr<Module>> buildIL(std::span<const std::byte> /*il*/,
                                                          std::string_view /*options*/, std::string & /*log*/) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "this device reads no SPIR-V");
  }
  /// Reverses Module::serialize; fails on corrupt data or another target's.
  virtual llvm::Expected<std::unique_ptr<Module>> deserialize(std::span<const std::byte> bytes) = 0;
  /// What build(source, options) reads beyond `options` and identity(), as
  /// text for the program cache's key: for OpenCL C, the preprocessed source
  /// (included files, #embed data and the device's macros resolved). Fails
  /// when the build's inputs cannot be named (the build is then not cached);
  /// by default, always.
  virtual llvm::Expected<std::string> buildCacheKey(std::string_view /*source*/, std::string_view /*options*/) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "this target's builds are not cached");
  }
};

} // namespace compiler
