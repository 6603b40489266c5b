// cl_khr_command_buffer's image commands. No Polymux device supports images
// (CL_DEVICE_IMAGE_SUPPORT is false): after the checks every recording entry
// point makes, each fails as clEnqueue*Image does on such a device.
#include "command_buffer.h"

#include "command_buffer_entry_points.h"

namespace polymux::cl {

namespace {

cl_int unsupportedCommandError(cl_command_buffer_khr commandBuffer, cl_command_queue queue,
                               const cl_command_properties_khr *properties, cl_uint numSyncPoints,
                               const cl_sync_point_khr *syncPointWaitList, cl_mutable_command_khr *mutableHandle) {
  return recordCommand(commandBuffer, queue, properties, numSyncPoints, syncPointWaitList, nullptr, mutableHandle,
                       [](CommandBufferObject &, cl_command_queue, CommandSink) { return CL_INVALID_OPERATION; });
}

} // namespace

cl_int CL_API_CALL commandCopyBufferToImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                               const cl_command_properties_khr *properties, cl_mem, cl_mem, size_t,
                                               const size_t *, const size_t *, cl_uint num_sync_points_in_wait_list,
                                               const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *,
                                               cl_mutable_command_khr *mutable_handle) {
  return unsupportedCommandError(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                                 sync_point_wait_list, mutable_handle);
}

cl_int CL_API_CALL commandCopyImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                       const cl_command_properties_khr *properties, cl_mem, cl_mem, const size_t *,
                                       const size_t *, const size_t *, cl_uint num_sync_points_in_wait_list,
                                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *,
                                       cl_mutable_command_khr *mutable_handle) {
  return unsupportedCommandError(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                                 sync_point_wait_list, mutable_handle);
}

cl_int CL_API_CALL commandCopyImageToBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                               const cl_command_properties_khr *properties, cl_mem, cl_mem,
                                               const size_t *, const size_t *, size_t,
                                               cl_uint num_sync_points_in_wait_list,
                                               const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *,
                                               cl_mutable_command_khr *mutable_handle) {
  return unsupportedCommandError(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                                 sync_point_wait_list, mutable_handle);
}

cl_int CL_API_CALL commandFillImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                       const cl_command_properties_khr *properties, cl_mem, const void *,
                                       const size_t *, const size_t *, cl_uint num_sync_points_in_wait_list,
                                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *,
                                       cl_mutable_command_khr *mutable_handle) {
  return unsupportedCommandError(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                                 sync_point_wait_list, mutable_handle);
}

} // namespace polymux::cl
