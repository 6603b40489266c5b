// The binary container the SPIR-V compiler produces and the vulkan target
// loads (Module::binary() -> mux::Device::createExecutable()). The launch
// ABI it describes is compiler/abi/vulkan_kernel_abi.h.
//
// Layout, all integers little-endian:
//   char     magic[8]        "PMXVK\0\0\0"
//   uint32   version         kVulkanBinaryVersion
//   uint32   kernelCount
//   kernelCount times:
//     uint32 nameLength, char name[nameLength]  kernel name = SPIR-V entry point name
//     uint32 reqdWorkGroupSize[3]  zeros when the kernel has none
//     uint64 localMemSize          bytes of static __local memory
//     uint32 pushConstantSize
//     uint32 argumentBufferSize    0: arguments are in the push constants
//     uint32 launchFieldOffsets[kLaunchFieldCount]  kNotUsed when unused
//     uint32 flags                 VulkanKernelFlags
//     uint32 argCount
//     argCount times: uint32 kind, offset, size, specConstantId, rangeOffset,
//                     texelRangeOffset
//   uint64   globalVariableSize    bytes of the program-scope variable block
//   uint64   size, byte globalVariableInit[size]  its initial contents
//                                  (shorter than the block: the rest is zero)
//   uint64   relocationCount
//   relocationCount times: uint64 offset, target    VulkanGlobalRelocation
//   uint64   printfTableSize, byte printfTable[]  compiler/abi/printf_abi.h
//   uint64   spirvSize, byte spirv[spirvSize]     one SPIR-V module, every kernel an entry point
//   uint64   checksum              xxh3_64bits of every byte before it
#pragma once

#include "compiler/abi/vulkan_kernel_abi.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace compiler {

inline constexpr uint32_t kVulkanBinaryVersion = 6; // 6: the texel ranges of image arguments

enum VulkanKernelFlags : uint32_t {
  /// The kernel calls printf: give it a printf buffer (LaunchField::PrintfBuffer).
  VulkanKernelUsesPrintf = 1u << 0,
  /// The kernel uses sub-group operations: run it with full sub-groups of the
  /// device's sub-group size (VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
  /// where the local size in dimension 0 is a multiple of it).
  VulkanKernelUsesSubgroups = 1u << 1,
};

struct VulkanKernelArg {
  enum class Kind : uint32_t { Buffer, Value, Local };
  Kind kind = Kind::Value;
  uint32_t offset = 0;         ///< Buffer/Value: in the push constants or the argument buffer
  uint32_t size = 0;           ///< Buffer: 8; Value: the host size; Local: the alignment of its offset
  uint32_t specConstantId = 0; ///< Local: the id of its byte size
  /// Buffer: where its AccessRange goes, in the same block as the arguments
  /// (abi::vulkan::kNotUsed: the kernel's accesses need none).
  uint32_t rangeOffset = abi::vulkan::kNotUsed;
  /// Buffer holding an image descriptor: where the AccessRange of the
  /// image's texels goes (mux::KernelArg::texels), or kNotUsed.
  uint32_t texelRangeOffset = abi::vulkan::kNotUsed;
};

struct VulkanKernelBinaryInfo {
  std::string name;
  std::array<uint32_t, 3> reqdWorkGroupSize{0, 0, 0};
  uint64_t localMemSize = 0;
  uint32_t pushConstantSize = 0;
  uint32_t argumentBufferSize = 0;
  std::array<uint32_t, abi::vulkan::kLaunchFieldCount> launchFieldOffsets{};
  uint32_t flags = 0; ///< VulkanKernelFlags
  std::vector<VulkanKernelArg> args;

  VulkanKernelBinaryInfo() { launchFieldOffsets.fill(abi::vulkan::kNotUsed); }
  uint32_t offsetOf(abi::vulkan::LaunchField field) const { return launchFieldOffsets[static_cast<uint32_t>(field)]; }
};

/// A pointer in the initial contents of the program-scope variable block:
/// the runtime writes the block's device address + `target` as a uint64 at
/// `offset` once it has allocated the block.
struct VulkanGlobalRelocation {
  uint64_t offset = 0;
  uint64_t target = 0;
};

struct VulkanBinary {
  std::vector<VulkanKernelBinaryInfo> kernels;
  uint64_t globalVariableSize = 0;
  std::vector<std::byte> globalVariableInit;
  std::vector<VulkanGlobalRelocation> globalVariableRelocations;
  std::vector<std::byte> printfTable;
  std::vector<uint32_t> spirv;
};

std::vector<std::byte> encodeVulkanBinary(const VulkanBinary &binary);

/// Fails with Status::InvalidArgument when `bytes` is not a well-formed
/// container of the current version.
llvm::Expected<VulkanBinary> decodeVulkanBinary(std::span<const std::byte> bytes);

} // namespace compiler
