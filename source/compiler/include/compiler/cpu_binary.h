// The binary container a CPU-like target's compiler produces and its runtime
// loads (Module::binary() -> mux::Device::createExecutable()).
//
// Layout, all integers little-endian:
//   char     magic[8]        target magic, NUL-padded ("PMXHOST\0" for host)
//   uint32   version         kCpuBinaryVersion
//   uint32   kernelCount
//   kernelCount times:
//     uint32 nameLength, char name[nameLength]   kernel name (no entry prefix)
//     uint64 localMemSize    bytes of static __local memory per work-group
//     uint64 privateMemSize  bytes of private memory (stack) per work-item
//     uint64 workItemStateSize  bytes of barrier state per work-item
//                            (WorkGroupInfo::workItemState), 0 without barriers
//     uint32 flags           CpuKernelFlags bits
//     uint32 subGroupSize    work-items per sub-group the kernel was
//                            compiled for (consecutive local linear ids)
//   uint64   globalVariableSize  bytes of program-scope __global variables
//   uint64   printfTableSize, byte printfTable[]  the module's printf formats
//                            (compiler/abi/printf_abi.h), empty without printf
//   uint64   objectSize, byte object[objectSize]  relocatable ELF object with
//                            one `__polymux_entry_<name>` per kernel
//   uint64   checksum        xxh3_64bits of every byte before it
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace compiler {

inline constexpr uint32_t kCpuBinaryVersion = 3;
/// The host target's magic.
inline constexpr std::string_view kHostBinaryMagic = "PMXHOST";

enum CpuKernelFlags : uint32_t {
  /// The kernel calls printf: give it WorkGroupInfo::printfBuffer.
  KernelUsesPrintf = 1u << 0,
};

struct CpuKernelBinaryInfo {
  std::string name;
  uint64_t localMemSize = 0;
  uint64_t privateMemSize = 0;
  uint64_t workItemStateSize = 0;
  uint32_t flags = 0; ///< CpuKernelFlags
  uint32_t subGroupSize = 1;
};

struct CpuBinary {
  std::vector<CpuKernelBinaryInfo> kernels;
  uint64_t globalVariableSize = 0;
  std::vector<std::byte> printfTable;
  std::vector<std::byte> object;
};

/// `magic` is at most 7 characters.
std::vector<std::byte> encodeCpuBinary(const CpuBinary &binary, std::string_view magic);

/// Fails with Status::InvalidArgument when `bytes` is not a well-formed
/// container with `magic` and the current version.
llvm::Expected<CpuBinary> decodeCpuBinary(std::span<const std::byte> bytes, std::string_view magic);

} // namespace compiler
