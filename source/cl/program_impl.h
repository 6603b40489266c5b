// Program state shared by program.cpp (objects, queries) and
// program_build.cpp (clBuildProgram / clCompileProgram / clLinkProgram).
#pragma once

#include "context.h"
#include "device.h"
#include "kernel_exit.h"
#include "entity_table.h"
#include "program.h"

#include "mux/status.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace polymux::cl {

/// How a program was created; decides what clBuildProgram/clCompileProgram
/// may do with it.
enum class ProgramOrigin { Source, Binary, Linked, IL };

/// The build state of a program for one of its devices.
struct DeviceBuild {
  Device *device = nullptr;
  cl_build_status status = CL_BUILD_NONE;
  std::string options;
  std::string log;
  cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  uint32_t flags = 0; ///< ProgramBinaryFlag bits
  /// The compiled object, library or executable; for binary programs before
  /// their first build, the module loaded from the binary.
  std::unique_ptr<compiler::Module> module;
  /// Loaded from module->binary() on first use by a kernel. Shared with the
  /// kernels whose mux kernels came from it: a kernel the application
  /// released may still run in a command after the program was rebuilt.
  std::shared_ptr<mux::Executable> executable;
  /// The CL_PROGRAM_BINARIES container, made on first query.
  std::optional<std::vector<std::byte>> encodedBinary;

  bool isExecutable() const {
    return status == CL_BUILD_SUCCESS && module && module->kind() == compiler::ModuleKind::Executable;
  }
  /// Clears what a new build replaces.
  void reset() {
    executable.reset();
    module.reset();
    encodedBinary.reset();
    binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    flags = 0;
    log.clear();
  }
};

struct Program::Impl {
  Ref<Context> context;
  ProgramOrigin origin = ProgramOrigin::Source;
  std::string source;
  /// The SPIR-V module of a program made with clCreateProgramWithIL, its
  /// specialization constants (SpecId -> size in bytes) and the values
  /// clSetProgramSpecializationConstant gave them (guarded by `mutex`).
  std::vector<std::byte> il;
  std::map<uint32_t, size_t> specSizes;
  std::map<uint32_t, std::vector<std::byte>> specValues;
  std::vector<Device *> devices;
  std::vector<DeviceBuild> builds; ///< one per entry of `devices`, same order

  /// Guards everything below and the DeviceBuild entries. Compilation itself
  /// runs without it (with `busy` set) so queries stay responsive.
  mutable std::mutex mutex;
  bool busy = false; ///< a build, compile or link of this program is running
  /// Messages registered for the exit codes of this program's kernels
  /// (cl_polymux_kernel_exit); shared with the events of their commands.
  std::shared_ptr<KernelExitMessages> exitMessages = std::make_shared<KernelExitMessages>();
  /// Kernels the application still holds (see Kernel::releaseByApplication),
  /// plus links using this program's modules as inputs.
  size_t users = 0;
  /// The type entities handed out so far (entity.cpp); dropped by a new
  /// build, which invalidates their handles.
  std::unique_ptr<EntityTable> entities;

  DeviceBuild *find(const Device &device) {
    for (auto &build : builds)
      if (build.device == &device)
        return &build;
    return nullptr;
  }
  const DeviceBuild *find(const Device &device) const { return const_cast<Impl *>(this)->find(device); }
};

/// Maps a HAL/compiler failure to an API error: out of memory and out of
/// resources keep their codes, everything else becomes `fallback`.
inline cl_int errorCodeFor(mux::Status status, cl_int fallback) {
  switch (status) {
  case mux::Status::OutOfMemory:
    return CL_OUT_OF_HOST_MEMORY;
  case mux::Status::OutOfResources:
    return CL_OUT_OF_RESOURCES;
  default:
    return fallback;
  }
}

/// Consumes `error`; returns its status and appends its message to `message`.
mux::Status takeStatusAndMessage(llvm::Error error, std::string &message);

/// Builds the program object for clCreateProgramWith*/clLinkProgram.
Program *createProgram(Context &context, ProgramOrigin origin, std::vector<Device *> devices, std::string source);

} // namespace polymux::cl
