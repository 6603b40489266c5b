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

/* cl_polymux_mutable_mem_flags (doc/extensions/cl_polymux_mutable_mem_flags.md):
 * the kernel-access (CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY)
 * and host-access (CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
 * CL_MEM_HOST_NO_ACCESS) flags of a buffer may be replaced after creation.
 * `flags` is the complete new set: both access groups, plus the allocation
 * flags (USE/ALLOC/COPY_HOST_PTR) exactly as CL_MEM_FLAGS reports them.
 * Later API calls check the new flags; commands enqueued before keep theirs.
 * Get the function with clGetExtensionFunctionAddressForPlatform. */
#define cl_polymux_mutable_mem_flags 1
#define CL_POLYMUX_MUTABLE_MEM_FLAGS_EXTENSION_NAME "cl_polymux_mutable_mem_flags"

typedef cl_int CL_API_CALL clModifyMemoryFlagsPOLYMUX_t(cl_mem memobj, cl_mem_flags flags);
typedef clModifyMemoryFlagsPOLYMUX_t *clModifyMemoryFlagsPOLYMUX_fn;
#if !defined(CL_NO_NON_ICD_DISPATCH_EXTENSION_PROTOTYPES)
extern CL_API_ENTRY cl_int CL_API_CALL clModifyMemoryFlagsPOLYMUX(cl_mem memobj, cl_mem_flags flags);
#endif

/* cl_polymux_const_kernel_args (doc/extensions/cl_polymux_const_kernel_args.md):
 * clSetKernelArgConstPOLYMUX sets a buffer argument as clSetKernelArg does
 * and promises that the kernel only reads it; CL_INVALID_ARG_VALUE when the
 * parameter is not a pointer to const __global or __constant data. A plain
 * clSetKernelArg of the same index clears the mark;
 * clGetKernelArgInfo(CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX) (cl_bool) reads
 * it, also for programs built without -cl-kernel-arg-info. */
#define cl_polymux_const_kernel_args 1
#define CL_POLYMUX_CONST_KERNEL_ARGS_EXTENSION_NAME "cl_polymux_const_kernel_args"
#define CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX 0x4F70

typedef cl_int CL_API_CALL clSetKernelArgConstPOLYMUX_t(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                                        const void *arg_value);
typedef clSetKernelArgConstPOLYMUX_t *clSetKernelArgConstPOLYMUX_fn;
#if !defined(CL_NO_NON_ICD_DISPATCH_EXTENSION_PROTOTYPES)
extern CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgConstPOLYMUX(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                                                  const void *arg_value);
#endif

/* cl_polymux_kernel_exit (doc/extensions/cl_polymux_kernel_exit.md): in
 * OpenCL C, kernel_exit(int32_t status) ends the calling work-item and the
 * kernel (work-groups not yet started never start; the others run on and
 * may see is_kernel_exiting()). Once a kernel command has finished,
 * clGetKernelExecutionStatusPOLYMUX reads the status (0 when the kernel ran
 * to its end; the codes below when the implementation ended it) and a
 * message: one the application registered for the kernel, else for the
 * program, else the implementation's. The event's execution status is
 * CL_COMPLETE after kernel_exit and negative after a fault. Get the
 * functions with clGetExtensionFunctionAddressForPlatform. */
#define cl_polymux_kernel_exit 1
#define CL_POLYMUX_KERNEL_EXIT_EXTENSION_NAME "cl_polymux_kernel_exit"

typedef cl_uint cl_kernel_status_info_POLYMUX;
#define CL_KERNEL_STATUS_EXIT_CODE_POLYMUX 0x4F30 /* cl_int */
#define CL_KERNEL_STATUS_EXIT_MSG_POLYMUX 0x4F31  /* char[] */

/* Exit codes: negative ones are reserved for these meanings. */
#define CL_KERNEL_EXIT_SEARCH_COMPLETE_POLYMUX (-1)  /* a kernel's own: the search is complete */
#define CL_KERNEL_EXIT_OUT_OF_BOUNDS_POLYMUX (-2)    /* an invalid memory access */
#define CL_KERNEL_EXIT_ARITHMETIC_FAULT_POLYMUX (-3) /* an integer division trapped */
#define CL_KERNEL_EXIT_STACK_OVERFLOW_POLYMUX (-4)   /* the kernel's stack overflowed */
#define CL_KERNEL_EXIT_INVALID_STATUS_POLYMUX (-5)   /* kernel_exit(INT32_MIN), which is reserved */
#define CL_KERNEL_EXIT_DEVICE_FAULT_POLYMUX (-6)     /* any other fault the device detected */
#define CL_KERNEL_EXIT_NOT_RUN_POLYMUX (-7)          /* the command failed without the kernel ending */

typedef cl_int CL_API_CALL clGetKernelExecutionStatusPOLYMUX_t(cl_event event, cl_kernel_status_info_POLYMUX param_name,
                                                               size_t param_value_size, void *param_value,
                                                               size_t *param_value_size_ret);
typedef clGetKernelExecutionStatusPOLYMUX_t *clGetKernelExecutionStatusPOLYMUX_fn;
typedef cl_int CL_API_CALL clRegisterProgramErrorMessagePOLYMUX_t(cl_program program, cl_int error_code,
                                                                  const char *message);
typedef clRegisterProgramErrorMessagePOLYMUX_t *clRegisterProgramErrorMessagePOLYMUX_fn;
typedef cl_int CL_API_CALL clRegisterKernelErrorMessagePOLYMUX_t(cl_program program, const char *kernel_name,
                                                                 cl_int error_code, const char *message);
typedef clRegisterKernelErrorMessagePOLYMUX_t *clRegisterKernelErrorMessagePOLYMUX_fn;
#if !defined(CL_NO_NON_ICD_DISPATCH_EXTENSION_PROTOTYPES)
extern CL_API_ENTRY cl_int CL_API_CALL clGetKernelExecutionStatusPOLYMUX(cl_event event,
                                                                         cl_kernel_status_info_POLYMUX param_name,
                                                                         size_t param_value_size, void *param_value,
                                                                         size_t *param_value_size_ret);
extern CL_API_ENTRY cl_int CL_API_CALL clRegisterProgramErrorMessagePOLYMUX(cl_program program, cl_int error_code,
                                                                            const char *message);
extern CL_API_ENTRY cl_int CL_API_CALL clRegisterKernelErrorMessagePOLYMUX(cl_program program, const char *kernel_name,
                                                                           cl_int error_code, const char *message);
#endif

/* cl_polymux_sized_integers (doc/extensions/cl_polymux_sized_integers.md):
 * OpenCL C programs may use int8_t ... uint64_t and INT8_MIN ... UINT64_MAX;
 * no host API. */
#define cl_polymux_sized_integers 1
#define CL_POLYMUX_SIZED_INTEGERS_EXTENSION_NAME "cl_polymux_sized_integers"

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_POLYMUX_H */
