// The image commands: clEnqueueRead/Write/Copy/FillImage,
// clEnqueueCopyImageToBuffer / BufferToImage and clEnqueueMapImage. An
// image's texels are a buffer with the image's pitches (image.h), so every
// command is a rectangle of bytes: the buffer rect commands of mux.
#include "image.h"
#include "image_commands.h"

#include "device.h"
#include "host_staging.h"
#include "image_pixel.h"
#include "mem_flags.h"
#include "queue.h"

#include <algorithm>

#include <memory>

namespace polymux::cl {
namespace {

/// An image command's queue and image, resolved and checked.
struct ImageTarget {
  CommandQueue *queue = nullptr;
  ImageObject *image = nullptr;
  BufferBinding binding;
};

cl_int resolveImage(CommandQueue &queue, cl_mem handle, ImageObject *&image) {
  image = ImageObject::fromHandle(handle);
  if (!image)
    return CL_INVALID_MEM_OBJECT;
  if (&image->context() != &queue.context())
    return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

cl_int bindImage(ImageObject &image, CommandQueue &queue, BufferBinding &binding) {
  auto result = image.binding(queue.device());
  if (!result)
    return allocationError(result.takeError());
  binding = *result;
  return CL_SUCCESS;
}

/// §5.3.3: origin + region inside the image, and the dimensions the image
/// type does not have at 0 (origin) and 1 (region).
cl_int checkRegion(const ImageObject &image, const size_t *origin, const size_t *region) {
  if (!origin || !region)
    return CL_INVALID_VALUE;
  const std::array<size_t, 3> extent = image.extent();
  for (int d = 0; d < 3; ++d) {
    if (region[d] == 0 || origin[d] > extent[d] || region[d] > extent[d] - origin[d])
      return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

/// The image side of a byte rectangle: memory origin and pitches, in the
/// mux::RectRegion sense. A 1D array's layers are slices in memory.
struct ImageRect {
  std::array<size_t, 3> origin;
  std::array<size_t, 3> region;
  size_t rowPitch;
  size_t slicePitch;

  ImageRect(const ImageObject &image, const size_t *o, const size_t *r) {
    const size_t es = image.elementSize();
    const cl_image_desc &desc = image.desc();
    if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
      origin = {o[0] * es, 0, o[1]};
      region = {r[0] * es, 1, r[1]};
    } else {
      origin = {o[0] * es, o[1], o[2]};
      region = {r[0] * es, r[1], r[2]};
    }
    rowPitch = desc.image_row_pitch;
    slicePitch = desc.image_slice_pitch ? desc.image_slice_pitch : rowPitch * region[1];
  }
  uint64_t first() const { return origin[2] * slicePitch + origin[1] * rowPitch + origin[0]; }
  uint64_t spanSize() const {
    return (region[2] - 1) * slicePitch + (region[1] - 1) * rowPitch + region[0] + origin[0] + origin[1] * rowPitch +
           origin[2] * slicePitch - first();
  }
};

/// Host pitches of a read or write: 0 means tightly packed. False when a
/// given pitch is too small (CL_INVALID_VALUE).
bool hostPitches(const ImageObject &image, const ImageRect &rect, size_t rowPitch, size_t slicePitch, size_t &hostRow,
                 size_t &hostSlice) {
  const cl_mem_object_type type = image.desc().image_type;
  hostRow = rowPitch ? rowPitch : rect.region[0];
  if (hostRow < rect.region[0])
    return false;
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    // Layers lie slice_pitch apart on the host (row_pitch when 0).
    hostSlice = slicePitch ? slicePitch : hostRow;
    return hostSlice >= hostRow;
  }
  const bool hasSlices = type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
  hostSlice = hasSlices && slicePitch ? slicePitch : hostRow * rect.region[1];
  return hostSlice >= hostRow * rect.region[1];
}

cl_int resolveTarget(ImageTarget &target, cl_command_queue queueHandle, cl_mem imageHandle) {
  target.queue = CommandQueue::fromHandle(queueHandle);
  if (!target.queue)
    return CL_INVALID_COMMAND_QUEUE;
  // A device without images refuses every image command, whatever its
  // arguments.
  if (!target.queue->device().info().images)
    return CL_INVALID_OPERATION;
  return resolveImage(*target.queue, imageHandle, target.image);
}

/// The checks of clEnqueueReadImage (`hostWrites` false) and
/// clEnqueueWriteImage up to and including the bind; resolves the host
/// pitches.
cl_int validateHostTransfer(ImageTarget &target, cl_command_queue queueHandle, cl_mem imageHandle, const size_t *origin,
                            const size_t *region, const void *ptr, size_t rowPitch, size_t slicePitch, bool hostWrites,
                            size_t &hostRow, size_t &hostSlice) {
  if (cl_int code = resolveTarget(target, queueHandle, imageHandle))
    return code;
  if (cl_int code = checkRegion(*target.image, origin, region))
    return code;
  if (!ptr)
    return CL_INVALID_VALUE;
  const ImageRect rect(*target.image, origin, region);
  if (!hostPitches(*target.image, rect, rowPitch, slicePitch, hostRow, hostSlice))
    return CL_INVALID_VALUE;
  const cl_mem_flags flags = target.image->flags();
  if (hostWrites ? !memflags::hostMayWrite(flags) : !memflags::hostMayRead(flags))
    return CL_INVALID_OPERATION;
  return bindImage(*target.image, *target.queue, target.binding);
}

/// The rectangle between the image and host memory: the image is the source
/// of a read (`imageIsSource`) and the destination of a write.
mux::RectRegion imageHostRect(const ImageRect &image, uint64_t offset, size_t hostRow, size_t hostSlice,
                              bool imageIsSource) {
  mux::RectRegion rect;
  const std::array<size_t, 3> origin = {image.origin[0] + offset, image.origin[1], image.origin[2]};
  rect.region = image.region;
  (imageIsSource ? rect.srcOrigin : rect.dstOrigin) = origin;
  (imageIsSource ? rect.srcRowPitch : rect.dstRowPitch) = image.rowPitch;
  (imageIsSource ? rect.srcSlicePitch : rect.dstSlicePitch) = image.slicePitch;
  (imageIsSource ? rect.dstRowPitch : rect.srcRowPitch) = hostRow;
  (imageIsSource ? rect.dstSlicePitch : rect.srcSlicePitch) = hostSlice;
  return rect;
}

cl_int enqueue(ImageTarget &target, cl_command_type type, Command command, const ImageRect &rect, ContentAccess access,
               cl_uint numEvents, const cl_event *events, cl_event *event, bool blocking = false) {
  command.type = type;
  command.keepAlive.emplace_back(target.image);
  target.image->addUse(command, rect.first(), rect.spanSize(), access);
  return target.queue->enqueue(std::move(command), numEvents, events, event, blocking);
}

/// Whether two rectangles of one image share a texel.
bool overlaps(const size_t *a, const size_t *b, const size_t *region) {
  for (int d = 0; d < 3; ++d)
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
      return false;
  return true;
}

} // namespace

/// clEnqueueCopyImageToBuffer (`toBuffer`) and clEnqueueCopyBufferToImage:
/// the buffer side holds the region tightly packed from `offset`.
cl_int buildCopyImageBuffer(cl_command_queue queueHandle, cl_mem imageHandle, cl_mem bufferHandle, const size_t *origin,
                            const size_t *region, size_t offset, bool toBuffer, CommandSink sink) {
  ImageTarget target;
  if (cl_int code = resolveTarget(target, queueHandle, imageHandle))
    return code;
  BufferObject *buffer = BufferObject::fromHandle(bufferHandle);
  if (!buffer)
    return CL_INVALID_MEM_OBJECT;
  if (&buffer->context() != &target.queue->context())
    return CL_INVALID_CONTEXT;
  if (target.image->type() == CL_MEM_OBJECT_IMAGE1D_BUFFER && &target.image->pixels() == buffer)
    return CL_INVALID_MEM_OBJECT; // a 1D buffer image and its own buffer
  if (cl_int code = checkRegion(*target.image, origin, region))
    return code;
  const ImageRect rect(*target.image, origin, region);
  const uint64_t bytes = uint64_t{rect.region[0]} * rect.region[1] * rect.region[2];
  if (offset > buffer->size() || bytes > buffer->size() - offset)
    return CL_INVALID_VALUE;
  const uint32_t alignment = std::max<uint32_t>(target.queue->device().info().memBaseAddrAlign, 1);
  if (buffer->parent() && buffer->origin() % alignment)
    return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  if (cl_int code = bindImage(*target.image, *target.queue, target.binding))
    return code;
  auto bufferBinding = buffer->binding(target.queue->device());
  if (!bufferBinding)
    return allocationError(bufferBinding.takeError());
  mux::RectRegion rect2;
  const std::array<size_t, 3> imageOrigin = {rect.origin[0] + target.binding.offset, rect.origin[1], rect.origin[2]};
  const std::array<size_t, 3> bufferOrigin = {offset + bufferBinding->offset, 0, 0};
  rect2.region = rect.region;
  rect2.srcOrigin = toBuffer ? imageOrigin : bufferOrigin;
  rect2.dstOrigin = toBuffer ? bufferOrigin : imageOrigin;
  rect2.srcRowPitch = toBuffer ? rect.rowPitch : rect.region[0];
  rect2.srcSlicePitch = toBuffer ? rect.slicePitch : rect.region[0] * rect.region[1];
  rect2.dstRowPitch = toBuffer ? rect.region[0] : rect.rowPitch;
  rect2.dstSlicePitch = toBuffer ? rect.region[0] * rect.region[1] : rect.slicePitch;
  mux::Buffer *imageBuffer = target.binding.buffer;
  mux::Buffer *plainBuffer = bufferBinding->buffer;
  Command command;
  command.record = [src = toBuffer ? imageBuffer : plainBuffer, dst = toBuffer ? plainBuffer : imageBuffer, rect2](
                       mux::CommandBuffer &commandBuffer) { return commandBuffer.copyBufferRect(*src, *dst, rect2); };
  command.type = toBuffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE;
  command.keepAlive.emplace_back(target.image);
  command.keepAlive.emplace_back(buffer);
  target.image->addUse(command, rect.first(), rect.spanSize(), toBuffer ? ContentAccess::Read : ContentAccess::Update);
  buffer->addUse(command, offset, bytes, toBuffer ? ContentAccess::Overwrite : ContentAccess::Read);
  return sink(*target.queue, std::move(command));
}

cl_int buildFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color, const size_t *origin,
                      const size_t *region, CommandSink sink) {
  ImageTarget target;
  if (cl_int code = resolveTarget(target, command_queue, image))
    return code;
  if (!fill_color)
    return CL_INVALID_VALUE;
  if (cl_int code = checkRegion(*target.image, origin, region))
    return code;
  if (cl_int code = bindImage(*target.image, *target.queue, target.binding))
    return code;
  const ImageRect rect(*target.image, origin, region);
  const size_t es = target.image->elementSize();
  std::array<std::byte, 16> pattern{};
  image_pixel::encode(target.image->format(), fill_color, pattern.data());
  Command command;
  command.record = [buffer = target.binding.buffer, base = target.binding.offset, rect, pattern,
                    es](mux::CommandBuffer &commandBuffer) -> llvm::Error {
    // One fill per row, or per slice or for everything where rows follow
    // each other without gaps.
    const bool wholeRows = rect.region[0] == rect.rowPitch;
    const bool wholeSlices = wholeRows && rect.region[1] * rect.rowPitch == rect.slicePitch;
    for (size_t z = 0; z < rect.region[2]; ++z) {
      for (size_t y = 0; y < rect.region[1]; ++y) {
        const uint64_t offset =
            base + (rect.origin[2] + z) * rect.slicePitch + (rect.origin[1] + y) * rect.rowPitch + rect.origin[0];
        uint64_t bytes = rect.region[0];
        if (wholeSlices)
          bytes = rect.region[0] * rect.region[1] * rect.region[2];
        else if (wholeRows)
          bytes = rect.region[0] * rect.region[1];
        if (auto error = commandBuffer.fillBuffer(*buffer, offset, bytes, pattern.data(), es))
          return error;
        if (wholeRows)
          break;
      }
      if (wholeSlices)
        break;
    }
    return llvm::Error::success();
  };
  command.type = CL_COMMAND_FILL_IMAGE;
  command.keepAlive.emplace_back(target.image);
  target.image->addUse(command, rect.first(), rect.spanSize(), ContentAccess::Update);
  return sink(*target.queue, std::move(command));
}

cl_int buildCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image, const size_t *src_origin,
                      const size_t *dst_origin, const size_t *region, CommandSink sink) {
  ImageTarget src;
  if (cl_int code = resolveTarget(src, command_queue, src_image))
    return code;
  ImageObject *dst;
  if (cl_int code = resolveImage(*src.queue, dst_image, dst))
    return code;
  const cl_image_format &a = src.image->format();
  const cl_image_format &b = dst->format();
  if (a.image_channel_order != b.image_channel_order || a.image_channel_data_type != b.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  if (cl_int code = checkRegion(*src.image, src_origin, region))
    return code;
  if (cl_int code = checkRegion(*dst, dst_origin, region))
    return code;
  if (src.image == dst && overlaps(src_origin, dst_origin, region))
    return CL_MEM_COPY_OVERLAP;
  BufferBinding dstBinding;
  if (cl_int code = bindImage(*src.image, *src.queue, src.binding))
    return code;
  if (cl_int code = bindImage(*dst, *src.queue, dstBinding))
    return code;
  const ImageRect from(*src.image, src_origin, region);
  const ImageRect to(*dst, dst_origin, region);
  mux::RectRegion rect;
  rect.srcOrigin = {from.origin[0] + src.binding.offset, from.origin[1], from.origin[2]};
  rect.dstOrigin = {to.origin[0] + dstBinding.offset, to.origin[1], to.origin[2]};
  // A 1D array and a 2D image may meet: the source's shape of the region
  // counts, with the destination's layers mapped like its own.
  rect.region = from.region;
  rect.srcRowPitch = from.rowPitch;
  rect.srcSlicePitch = from.slicePitch;
  rect.dstRowPitch = to.rowPitch;
  rect.dstSlicePitch = to.slicePitch;
  if (from.region != to.region) {
    // 1D array <-> 2D: rows of one are layers of the other; copy row by row.
    rect.region = {from.region[0], 1, 1};
  }
  Command command;
  command.record = [srcBuffer = src.binding.buffer, dstBuffer = dstBinding.buffer, rect, from,
                    to](mux::CommandBuffer &commandBuffer) -> llvm::Error {
    if (from.region == to.region)
      return commandBuffer.copyBufferRect(*srcBuffer, *dstBuffer, rect);
    const size_t rows = from.region[1] * from.region[2];
    for (size_t i = 0; i < rows; ++i) {
      mux::RectRegion row = rect;
      const size_t srcRow = from.region[1] == 1 ? 0 : i, srcSlice = from.region[1] == 1 ? i : 0;
      const size_t dstRow = to.region[1] == 1 ? 0 : i, dstSlice = to.region[1] == 1 ? i : 0;
      row.srcOrigin[1] += srcRow;
      row.srcOrigin[2] += srcSlice;
      row.dstOrigin[1] += dstRow;
      row.dstOrigin[2] += dstSlice;
      if (auto error = commandBuffer.copyBufferRect(*srcBuffer, *dstBuffer, row))
        return error;
    }
    return llvm::Error::success();
  };
  command.type = CL_COMMAND_COPY_IMAGE;
  command.keepAlive.emplace_back(src.image);
  command.keepAlive.emplace_back(dst);
  src.image->addUse(command, from.first(), from.spanSize(), ContentAccess::Read);
  dst->addUse(command, to.first(), to.spanSize(), ContentAccess::Update);
  return sink(*src.queue, std::move(command));
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                                   const size_t *origin, const size_t *region, size_t row_pitch,
                                                   size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event) {
  ImageTarget target;
  size_t hostRow, hostSlice;
  if (cl_int code = validateHostTransfer(target, command_queue, image, origin, region, ptr, row_pitch, slice_pitch,
                                         false, hostRow, hostSlice))
    return code;
  const ImageRect rect(*target.image, origin, region);
  Command command;
  if (cl_int code = setHostReadRect(command, target.queue->device().mux(), *target.binding.buffer, ptr,
                                    imageHostRect(rect, target.binding.offset, hostRow, hostSlice, true)))
    return code;
  return enqueue(target, CL_COMMAND_READ_IMAGE, std::move(command), rect, ContentAccess::Read, num_events_in_wait_list,
                 event_wait_list, event, blocking_read);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                                    cl_bool blocking_write, const size_t *origin, const size_t *region,
                                                    size_t input_row_pitch, size_t input_slice_pitch, const void *ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                    cl_event *event) {
  ImageTarget target;
  size_t hostRow, hostSlice;
  if (cl_int code = validateHostTransfer(target, command_queue, image, origin, region, ptr, input_row_pitch,
                                         input_slice_pitch, true, hostRow, hostSlice))
    return code;
  const ImageRect rect(*target.image, origin, region);
  Command command;
  if (cl_int code = setHostWriteRect(command, target.queue->device().mux(), *target.binding.buffer, ptr,
                                     imageHostRect(rect, target.binding.offset, hostRow, hostSlice, false)))
    return code;
  return enqueue(target, CL_COMMAND_WRITE_IMAGE, std::move(command), rect, ContentAccess::Update,
                 num_events_in_wait_list, event_wait_list, event, blocking_write);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                                                   const size_t *origin, const size_t *region,
                                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                   cl_event *event) {
  return buildFillImage(command_queue, image, fill_color, origin, region, [&](CommandQueue &queue, Command &&command) {
    return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                                   const size_t *src_origin, const size_t *dst_origin,
                                                   const size_t *region, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event) {
  return buildCopyImage(command_queue, src_image, dst_image, src_origin, dst_origin, region,
                        [&](CommandQueue &queue, Command &&command) {
                          return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
                        });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                                           cl_mem dst_buffer, const size_t *src_origin,
                                                           const size_t *region, size_t dst_offset,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  return buildCopyImageBuffer(command_queue, src_image, dst_buffer, src_origin, region, dst_offset, true,
                              [&](CommandQueue &queue, Command &&command) {
                                return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list,
                                                     event);
                              });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                                           cl_mem dst_image, size_t src_offset,
                                                           const size_t *dst_origin, const size_t *region,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  return buildCopyImageBuffer(command_queue, dst_image, src_buffer, dst_origin, region, src_offset, false,
                              [&](CommandQueue &queue, Command &&command) {
                                return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list,
                                                     event);
                              });
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                                 cl_map_flags map_flags, const size_t *origin, const size_t *region,
                                                 size_t *image_row_pitch, size_t *image_slice_pitch,
                                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                 cl_event *event, cl_int *errcode_ret) {
  auto fail = [&](cl_int code) -> void * {
    if (errcode_ret)
      *errcode_ret = code;
    return nullptr;
  };
  ImageTarget target;
  if (cl_int code = resolveTarget(target, command_queue, image))
    return fail(code);
  if (cl_int code = checkRegion(*target.image, origin, region))
    return fail(code);
  const cl_mem_object_type type = target.image->desc().image_type;
  const bool hasSlices =
      type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
  if (!image_row_pitch || (hasSlices && !image_slice_pitch))
    return fail(CL_INVALID_VALUE);
  // The texels from the origin to the region's last one, mapped as the
  // buffer they are; the pitches are the image's.
  const ImageRect rect(*target.image, origin, region);
  void *pointer =
      clEnqueueMapBuffer(command_queue, target.image->pixels().handle(), blocking_map, map_flags, rect.first(),
                         rect.spanSize(), num_events_in_wait_list, event_wait_list, event, errcode_ret);
  if (pointer) {
    *image_row_pitch = target.image->desc().image_row_pitch;
    if (image_slice_pitch)
      *image_slice_pitch = hasSlices ? target.image->desc().image_slice_pitch : 0;
  }
  return pointer;
}

} // extern "C"
