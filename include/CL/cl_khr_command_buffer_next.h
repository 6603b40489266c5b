/* cl_khr_command_buffer revision 0.9.8 and
 * cl_khr_command_buffer_mutable_dispatch revision 0.9.5, the revisions
 * Polymux implements, for code compiled against OpenCL headers that declare
 * older revisions (Debian 12: OpenCL-Headers 2023.02.06, revisions 0.9.1 and
 * 0.9.0). Include it after <CL/cl_ext.h>.
 *
 * Where a name of the old revision has a new meaning, this header redefines
 * it, so that code written against the Khronos headers of 2025 compiles
 * unchanged: cl_mutable_dispatch_config_khr (no type/next members),
 * CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR (0) and the clCommand*KHR_fn
 * and clUpdateMutableCommandsKHR_fn pointer types (new signatures). The old
 * headers' prototypes of those functions keep their old signatures: call the
 * functions through pointers that clGetExtensionFunctionAddressForPlatform
 * returns (an ICD loader does not export them anyway).
 *
 * With headers that declare the new revisions (OpenCL-Headers 2025 and later,
 * with CL_ENABLE_BETA_EXTENSIONS), it adds nothing. doc/architecture.md,
 * "Command buffers", says what Polymux implements. */
#ifndef CL_KHR_COMMAND_BUFFER_NEXT_H
#define CL_KHR_COMMAND_BUFFER_NEXT_H

#include <CL/cl_ext.h>

/* The old revisions chained update configs behind a base config. */
#if defined(CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR)

#ifdef __cplusplus
extern "C" {
#endif

/* cl_khr_command_buffer 0.9.8 */

typedef cl_properties cl_command_properties_khr;

#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299

typedef cl_int CL_API_CALL clCommandBarrierWithWaitListKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandCopyBufferKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_buffer, cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandCopyBufferRectKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandCopyBufferToImageKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_buffer, cl_mem dst_image, size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandCopyImageKHR_t(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                                   const cl_command_properties_khr *properties, cl_mem src_image,
                                                   cl_mem dst_image, const size_t *src_origin, const size_t *dst_origin,
                                                   const size_t *region, cl_uint num_sync_points_in_wait_list,
                                                   const cl_sync_point_khr *sync_point_wait_list,
                                                   cl_sync_point_khr *sync_point,
                                                   cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandCopyImageToBufferKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandFillBufferKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandFillImageKHR_t(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                                   const cl_command_properties_khr *properties, cl_mem image,
                                                   const void *fill_color, const size_t *origin, const size_t *region,
                                                   cl_uint num_sync_points_in_wait_list,
                                                   const cl_sync_point_khr *sync_point_wait_list,
                                                   cl_sync_point_khr *sync_point,
                                                   cl_mutable_command_khr *mutable_handle);

typedef cl_int CL_API_CALL clCommandNDRangeKernelKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);

/* Since revision 0.9.4, for OpenCL 2.0 and later. */
typedef cl_int CL_API_CALL clCommandSVMMemcpyKHR_t(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                                   const cl_command_properties_khr *properties, void *dst_ptr,
                                                   const void *src_ptr, size_t size,
                                                   cl_uint num_sync_points_in_wait_list,
                                                   const cl_sync_point_khr *sync_point_wait_list,
                                                   cl_sync_point_khr *sync_point,
                                                   cl_mutable_command_khr *mutable_handle);
typedef clCommandSVMMemcpyKHR_t *clCommandSVMMemcpyKHR_fn;

typedef cl_int CL_API_CALL clCommandSVMMemFillKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    void *svm_ptr, const void *pattern, size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandSVMMemFillKHR_t *clCommandSVMMemFillKHR_fn;

/* The pointer types under their usual names, with the new signatures. */
typedef clCommandBarrierWithWaitListKHR_t *clCommandBarrierWithWaitListKHR_next_fn;
typedef clCommandCopyBufferKHR_t *clCommandCopyBufferKHR_next_fn;
typedef clCommandCopyBufferRectKHR_t *clCommandCopyBufferRectKHR_next_fn;
typedef clCommandCopyBufferToImageKHR_t *clCommandCopyBufferToImageKHR_next_fn;
typedef clCommandCopyImageKHR_t *clCommandCopyImageKHR_next_fn;
typedef clCommandCopyImageToBufferKHR_t *clCommandCopyImageToBufferKHR_next_fn;
typedef clCommandFillBufferKHR_t *clCommandFillBufferKHR_next_fn;
typedef clCommandFillImageKHR_t *clCommandFillImageKHR_next_fn;
typedef clCommandNDRangeKernelKHR_t *clCommandNDRangeKernelKHR_next_fn;
#define clCommandBarrierWithWaitListKHR_fn clCommandBarrierWithWaitListKHR_next_fn
#define clCommandCopyBufferKHR_fn clCommandCopyBufferKHR_next_fn
#define clCommandCopyBufferRectKHR_fn clCommandCopyBufferRectKHR_next_fn
#define clCommandCopyBufferToImageKHR_fn clCommandCopyBufferToImageKHR_next_fn
#define clCommandCopyImageKHR_fn clCommandCopyImageKHR_next_fn
#define clCommandCopyImageToBufferKHR_fn clCommandCopyImageToBufferKHR_next_fn
#define clCommandFillBufferKHR_fn clCommandFillBufferKHR_next_fn
#define clCommandFillImageKHR_fn clCommandFillImageKHR_next_fn
#define clCommandNDRangeKernelKHR_fn clCommandNDRangeKernelKHR_next_fn

/* cl_khr_command_buffer_mutable_dispatch 0.9.5 */

typedef cl_uint cl_command_buffer_update_type_khr;
typedef cl_bitfield cl_mutable_dispatch_asserts_khr;

typedef struct _cl_mutable_dispatch_config_khr_next {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const cl_mutable_dispatch_arg_khr *arg_list;
  const cl_mutable_dispatch_arg_khr *arg_svm_list;
  const cl_mutable_dispatch_exec_info_khr *exec_info_list;
  const size_t *global_work_offset;
  const size_t *global_work_size;
  const size_t *local_work_size;
} cl_mutable_dispatch_config_khr_next;
#define cl_mutable_dispatch_config_khr cl_mutable_dispatch_config_khr_next

/* Was 1 (after CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR, now gone). */
#undef CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
#define CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR 0

/* Was CL_MUTABLE_DISPATCH_PROPERTIES_ARRAY_KHR. */
#define CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR 0x12A2
/* Was the value of CL_COMMAND_BUFFER_STATE_PENDING_KHR, now gone: a mutable
 * command buffer whose commands lack kernel arguments. */
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2

#define CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B7
#define CL_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B8
#define CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR (1 << 0)

typedef cl_int CL_API_CALL clUpdateMutableCommandsKHR_t(cl_command_buffer_khr command_buffer, cl_uint num_configs,
                                                        const cl_command_buffer_update_type_khr *config_types,
                                                        const void **configs);
typedef clUpdateMutableCommandsKHR_t *clUpdateMutableCommandsKHR_next_fn;
#define clUpdateMutableCommandsKHR_fn clUpdateMutableCommandsKHR_next_fn

#ifdef __cplusplus
}
#endif

#endif /* CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR */

#endif /* CL_KHR_COMMAND_BUFFER_NEXT_H */
