// Names of OpenCL command types for diagnostics (POLYMUX_LOG).
#pragma once

#include <CL/cl.h>

#include <string>

namespace polymux::cl {

/// "NDRANGE_KERNEL" for CL_COMMAND_NDRANGE_KERNEL; "0x<hex>" for a type
/// without a name here.
std::string commandTypeName(cl_command_type type);

} // namespace polymux::cl
