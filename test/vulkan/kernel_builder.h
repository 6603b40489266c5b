// Hand-written SPIR-V test kernels that follow the launch ABI
// (compiler/abi/vulkan_kernel_abi.h), assembled and validated with
// SPIRV-Tools and packed into the vulkan binary container the runtime loads.
#pragma once

#include "compiler/vulkan_binary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vulkantest {

/// One push-constant (or argument-buffer) member: a 32- or 64-bit integer.
struct BlockMember {
  std::string name; ///< the SPIR-V id the kernel body loads it as (%name)
  bool wide;        ///< ulong (true) or uint
  uint32_t offset;
};

/// A kernel's source: its push-constant members and body. The body runs
/// after the prelude, which provides %wg and %lid (v3uint WorkgroupId and
/// LocalInvocationId), %lsx/%lsy/%lsz (the local size spec constants),
/// constants %c0 %c1 %c4 %c10 %c100 %c1000 %c10000 %c1000000 (uint) and
/// %l4 (ulong), types %uint %ulong %psb_uint (PhysicalStorageBuffer uint
/// pointer), and every member loaded into %<name>.
struct KernelSource {
  std::string name;
  std::string capabilities; ///< extra OpCapability lines
  std::vector<BlockMember> push;
  std::string extraTypes; ///< module-level declarations the body needs
  std::string interface;  ///< extra OpEntryPoint interface ids
  std::string decorations;
  std::string body;
};

/// Body snippets for element `index` (a uint id) of the uint array at
/// device address `base` (a ulong id); ids are derived from `tag`.
/// addressOf defines %<tag>_ptr; loadUint defines %<tag>, the value.
std::string addressOf(const std::string &tag, const std::string &base, const std::string &index);
std::string storeUint(const std::string &tag, const std::string &base, const std::string &index,
                      const std::string &value);
std::string loadUint(const std::string &tag, const std::string &base, const std::string &index);

/// The assembly text of `source` (one entry point, GLCompute).
std::string kernelAssembly(const KernelSource &source);

/// Assembles and validates (Vulkan 1.3) `assembly`; fails the test and
/// returns an empty module on error.
std::vector<uint32_t> assemble(const std::string &assembly);

/// The binary container holding `spirv` and the kernel `info`.
std::vector<std::byte> packBinary(std::vector<uint32_t> spirv, const compiler::VulkanKernelBinaryInfo &info,
                                  uint64_t globalVariableSize = 0, std::vector<std::byte> globalVariableInit = {},
                                  std::vector<std::byte> printfTable = {});

/// The binary of a kernel named "store" that stores 1 in the first word of
/// its one argument, a buffer; empty (and a test failure) when it does not
/// assemble.
std::vector<std::byte> storeOneBinary();

} // namespace vulkantest
