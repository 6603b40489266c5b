/* Polymux's OpenCL extensions: what an application includes, after
 * <CL/cl.h>, to use them. Each is reported in CL_DEVICE_EXTENSIONS only by
 * the devices that implement it; doc/extensions/ specifies each one.
 *
 * The enum values are Polymux's own; they are not registered with Khronos. */
#ifndef CL_EXT_POLYMUX_H
#define CL_EXT_POLYMUX_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cl_polymux_instruction_counters (doc/extensions/cl_polymux_instruction_counters.md):
 * how many instructions a simulated device retired running a command. On a
 * queue created with CL_QUEUE_PROFILING_ENABLE, once the command is
 * CL_COMPLETE, clGetEventProfilingInfo(event,
 * CL_PROFILING_COMMAND_INSTRUCTIONS_RETIRED_POLYMUX, sizeof(cl_ulong), ...)
 * returns the count: every instruction every hart retired for a kernel, 0
 * for commands that run no device code. */
#define cl_polymux_instruction_counters 1
#define CL_POLYMUX_INSTRUCTION_COUNTERS_EXTENSION_NAME "cl_polymux_instruction_counters"
#define CL_PROFILING_COMMAND_INSTRUCTIONS_RETIRED_POLYMUX 0x4F10

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_POLYMUX_H */
