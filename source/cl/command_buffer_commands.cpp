// cl_khr_command_buffer: the clCommand*KHR entry points (but the image ones,
// command_buffer_unsupported.cpp). Each runs the same checks and builds
// the same Command as its clEnqueue* twin (command_builders.h), then records it into
// the command buffer's mux command buffer instead of a queue's batch.
#include "command_buffer.h"

#include "command_buffer_entry_points.h"
#include "device.h"
#include "kernel.h"
#include "mutable_command.h"

#include <new>

namespace polymux::cl {

cl_int CL_API_CALL commandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                                 const cl_command_properties_khr *properties,
                                                 cl_uint num_sync_points_in_wait_list,
                                                 const cl_sync_point_khr *sync_point_wait_list,
                                                 cl_sync_point_khr *sync_point,
                                                 cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [](CommandBufferObject &commandBuffer, cl_command_queue, CommandSink sink) {
                         // Every command already runs after all recorded before it.
                         Command command;
                         command.type = CL_COMMAND_BARRIER;
                         command.record = [](mux::CommandBuffer &) { return llvm::Error::success(); };
                         return sink(commandBuffer.queue(), std::move(command));
                       });
}

cl_int CL_API_CALL commandCopyBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                        const cl_command_properties_khr *properties, cl_mem src_buffer,
                                        cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
                                        cl_uint num_sync_points_in_wait_list,
                                        const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                        cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
                         return buildCopyBuffer(queue, src_buffer, dst_buffer, src_offset, dst_offset, size, sink);
                       });
}

cl_int CL_API_CALL commandCopyBufferRectKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                            const cl_command_properties_khr *properties, cl_mem src_buffer,
                                            cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin,
                                            const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
                                            size_t dst_row_pitch, size_t dst_slice_pitch,
                                            cl_uint num_sync_points_in_wait_list,
                                            const cl_sync_point_khr *sync_point_wait_list,
                                            cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
        return buildCopyBufferRect(queue, src_buffer, dst_buffer, src_origin, dst_origin, region, src_row_pitch,
                                   src_slice_pitch, dst_row_pitch, dst_slice_pitch, sink);
      });
}

cl_int CL_API_CALL commandFillBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                        const cl_command_properties_khr *properties, cl_mem buffer, const void *pattern,
                                        size_t pattern_size, size_t offset, size_t size,
                                        cl_uint num_sync_points_in_wait_list,
                                        const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                        cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
                         return buildFillBuffer(queue, buffer, pattern, pattern_size, offset, size, sink);
                       });
}

cl_int CL_API_CALL commandNDRangeKernelKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                           const cl_command_properties_khr *properties, cl_kernel kernel,
                                           cl_uint work_dim, const size_t *global_work_offset,
                                           const size_t *global_work_size, const size_t *local_work_size,
                                           cl_uint num_sync_points_in_wait_list,
                                           const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                           cl_mutable_command_khr *mutable_handle) {
  // The properties and mutable handle are checked by recordKernelCommand,
  // not recordCommand.
  return recordCommand(
      command_buffer, command_queue, nullptr, num_sync_points_in_wait_list, sync_point_wait_list, sync_point, nullptr,
      [&](CommandBufferObject &commandBuffer, cl_command_queue queue, CommandSink) {
        return recordKernelCommand(commandBuffer, queue, properties, kernel, work_dim, global_work_offset,
                                   global_work_size, local_work_size, sync_point, mutable_handle);
      });
}

// Revision 0.9.4's SVM commands: a copy between two host ranges, which
// clEnqueueSVMMemcpy does on the host, is no device work to record.
cl_int CL_API_CALL commandSVMMemcpyKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                       const cl_command_properties_khr *properties, void *dst_ptr, const void *src_ptr,
                                       size_t size, cl_uint num_sync_points_in_wait_list,
                                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                       cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
                         return buildSvmMemcpy(queue, dst_ptr, src_ptr, size, /*hostCopies=*/false, sink);
                       });
}

cl_int CL_API_CALL commandSVMMemFillKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                        const cl_command_properties_khr *properties, void *svm_ptr, const void *pattern,
                                        size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
                                        const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                        cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                       sync_point, mutable_handle,
                       [&](CommandBufferObject &, cl_command_queue queue, CommandSink sink) {
                         return buildSvmMemFill(queue, svm_ptr, pattern, pattern_size, size, sink);
                       });
}

} // namespace polymux::cl
