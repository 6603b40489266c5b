// The entry points of cl_khr_command_buffer 0.9.8 and
// cl_khr_command_buffer_mutable_dispatch 0.9.5 whose signatures differ from
// the older revisions the installed OpenCL headers may declare. They are C++
// functions rather than extern "C" ones of the API's names, so that they
// cannot clash with those declarations; applications reach them through
// clGetExtensionFunctionAddressForPlatform (extensions.cpp), as they reach
// every extension function of an ICD.
#pragma once

#include "object.h"

#include "CL/cl_khr_command_buffer_next.h"

namespace polymux::cl {

clCommandBarrierWithWaitListKHR_t commandBarrierWithWaitListKHR;
clCommandCopyBufferKHR_t commandCopyBufferKHR;
clCommandCopyBufferRectKHR_t commandCopyBufferRectKHR;
clCommandCopyBufferToImageKHR_t commandCopyBufferToImageKHR;
clCommandCopyImageKHR_t commandCopyImageKHR;
clCommandCopyImageToBufferKHR_t commandCopyImageToBufferKHR;
clCommandFillBufferKHR_t commandFillBufferKHR;
clCommandFillImageKHR_t commandFillImageKHR;
clCommandNDRangeKernelKHR_t commandNDRangeKernelKHR;
clCommandSVMMemcpyKHR_t commandSVMMemcpyKHR;
clCommandSVMMemFillKHR_t commandSVMMemFillKHR;
clUpdateMutableCommandsKHR_t updateMutableCommandsKHR;

} // namespace polymux::cl
