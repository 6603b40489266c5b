// compiler::Target for Vulkan devices: OpenCL C -> LLVM IR (Clang, SPIR-V
// triple) -> the shared and Vulkan-specific passes -> Polymux's own SPIR-V
// emitter -> a compiler/vulkan_binary.h container whose kernels follow
// compiler/abi/vulkan_kernel_abi.h.
#pragma once

#include "compiler/target.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace compiler {

/// What the SPIR-V compiler cannot do yet, whatever the device offers; the
/// runtime claims the matching OpenCL features only where these are true.
/// Half-precision arithmetic and math (cl_khr_fp16): computed in double
/// and rounded to half (needs shaderFloat64), the library's half functions.
inline constexpr bool kVulkanHalfMath = true;
/// The most private memory (every private variable and array of one
/// work-item) a kernel may use; larger kernels fail the build. Vulkan has no
/// limit to query; this is the per-thread maximum NVIDIA documents for its
/// GPUs' local memory, and a CPU driver such as lavapipe would otherwise
/// exhaust the host's memory.
inline constexpr uint64_t kVulkanMaxPrivateBytes = 512 * 1024;

/// What the compiler must know about the device it compiles for. The
/// runtime fills it from the Vulkan device's properties and features.
struct VulkanTargetConfig {
  std::string name = "vulkan"; ///< the Mux target (part of identity())
  /// Identifies the physical device and driver (name, driver version,
  /// pipeline-cache UUID): part of identity(), so binaries and cached
  /// programs are rebuilt for another device or driver.
  std::string deviceIdentity;
  /// Extensions and OpenCL C feature macros the device supports.
  std::vector<std::string> extensions;
  unsigned maxClStd = 300; ///< highest -cl-std accepted (100 * major + 10 * minor)
  /// The builtins library compiled for the SPIR-V triple; must outlive the
  /// target. Empty: programs get no library builtins.
  std::span<const std::byte> builtinLibrary;

  // Device facts the generated code depends on.
  uint32_t maxPushConstantsSize = 128;
  uint32_t subgroupSize = 0; ///< 0: no sub-group operations
  /// maxComputeWorkGroupInvocations: sizes the work-group collectives' scratch.
  uint32_t maxWorkGroupSize = 1024;
  bool fp64 = false;
  /// shaderFloat64: double arithmetic usable inside generated code (an
  /// exact float fma, an accurate float sqrt) even where the device does
  /// not offer cl_khr_fp64. Implied by fp64.
  bool shaderFloat64 = false;
  /// The device's double fma (GLSL.std.450 Fma) rounds once. Where it does
  /// not, fma() on doubles and the library's double functions use an fma
  /// computed in integer arithmetic (passes/emulate_double_fma.cpp).
  bool exactDoubleFma = true;
  bool fp16 = false;
  bool int8 = false;  ///< shaderInt8 + storageBuffer8BitAccess
  bool int16 = false; ///< shaderInt16 + storageBuffer16BitAccess
  bool atomicInt64 = false;
  /// Float controls (VkPhysicalDeviceFloatControlsProperties): kernels
  /// declare DenormPreserve for the widths the device can keep.
  bool denormPreserveFloat16 = false; ///< declared only with fp16
  bool denormPreserveFloat32 = false;
  bool denormPreserveFloat64 = false;
  bool roundingModeRTZFloat32 = false;
  /// Clamp the indices of __local and private reads too, not only of
  /// writes: for a driver that runs shaders in the application's process
  /// (a CPU implementation such as lavapipe), where a wild read faults the
  /// process.
  bool clampWordMemoryReads = false;
};

std::unique_ptr<Target> createVulkanTarget(VulkanTargetConfig config);

/// The builtins library compiled for the SPIR-V triple (embedded in
/// polymux_compiler_spirv): what the runtime gives as
/// VulkanTargetConfig::builtinLibrary.
std::span<const std::byte> vulkanBuiltinLibrary();

} // namespace compiler
