// cl_khr_command_buffer's image commands: the same checks and Commands as
// clEnqueueCopyImage / FillImage / CopyImageToBuffer / CopyBufferToImage
// (image_commands.h), recorded into the command buffer.
#include "command_buffer.h"
#include "command_buffer_entry_points.h"
#include "image_commands.h"

namespace polymux::cl {

cl_int CL_API_CALL commandCopyBufferToImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                               const cl_command_properties_khr *properties, cl_mem src_buffer,
                                               cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
                                               const size_t *region, cl_uint num_sync_points_in_wait_list,
                                               const cl_sync_point_khr *sync_point_wait_list,
                                               cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
        return buildCopyImageBuffer(queue, dst_image, src_buffer, dst_origin, region, src_offset, false, sink);
      });
}

cl_int CL_API_CALL commandCopyImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                       const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_image,
                                       const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                                       cl_uint num_sync_points_in_wait_list,
                                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                       cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
                         return buildCopyImage(queue, src_image, dst_image, src_origin, dst_origin, region, sink);
                       });
}

cl_int CL_API_CALL commandCopyImageToBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                               const cl_command_properties_khr *properties, cl_mem src_image,
                                               cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
                                               size_t dst_offset, cl_uint num_sync_points_in_wait_list,
                                               const cl_sync_point_khr *sync_point_wait_list,
                                               cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
        return buildCopyImageBuffer(queue, src_image, dst_buffer, src_origin, region, dst_offset, true, sink);
      });
}

cl_int CL_API_CALL commandFillImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                       const cl_command_properties_khr *properties, cl_mem image,
                                       const void *fill_color, const size_t *origin, const size_t *region,
                                       cl_uint num_sync_points_in_wait_list,
                                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                       cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
                         return buildFillImage(queue, image, fill_color, origin, region, sink);
                       });
}

} // namespace polymux::cl
