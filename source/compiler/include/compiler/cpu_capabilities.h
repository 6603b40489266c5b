// What the shared CPU pipeline (cpu_target.h) gives every device that uses
// it, whatever the CPU: the OpenCL extensions and OpenCL C features its
// passes implement, atomics, the sub-group model and IEEE arithmetic. A
// target fills the rest of its DeviceInfo (limits, memory, identity) itself.
#pragma once

#include "mux/device_info.h"

#include <string>
#include <vector>

namespace compiler {

/// Sets extensions, openclCFeatures, the atomic capabilities, the sub-groups
/// (of `subGroupSize` work-items: set maxWorkGroupSize first), fp64/int64/
/// 64-bit atomics and the single and double FpConfig (IEEE-754 with every
/// rounding mode, denormals and fma; single divide and sqrt correctly
/// rounded).
void describeCpuPipelineCapabilities(mux::DeviceInfo &info, uint32_t subGroupSize);

/// The -cl-ext list of a device: its extensions (but Polymux's own runtime
/// extensions, cl_polymux_*) plus the OpenCL C 3.0 feature macros its
/// capabilities imply.
std::vector<std::string> clExtensionsFor(const mux::DeviceInfo &info);

} // namespace compiler
