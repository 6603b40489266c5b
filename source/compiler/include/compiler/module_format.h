// The serialized form of a compiler::Module (program binaries, kernel cache).
//
// Layout, integers little-endian (strings: uint32 length + bytes; byte
// arrays: uint64 length + bytes):
//   char   magic[8] = "PMXMOD\0\0"
//   uint32 version = kModuleFormatVersion
//   string identity            Target::identity() of the producer
//   uint32 kind                ModuleKind
//   string options             the options the module was built with
//   uint32 flags               bit 0: -cl-opt-disable
//   uint32 kernelCount, then per kernel:
//     string name, uint32 argCount, per argument:
//       uint32 kind, size, alignment; string name, typeName;
//       uint32 addressSpace, access, typeQualifiers, entity
//     uint64 reqdWorkGroupSize[3], workGroupSizeHint[3]
//     string vecTypeHint, attributes
//     uint32 entityCount, per entity (type_entity.h):
//       uint32 kind; string name, typeName; uint32 qualifiers;
//       uint64 size, alignment, count; uint32 addressSpace, element,
//       memberCount; per member: uint32 entity, uint64 offset
//   bytes  bitcode             LLVM bitcode (linked, not lowered)
//   bytes  binary              the target binary (Executable; may be empty)
//   uint64 checksum            xxh3_64bits of all bytes before it
#pragma once

#include "compiler/kernel_info.h"
#include "compiler/target.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace compiler {

/// 2: kernel argument type entities.
inline constexpr uint32_t kModuleFormatVersion = 2;

struct ModuleData {
  ModuleKind kind = ModuleKind::CompiledObject;
  std::string options;
  bool optDisable = false;
  std::vector<KernelInfo> kernels;
  std::vector<char> bitcode;
  std::vector<std::byte> binary;
};

std::vector<std::byte> serializeModule(const ModuleData &data, std::string_view identity);

/// Fails with Status::InvalidArgument on corrupt data, another version, or
/// an identity other than `identity`.
llvm::Expected<ModuleData> deserializeModule(std::span<const std::byte> bytes, std::string_view identity);

} // namespace compiler
