/* Declarations of cl_khr_command_buffer and
 * cl_khr_command_buffer_mutable_dispatch that OpenCL-Headers 2024.05.08 and
 * later have and the OpenCL headers of older distributions (Debian 12:
 * 2023.02.06) lack. Polymux, its tests and applications include it after
 * <CL/cl_ext.h>; each declaration is guarded, so it adds nothing when the
 * newer headers are installed. The values are the Khronos registry's.
 * doc/architecture.md, "Command buffers", says which revisions Polymux
 * implements. */
#ifndef CL_KHR_COMMAND_BUFFER_NEXT_H
#define CL_KHR_COMMAND_BUFFER_NEXT_H

#include <CL/cl_ext.h>

/* cl_khr_command_buffer 0.9.6: the queue properties a command-queue may have
 * to enqueue a command buffer on it (cl_command_queue_properties). */
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif

#endif /* CL_KHR_COMMAND_BUFFER_NEXT_H */
