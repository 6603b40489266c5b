// cl_khr_command_buffer's image commands. No Polymux device supports images
// (CL_DEVICE_IMAGE_SUPPORT is false): after the checks every recording entry
// point makes, each fails as clEnqueue*Image does on such a device.
#include "command_buffer.h"

using namespace polymux::cl;

namespace {

cl_int imageCommandError(cl_command_buffer_khr commandBuffer, cl_command_queue queue, cl_uint numSyncPoints,
                         const cl_sync_point_khr *syncPointWaitList, cl_mutable_command_khr *mutableHandle) {
  return recordCommand(commandBuffer, queue, numSyncPoints, syncPointWaitList, nullptr, mutableHandle,
                       [](CommandBufferObject &, cl_command_queue, CommandSink) { return CL_INVALID_OPERATION; });
}

} // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, cl_mem, cl_mem, size_t, const size_t *,
    const size_t *, cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *, cl_mutable_command_khr *mutable_handle) {
  return imageCommandError(command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list,
                           mutable_handle);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyImageKHR(cl_command_buffer_khr command_buffer,
                                                      cl_command_queue command_queue, cl_mem, cl_mem, const size_t *,
                                                      const size_t *, const size_t *,
                                                      cl_uint num_sync_points_in_wait_list,
                                                      const cl_sync_point_khr *sync_point_wait_list,
                                                      cl_sync_point_khr *, cl_mutable_command_khr *mutable_handle) {
  return imageCommandError(command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list,
                           mutable_handle);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, cl_mem, cl_mem, const size_t *,
    const size_t *, size_t, cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *, cl_mutable_command_khr *mutable_handle) {
  return imageCommandError(command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list,
                           mutable_handle);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandFillImageKHR(cl_command_buffer_khr command_buffer,
                                                      cl_command_queue command_queue, cl_mem, const void *,
                                                      const size_t *, const size_t *,
                                                      cl_uint num_sync_points_in_wait_list,
                                                      const cl_sync_point_khr *sync_point_wait_list,
                                                      cl_sync_point_khr *, cl_mutable_command_khr *mutable_handle) {
  return imageCommandError(command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list,
                           mutable_handle);
}

} // extern "C"
