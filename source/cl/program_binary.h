// The container Polymux writes into CL_PROGRAM_BINARIES and accepts in
// clCreateProgramWithBinary: one device's serialized compiler::Module plus
// what is needed to check it belongs to that device and to rebuild the
// program's state (binary type, build flags).
//
// Layout (little endian):
//   "PMXBIN\0\0"  magic, 8 bytes
//   u32 version, u32 binary type (cl_program_binary_type), u32 flags
//   u32 identity size, identity bytes (compiler::Target::identity())
//   u32 options size, options bytes (the build options, for CL_PROGRAM_BUILD_OPTIONS)
//   u64 module size, module bytes (compiler::Module::serialize())
//   u64 xxh3 checksum of everything before it
//
// It is a library of its own (polymux_program_binary), which the `polymux`
// tool links to write binaries offline (source/tools/polymux).
#pragma once

#include "compiler/target.h"

#include "llvm/Support/Error.h"

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::cl {

/// Build flags that affect how kernels of the program may be used.
enum ProgramBinaryFlag : uint32_t {
  BinaryFlagKernelArgInfo = 1u << 0,     ///< built with -cl-kernel-arg-info
  BinaryFlagUniformWorkGroups = 1u << 1, ///< work-groups must be uniform
};

struct ProgramBinary {
  static constexpr uint32_t kVersion = 1;

  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  uint32_t flags = 0; ///< ProgramBinaryFlag bits
  std::string compilerIdentity;
  std::string options;
  std::vector<std::byte> module;
};

/// ProgramBinaryFlag bits implied by build options.
uint32_t buildFlagsFromOptions(std::string_view options);
/// The same for a program made from IL, which has no OpenCL C version:
/// work-groups are uniform only with -cl-uniform-work-group-size.
uint32_t ilBuildFlagsFromOptions(std::string_view options);

/// CL_PROGRAM_BINARY_TYPE of a module of `kind`.
inline cl_program_binary_type binaryTypeOf(compiler::ModuleKind kind) {
  switch (kind) {
  case compiler::ModuleKind::CompiledObject:
    return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  case compiler::ModuleKind::Library:
    return CL_PROGRAM_BINARY_TYPE_LIBRARY;
  case compiler::ModuleKind::Executable:
    return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  }
  return CL_PROGRAM_BINARY_TYPE_NONE;
}

std::vector<std::byte> encodeProgramBinary(const ProgramBinary &binary);

/// Parses and checks a container. Fails on truncated or corrupted data, an
/// unknown version or binary type; the caller checks the compiler identity.
llvm::Expected<ProgramBinary> decodeProgramBinary(std::span<const std::byte> bytes);

} // namespace polymux::cl
