// What Vulkan does not promise about double arithmetic but OpenCL's
// cl_khr_fp64 requires, measured on the device with one small shader:
// whether double denormals are kept (a device without
// shaderDenormPreserveFloat64 may flush them: NVIDIA's driver, lavapipe),
// and whether GLSL.std.450 Fma on doubles is fused (Vulkan lets it round
// twice: lavapipe's does; the builtins library's exact reductions and
// OpenCL's fma() need it fused).
#pragma once

#include "llvm/Support/Error.h"

#include <string_view>
#include <volk.h>

namespace vulkan_target {

class Device;

struct DoubleArithmetic {
  bool denormalsKept = false;
  bool fmaFused = false;
};

/// Runs the probe on `queue` (no other work on it yet) and compares every
/// result with its exact value. Fails only when the probe could not run.
llvm::Expected<DoubleArithmetic> measureDoubleArithmetic(Device &device, VkQueue queue);

/// The probe shader, SPIR-V assembly for SPIRV-Tools (tests validate it).
std::string_view doubleArithmeticProbeAssembly();

} // namespace vulkan_target
