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

/* cl_polymux_kernel_arg_entities (doc/extensions/cl_polymux_kernel_arg_entities.md):
 * the type of each kernel argument as the device lays it out, as a graph of
 * entities (scalars, vectors, structs, unions, typedefs, pointers, arrays)
 * with names, sizes, alignments and member offsets. Handles belong to a
 * program: equal handles of one program denote equal types. */
#define cl_polymux_kernel_arg_entities 1
#define CL_POLYMUX_KERNEL_ARG_ENTITIES_EXTENSION_NAME "cl_polymux_kernel_arg_entities"

typedef struct _cl_entity_POLYMUX *cl_entity_POLYMUX;
typedef cl_uint cl_entity_info_POLYMUX;
typedef cl_uint cl_entity_member_info_POLYMUX;
typedef cl_uint cl_entity_kind_POLYMUX;

/* clGetKernelArgInfo param_name: cl_entity_POLYMUX */
#define CL_KERNEL_ARG_ENTITY_POLYMUX 0x4F40

/* cl_entity_info_POLYMUX */
#define CL_ENTITY_KIND_POLYMUX 0x4F41          /* cl_entity_kind_POLYMUX */
#define CL_ENTITY_NAME_POLYMUX 0x4F42          /* char[]: parameter or member name */
#define CL_ENTITY_TYPE_NAME_POLYMUX 0x4F43     /* char[]: "int", "float4", "struct S", ... */
#define CL_ENTITY_QUALIFIER_POLYMUX 0x4F44     /* cl_kernel_arg_type_qualifier */
#define CL_ENTITY_SIZE_POLYMUX 0x4F45          /* size_t */
#define CL_ENTITY_ALIGNMENT_POLYMUX 0x4F46     /* size_t */
#define CL_ENTITY_TYPE_POLYMUX 0x4F47          /* cl_entity_POLYMUX: the same type, unnamed */
#define CL_ENTITY_TYPEDEF_TYPE_POLYMUX 0x4F48  /* cl_entity_POLYMUX: typedefs only */
#define CL_ENTITY_ELEMENT_POLYMUX 0x4F49       /* cl_entity_POLYMUX: vectors and arrays */
#define CL_ENTITY_ELEMENT_COUNT_POLYMUX 0x4F4A /* size_t: vectors and arrays */
#define CL_ENTITY_POINTEE_POLYMUX 0x4F4B       /* cl_entity_POLYMUX: pointers only */
#define CL_ENTITY_ADDRESS_SPACE_POLYMUX 0x4F4C /* cl_kernel_arg_address_qualifier: pointers only */

/* CL_ENTITY_ADDRESS_SPACE_POLYMUX of a pointer into the generic address space */
#define CL_KERNEL_ARG_ADDRESS_GENERIC_POLYMUX 0x4F4D

/* cl_entity_member_info_POLYMUX */
#define CL_ENTITY_MEMBER_ENTITY_POLYMUX 0x4F50 /* cl_entity_POLYMUX, named after the member */
#define CL_ENTITY_MEMBER_OFFSET_POLYMUX 0x4F51 /* size_t: bytes from the start of the struct */

/* cl_entity_kind_POLYMUX */
#define CL_ENTITY_KIND_SCALAR_POLYMUX 1
#define CL_ENTITY_KIND_VECTOR_POLYMUX 2
#define CL_ENTITY_KIND_STRUCT_POLYMUX 3
#define CL_ENTITY_KIND_UNION_POLYMUX 4
#define CL_ENTITY_KIND_TYPEDEF_POLYMUX 5
#define CL_ENTITY_KIND_POINTER_POLYMUX 6
#define CL_ENTITY_KIND_ARRAY_POLYMUX 7
#define CL_ENTITY_KIND_OPAQUE_POLYMUX 8

typedef cl_int(CL_API_CALL *clGetEntityInfoPOLYMUX_fn)(cl_program program, cl_entity_POLYMUX entity,
                                                       cl_entity_info_POLYMUX param_name, size_t param_value_size,
                                                       void *param_value, size_t *param_value_size_ret);
typedef size_t(CL_API_CALL *clNumMemberEntitiesPOLYMUX_fn)(cl_program program, cl_entity_POLYMUX entity,
                                                           cl_int *errcode_ret);
typedef cl_int(CL_API_CALL *clGetEntityMemberInfoPOLYMUX_fn)(cl_program program, cl_entity_POLYMUX entity,
                                                             cl_uint member_index,
                                                             cl_entity_member_info_POLYMUX param_name,
                                                             size_t param_value_size, void *param_value,
                                                             size_t *param_value_size_ret);

/* Not exported by the ICD loader: obtain them with
 * clGetExtensionFunctionAddressForPlatform (the _fn types above). */
#if !defined(CL_NO_EXTENSION_PROTOTYPES)
extern CL_API_ENTRY cl_int CL_API_CALL clGetEntityInfoPOLYMUX(cl_program program, cl_entity_POLYMUX entity,
                                                              cl_entity_info_POLYMUX param_name,
                                                              size_t param_value_size, void *param_value,
                                                              size_t *param_value_size_ret);
extern CL_API_ENTRY size_t CL_API_CALL clNumMemberEntitiesPOLYMUX(cl_program program, cl_entity_POLYMUX entity,
                                                                  cl_int *errcode_ret);
extern CL_API_ENTRY cl_int CL_API_CALL clGetEntityMemberInfoPOLYMUX(cl_program program, cl_entity_POLYMUX entity,
                                                                    cl_uint member_index,
                                                                    cl_entity_member_info_POLYMUX param_name,
                                                                    size_t param_value_size, void *param_value,
                                                                    size_t *param_value_size_ret);
#endif

/* cl_polymux_async_error_model (doc/extensions/cl_polymux_async_error_model.md):
 * an opt-in error model, per context. Created with the context property
 * CL_CONTEXT_ERROR_MODEL_POLYMUX = CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX, a
 * context's failed command poisons the memory objects it may write
 * (clGetEventInfo(CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX), cl_mem[]);
 * commands that wait on a failed event or use poisoned memory do not run and
 * fail with CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX; a successful write, fill or
 * copy of a whole buffer clears its poison. clCheckEventExecutionPOLYMUX
 * waits for an event and reports the failure farthest up its wait lists.
 * Get the function with clGetExtensionFunctionAddressForPlatform. */
#define cl_polymux_async_error_model 1
#define CL_POLYMUX_ASYNC_ERROR_MODEL_EXTENSION_NAME "cl_polymux_async_error_model"

#define CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX (-9700)

/* cl_context_properties */
#define CL_CONTEXT_ERROR_MODEL_POLYMUX 0x4F80
/* values of CL_CONTEXT_ERROR_MODEL_POLYMUX */
#define CL_CONTEXT_ERROR_MODEL_SPECIFICATION_POLYMUX 0x4F81 /* the default: OpenCL's own model */
#define CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX 0x4F82
/* cl_event_info: cl_mem[] (poison-model contexts only) */
#define CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX 0x4F83

typedef cl_int CL_API_CALL clCheckEventExecutionPOLYMUX_t(cl_event event, cl_event *failed_event, cl_int *error);
typedef clCheckEventExecutionPOLYMUX_t *clCheckEventExecutionPOLYMUX_fn;
#if !defined(CL_NO_NON_ICD_DISPATCH_EXTENSION_PROTOTYPES)
extern CL_API_ENTRY cl_int CL_API_CALL clCheckEventExecutionPOLYMUX(cl_event event, cl_event *failed_event,
                                                                    cl_int *error);
#endif

/* cl_polymux_device_status (doc/extensions/cl_polymux_device_status.md):
 * what a device is doing (progress of its kernel launch or integrity
 * check, free memory, utilisation estimates), and integrity checks of its
 * memory and ALUs that hold back queued work while they run. */
#define cl_polymux_device_status 1
#define CL_POLYMUX_DEVICE_STATUS_EXTENSION_NAME "cl_polymux_device_status"

typedef cl_uint cl_device_status_info_POLYMUX;

/* cl_device_status_info_POLYMUX */
#define CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX 0x4F60   /* cl_uint, 0..100 */
#define CL_DEVICE_STATUS_COMMAND_COMPLETE_POLYMUX 0x4F61   /* cl_bool */
#define CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX 0x4F62   /* cl_ulong, bytes */
#define CL_DEVICE_STATUS_ALU_UTILIZATION_POLYMUX 0x4F63    /* cl_uint, 0..100 */
#define CL_DEVICE_STATUS_MEMORY_UTILIZATION_POLYMUX 0x4F64 /* cl_uint, 0..100 */
#define CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX 0x4F65  /* cl_int: issues a memory check */
#define CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX 0x4F66  /* cl_int: issues an ALU check */
#define CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX 0x4F67     /* cl_bool: the last check passed */
#define CL_DEVICE_STATUS_COMMAND_MESSAGE_POLYMUX 0x4F68    /* char[]: what the last check found */

typedef cl_int(CL_API_CALL *clGetDeviceStatusInfoPOLYMUX_fn)(cl_device_id device,
                                                             cl_device_status_info_POLYMUX param_name,
                                                             size_t param_value_size, void *param_value,
                                                             size_t *param_value_size_ret);

/* Not exported by the ICD loader: obtain it with
 * clGetExtensionFunctionAddressForPlatform. */
#if !defined(CL_NO_NON_ICD_DISPATCH_EXTENSION_PROTOTYPES)
extern CL_API_ENTRY cl_int CL_API_CALL clGetDeviceStatusInfoPOLYMUX(cl_device_id device,
                                                                    cl_device_status_info_POLYMUX param_name,
                                                                    size_t param_value_size, void *param_value,
                                                                    size_t *param_value_size_ret);
#endif

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_POLYMUX_H */
