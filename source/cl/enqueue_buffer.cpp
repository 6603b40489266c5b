// The buffer commands: clEnqueue{Read,Write,Copy,Fill}Buffer, their Rect
// variants, map/unmap and migration. Each validates its arguments, resolves
// the buffer's storage on the queue's device and hands a Command to the queue.
#include "buffer.h"
#include "command.h"
#include "command_builders.h"
#include "context.h"
#include "device.h"
#include "host_staging.h"
#include "image.h"
#include "mem_flags.h"
#include "queue.h"

#include <algorithm>
#include <cstdlib>

namespace polymux::cl {
namespace {

cl_int resolveQueue(cl_command_queue handle, CommandQueue *&queue) {
  queue = CommandQueue::fromHandle(handle);
  return queue ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int resolveBuffer(CommandQueue &queue, cl_mem handle, BufferObject *&buffer) {
  buffer = BufferObject::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_MEM_OBJECT;
  if (&buffer->context() != &queue.context())
    return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

bool outOfRange(size_t offset, size_t size, size_t total) { return offset > total || size > total - offset; }

/// A sub-buffer whose origin the queue's device cannot address.
cl_int checkSubBufferAlignment(const BufferObject &buffer, const CommandQueue &queue) {
  uint32_t alignment = std::max<uint32_t>(queue.device().info().memBaseAddrAlign, 1);
  return buffer.parent() && buffer.origin() % alignment ? CL_MISALIGNED_SUB_BUFFER_OFFSET : CL_SUCCESS;
}

cl_int bind(BufferObject &buffer, CommandQueue &queue, BufferBinding &binding) {
  auto result = buffer.binding(queue.device());
  if (!result)
    return allocationError(result.takeError());
  binding = *result;
  return CL_SUCCESS;
}

/// The rectangle rules: 0 pitches mean tightly packed; a row pitch below
/// region[0], or a slice pitch below region[1] rows or not a whole number of
/// rows, is invalid.
bool resolvePitches(const size_t *region, size_t &rowPitch, size_t &slicePitch) {
  if (rowPitch == 0)
    rowPitch = region[0];
  else if (rowPitch < region[0])
    return false;
  unsigned __int128 minimumSlice = static_cast<unsigned __int128>(region[1]) * rowPitch;
  if (minimumSlice > SIZE_MAX)
    return false;
  if (slicePitch == 0)
    slicePitch = static_cast<size_t>(minimumSlice);
  else if (slicePitch < minimumSlice || slicePitch % rowPitch != 0)
    return false;
  return true;
}

/// Bytes from the start of the buffer to the end of the rectangle.
unsigned __int128 rectEnd(const size_t *origin, const size_t *region, size_t rowPitch, size_t slicePitch) {
  using U = unsigned __int128;
  return (U(origin[2]) + region[2] - 1) * slicePitch + (U(origin[1]) + region[1] - 1) * rowPitch + U(origin[0]) +
         region[0];
}

bool validRegion(const size_t *region) { return region[0] && region[1] && region[2]; }

/// The specification's reference overlap test for two rectangles with the
/// same pitches within one buffer (appendix "check_copy_overlap").
bool rectsOverlap(const size_t srcOrigin[3], const size_t dstOrigin[3], const size_t region[3], size_t rowPitch,
                  size_t slicePitch) {
  const size_t sliceSize = (region[1] - 1) * rowPitch + region[0];
  const size_t blockSize = (region[2] - 1) * slicePitch + sliceSize;
  const size_t srcStart = srcOrigin[2] * slicePitch + srcOrigin[1] * rowPitch + srcOrigin[0];
  const size_t srcEnd = srcStart + blockSize;
  const size_t dstStart = dstOrigin[2] * slicePitch + dstOrigin[1] * rowPitch + dstOrigin[0];
  const size_t dstEnd = dstStart + blockSize;
  if (dstEnd <= srcStart || srcEnd <= dstStart)
    return false;
  {
    const size_t srcDx = srcOrigin[0] % rowPitch;
    const size_t dstDx = dstOrigin[0] % rowPitch;
    if ((dstDx >= srcDx + region[0] && dstDx + region[0] <= srcDx + rowPitch) ||
        (srcDx >= dstDx + region[0] && srcDx + region[0] <= dstDx + rowPitch))
      return false;
  }
  {
    const size_t srcDy = (srcOrigin[1] * rowPitch + srcOrigin[0]) % slicePitch;
    const size_t dstDy = (dstOrigin[1] * rowPitch + dstOrigin[0]) % slicePitch;
    if ((dstDy >= srcDy + sliceSize && dstDy + sliceSize <= srcDy + slicePitch) ||
        (srcDy >= dstDy + sliceSize && srcDy + sliceSize <= dstDy + slicePitch))
      return false;
  }
  return true;
}

/// Which way the host touches a buffer in a read/write/map command.
enum class HostAccess { Read, Write };

bool hostMayAccess(const BufferObject &buffer, HostAccess access) {
  const cl_mem_flags flags = buffer.flags();
  return access == HostAccess::Read ? memflags::hostMayRead(flags) : memflags::hostMayWrite(flags);
}

/// The checks every command makes before using a buffer on the queue's
/// device: the sub-buffer origin is aligned for it, then the storage exists.
cl_int bindForQueue(BufferObject &buffer, CommandQueue &queue, BufferBinding &binding) {
  if (cl_int code = checkSubBufferAlignment(buffer, queue))
    return code;
  return bind(buffer, queue, binding);
}

/// Bytes of a buffer that a command touches (migration.h).
struct ByteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// A command on one buffer, once its queue and buffer are resolved.
struct SingleBufferCommand {
  CommandQueue *queue = nullptr;
  BufferObject *buffer = nullptr;
  BufferBinding binding;

  cl_int resolve(cl_command_queue queueHandle, cl_mem bufferHandle) {
    if (cl_int code = resolveQueue(queueHandle, queue))
      return code;
    return resolveBuffer(*queue, bufferHandle, buffer);
  }

  /// The last checks of a host transfer, after its range checks.
  cl_int checkAccessAndBind(HostAccess access) {
    if (!hostMayAccess(*buffer, access))
      return CL_INVALID_OPERATION;
    return bindForQueue(*buffer, *queue, binding);
  }

  /// Hands a device-only command (no host memory) to `sink`.
  cl_int submit(cl_command_type type, std::function<llvm::Error(mux::CommandBuffer &)> record, ByteRange range,
                ContentAccess access, CommandSink sink) {
    Command command;
    command.type = type;
    command.record = std::move(record);
    command.keepAlive.emplace_back(buffer);
    buffer->addUse(command, range.offset, range.size, access);
    return sink(*queue, std::move(command));
  }

  /// `command` already knows how to record itself (host transfers, which
  /// may stage).
  cl_int enqueue(cl_command_type type, Command command, ByteRange range, ContentAccess access,
                 cl_uint numEventsInWaitList, const cl_event *eventWaitList, cl_event *event, bool blocking = false) {
    command.type = type;
    command.keepAlive.emplace_back(buffer);
    buffer->addUse(command, range.offset, range.size, access);
    return queue->enqueue(std::move(command), numEventsInWaitList, eventWaitList, event, blocking);
  }
};

/// A copy from one buffer to another (or to itself), once both are resolved.
struct BufferCopyCommand {
  CommandQueue *queue = nullptr;
  BufferObject *src = nullptr;
  BufferObject *dst = nullptr;
  BufferBinding srcBinding;
  BufferBinding dstBinding;

  cl_int resolve(cl_command_queue queueHandle, cl_mem srcHandle, cl_mem dstHandle) {
    if (cl_int code = resolveQueue(queueHandle, queue))
      return code;
    if (cl_int code = resolveBuffer(*queue, srcHandle, src))
      return code;
    return resolveBuffer(*queue, dstHandle, dst);
  }

  /// Both alignments are checked before either buffer is bound.
  cl_int bindBoth() {
    if (cl_int code = checkSubBufferAlignment(*src, *queue))
      return code;
    if (cl_int code = checkSubBufferAlignment(*dst, *queue))
      return code;
    if (cl_int code = bind(*src, *queue, srcBinding))
      return code;
    return bind(*dst, *queue, dstBinding);
  }

  /// `dstAccess`: Overwrite when every byte of `dstRange` is written.
  cl_int submit(cl_command_type type, std::function<llvm::Error(mux::CommandBuffer &)> record, ByteRange srcRange,
                ByteRange dstRange, ContentAccess dstAccess, CommandSink sink) {
    Command command;
    command.type = type;
    command.record = std::move(record);
    command.keepAlive.emplace_back(src);
    command.keepAlive.emplace_back(dst);
    src->addUse(command, srcRange.offset, srcRange.size, ContentAccess::Read);
    dst->addUse(command, dstRange.offset, dstRange.size, dstAccess);
    return sink(*queue, std::move(command));
  }
};

/// One side of a rectangular transfer: where the rectangle starts and the
/// pitches of the memory it lies in.
struct RectSide {
  const size_t *origin;
  size_t rowPitch;
  size_t slicePitch;

  unsigned __int128 end(const size_t *region) const { return rectEnd(origin, region, rowPitch, slicePitch); }
  /// From the rectangle's first byte to its last (validated to fit already).
  ByteRange span(const size_t *region) const {
    const uint64_t first = origin[2] * slicePitch + origin[1] * rowPitch + origin[0];
    return ByteRange{first, static_cast<uint64_t>(end(region)) - first};
  }
  /// How a rectangle written on this side uses its span: every byte of it
  /// when the rows and slices follow each other without gaps, otherwise
  /// some bytes in between keep their contents.
  ContentAccess writeAccess(const size_t *region) const {
    const unsigned __int128 bytes = static_cast<unsigned __int128>(region[0]) * region[1] * region[2];
    return bytes == span(region).size ? ContentAccess::Overwrite : ContentAccess::Update;
  }
};

/// The argument checks every rect command shares: both origins and a
/// non-empty region are given, and both sides' pitches are valid (0 pitches
/// are resolved in place).
cl_int validateRect(const size_t *region, RectSide &first, RectSide &second) {
  if (!first.origin || !second.origin || !region || !validRegion(region))
    return CL_INVALID_VALUE;
  if (!resolvePitches(region, first.rowPitch, first.slicePitch) ||
      !resolvePitches(region, second.rowPitch, second.slicePitch))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/// The mux rectangle; each offset is the bound buffer's start within its
/// mux::Buffer (0 for host memory), which only shifts x.
mux::RectRegion makeRect(const RectSide &src, uint64_t srcOffset, const RectSide &dst, uint64_t dstOffset,
                         const size_t *region) {
  mux::RectRegion rect;
  rect.srcOrigin = {src.origin[0] + srcOffset, src.origin[1], src.origin[2]};
  rect.dstOrigin = {dst.origin[0] + dstOffset, dst.origin[1], dst.origin[2]};
  rect.region = {region[0], region[1], region[2]};
  rect.srcRowPitch = src.rowPitch;
  rect.srcSlicePitch = src.slicePitch;
  rect.dstRowPitch = dst.rowPitch;
  rect.dstSlicePitch = dst.slicePitch;
  return rect;
}

/// Validates clEnqueue{Read,Write}BufferRect up to and including the bind.
cl_int validateHostRect(SingleBufferCommand &target, cl_command_queue queueHandle, cl_mem bufferHandle, const void *ptr,
                        RectSide &bufferSide, RectSide &hostSide, const size_t *region, HostAccess access) {
  if (cl_int code = target.resolve(queueHandle, bufferHandle))
    return code;
  if (!ptr)
    return CL_INVALID_VALUE;
  if (cl_int code = validateRect(region, bufferSide, hostSide))
    return code;
  if (bufferSide.end(region) > target.buffer->size())
    return CL_INVALID_VALUE;
  return target.checkAccessAndBind(access);
}

/// Validates clEnqueue{Read,Write}Buffer up to and including the bind.
cl_int validateHostTransfer(SingleBufferCommand &target, cl_command_queue queueHandle, cl_mem bufferHandle,
                            const void *ptr, size_t offset, size_t size, HostAccess access) {
  if (cl_int code = target.resolve(queueHandle, bufferHandle))
    return code;
  if (!ptr || size == 0 || outOfRange(offset, size, target.buffer->size()))
    return CL_INVALID_VALUE;
  return target.checkAccessAndBind(access);
}

/// Whether a rect copy within one storage reads bytes it also writes.
bool rectCopyOverlaps(const BufferObject &src, const BufferObject &dst, const RectSide &srcSide,
                      const RectSide &dstSide, const size_t *region) {
  if (srcSide.rowPitch == dstSide.rowPitch && srcSide.slicePitch == dstSide.slicePitch) {
    // Express both rectangles in the root buffer (sub-buffer origins shift x).
    const size_t srcRoot[3] = {srcSide.origin[0] + src.origin(), srcSide.origin[1], srcSide.origin[2]};
    const size_t dstRoot[3] = {dstSide.origin[0] + dst.origin(), dstSide.origin[1], dstSide.origin[2]};
    return rectsOverlap(srcRoot, dstRoot, region, srcSide.rowPitch, srcSide.slicePitch);
  }
  // Different pitches: compare the byte ranges the rectangles span.
  const size_t zero[3] = {0, 0, 0};
  auto begin = [](const RectSide &side, const BufferObject &b) {
    return static_cast<unsigned __int128>(side.origin[2]) * side.slicePitch +
           static_cast<unsigned __int128>(side.origin[1]) * side.rowPitch + side.origin[0] + b.origin();
  };
  auto srcBegin = begin(srcSide, src);
  auto dstBegin = begin(dstSide, dst);
  auto srcEnd = srcBegin + rectEnd(zero, region, srcSide.rowPitch, srcSide.slicePitch);
  auto dstEnd = dstBegin + rectEnd(zero, region, dstSide.rowPitch, dstSide.slicePitch);
  return srcBegin < dstEnd && dstBegin < srcEnd;
}
} // namespace

cl_int buildCopyBuffer(cl_command_queue command_queue, cl_mem src_handle, cl_mem dst_handle, size_t src_offset,
                       size_t dst_offset, size_t size, CommandSink sink) {
  BufferCopyCommand copy;
  if (cl_int code = copy.resolve(command_queue, src_handle, dst_handle))
    return code;
  if (size == 0 || outOfRange(src_offset, size, copy.src->size()) || outOfRange(dst_offset, size, copy.dst->size()))
    return CL_INVALID_VALUE;
  if (&copy.src->root() == &copy.dst->root()) {
    // Same storage (the same buffer, or sub-buffers of one buffer).
    size_t srcStart = copy.src->origin() + src_offset;
    size_t dstStart = copy.dst->origin() + dst_offset;
    if (srcStart < dstStart + size && dstStart < srcStart + size)
      return CL_MEM_COPY_OVERLAP;
  }
  if (cl_int code = copy.bindBoth())
    return code;
  // Captured by value: a command buffer records again when it is updated.
  return copy.submit(
      CL_COMMAND_COPY_BUFFER,
      [src = copy.srcBinding, dst = copy.dstBinding, src_offset, dst_offset, size](mux::CommandBuffer &commandBuffer) {
        return commandBuffer.copyBuffer(*src.buffer, src.offset + src_offset, *dst.buffer, dst.offset + dst_offset,
                                        size);
      },
      ByteRange{src_offset, size}, ByteRange{dst_offset, size}, ContentAccess::Overwrite, sink);
}

cl_int buildFillBuffer(cl_command_queue command_queue, cl_mem buffer_handle, const void *pattern, size_t pattern_size,
                       size_t offset, size_t size, CommandSink sink) {
  SingleBufferCommand target;
  if (cl_int code = target.resolve(command_queue, buffer_handle))
    return code;
  const bool powerOfTwo = pattern_size && (pattern_size & (pattern_size - 1)) == 0;
  if (!pattern || !powerOfTwo || pattern_size > 128)
    return CL_INVALID_VALUE;
  if (size == 0 || offset % pattern_size || size % pattern_size || outOfRange(offset, size, target.buffer->size()))
    return CL_INVALID_VALUE;
  if (cl_int code = bindForQueue(*target.buffer, *target.queue, target.binding))
    return code;
  // The pattern is copied now: the application may reuse its memory at once.
  const auto *bytes = static_cast<const std::byte *>(pattern);
  return target.submit(
      CL_COMMAND_FILL_BUFFER,
      [binding = target.binding, offset, size,
       copy = std::vector<std::byte>(bytes, bytes + pattern_size)](mux::CommandBuffer &commandBuffer) {
        return commandBuffer.fillBuffer(*binding.buffer, binding.offset + offset, size, copy.data(), copy.size());
      },
      ByteRange{offset, size}, ContentAccess::Overwrite, sink);
}

cl_int buildCopyBufferRect(cl_command_queue command_queue, cl_mem src_handle, cl_mem dst_handle,
                           const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                           size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                           CommandSink sink) {
  BufferCopyCommand copy;
  RectSide srcSide{src_origin, src_row_pitch, src_slice_pitch};
  RectSide dstSide{dst_origin, dst_row_pitch, dst_slice_pitch};
  if (cl_int code = copy.resolve(command_queue, src_handle, dst_handle))
    return code;
  if (cl_int code = validateRect(region, srcSide, dstSide))
    return code;
  if (srcSide.end(region) > copy.src->size() || dstSide.end(region) > copy.dst->size())
    return CL_INVALID_VALUE;
  if (copy.src == copy.dst && srcSide.rowPitch != dstSide.rowPitch && srcSide.slicePitch != dstSide.slicePitch)
    return CL_INVALID_VALUE;
  if (&copy.src->root() == &copy.dst->root() && rectCopyOverlaps(*copy.src, *copy.dst, srcSide, dstSide, region))
    return CL_MEM_COPY_OVERLAP;
  if (cl_int code = copy.bindBoth())
    return code;
  const mux::RectRegion rect = makeRect(srcSide, copy.srcBinding.offset, dstSide, copy.dstBinding.offset, region);
  return copy.submit(
      CL_COMMAND_COPY_BUFFER_RECT,
      [src = copy.srcBinding.buffer, dst = copy.dstBinding.buffer, rect](mux::CommandBuffer &commandBuffer) {
        return commandBuffer.copyBufferRect(*src, *dst, rect);
      },
      srcSide.span(region), dstSide.span(region), dstSide.writeAccess(region), sink);
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer_handle,
                                                    cl_bool blocking_read, size_t offset, size_t size, void *ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                    cl_event *event) {
  SingleBufferCommand target;
  if (cl_int code = validateHostTransfer(target, command_queue, buffer_handle, ptr, offset, size, HostAccess::Read))
    return code;
  Command command;
  if (cl_int code = setHostRead(command, target.queue->device().mux(), *target.binding.buffer,
                                target.binding.offset + offset, ptr, size))
    return code;
  return target.enqueue(CL_COMMAND_READ_BUFFER, std::move(command), ByteRange{offset, size}, ContentAccess::Read,
                        num_events_in_wait_list, event_wait_list, event, blocking_read);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer_handle,
                                                     cl_bool blocking_write, size_t offset, size_t size,
                                                     const void *ptr, cl_uint num_events_in_wait_list,
                                                     const cl_event *event_wait_list, cl_event *event) {
  SingleBufferCommand target;
  if (cl_int code = validateHostTransfer(target, command_queue, buffer_handle, ptr, offset, size, HostAccess::Write))
    return code;
  Command command;
  if (cl_int code = setHostWrite(command, target.queue->device().mux(), *target.binding.buffer,
                                 target.binding.offset + offset, ptr, size))
    return code;
  return target.enqueue(CL_COMMAND_WRITE_BUFFER, std::move(command), ByteRange{offset, size},
                        ContentAccess::Overwrite, num_events_in_wait_list, event_wait_list, event, blocking_write);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_handle,
                                                    cl_mem dst_handle, size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list, cl_event *event) {
  return buildCopyBuffer(command_queue, src_handle, dst_handle, src_offset, dst_offset, size,
                         [&](CommandQueue &queue, Command &&command) {
                           return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
                         });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer_handle,
                                                    const void *pattern, size_t pattern_size, size_t offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list, cl_event *event) {
  return buildFillBuffer(command_queue, buffer_handle, pattern, pattern_size, offset, size,
                         [&](CommandQueue &queue, Command &&command) {
                           return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
                         });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer_handle,
                                                        cl_bool blocking_read, const size_t *buffer_origin,
                                                        const size_t *host_origin, const size_t *region,
                                                        size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                        size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list, cl_event *event) {
  SingleBufferCommand target;
  RectSide bufferSide{buffer_origin, buffer_row_pitch, buffer_slice_pitch};
  RectSide hostSide{host_origin, host_row_pitch, host_slice_pitch};
  if (cl_int code =
          validateHostRect(target, command_queue, buffer_handle, ptr, bufferSide, hostSide, region, HostAccess::Read))
    return code;
  const mux::RectRegion rect = makeRect(bufferSide, target.binding.offset, hostSide, 0, region);
  Command command;
  if (cl_int code = setHostReadRect(command, target.queue->device().mux(), *target.binding.buffer, ptr, rect))
    return code;
  return target.enqueue(CL_COMMAND_READ_BUFFER_RECT, std::move(command), bufferSide.span(region),
                        ContentAccess::Read, num_events_in_wait_list, event_wait_list, event, blocking_read);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer_handle,
                                                         cl_bool blocking_write, const size_t *buffer_origin,
                                                         const size_t *host_origin, const size_t *region,
                                                         size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                         size_t host_row_pitch, size_t host_slice_pitch,
                                                         const void *ptr, cl_uint num_events_in_wait_list,
                                                         const cl_event *event_wait_list, cl_event *event) {
  SingleBufferCommand target;
  RectSide bufferSide{buffer_origin, buffer_row_pitch, buffer_slice_pitch};
  RectSide hostSide{host_origin, host_row_pitch, host_slice_pitch};
  if (cl_int code =
          validateHostRect(target, command_queue, buffer_handle, ptr, bufferSide, hostSide, region, HostAccess::Write))
    return code;
  const mux::RectRegion rect = makeRect(hostSide, 0, bufferSide, target.binding.offset, region);
  Command command;
  if (cl_int code = setHostWriteRect(command, target.queue->device().mux(), *target.binding.buffer, ptr, rect))
    return code;
  return target.enqueue(CL_COMMAND_WRITE_BUFFER_RECT, std::move(command), bufferSide.span(region),
                        bufferSide.writeAccess(region), num_events_in_wait_list, event_wait_list, event,
                        blocking_write);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_handle, cl_mem dst_handle, const size_t *src_origin,
    const size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return buildCopyBufferRect(
      command_queue, src_handle, dst_handle, src_origin, dst_origin, region, src_row_pitch, src_slice_pitch,
      dst_row_pitch, dst_slice_pitch, [&](CommandQueue &queue, Command &&command) {
        return queue.enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
      });
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer_handle,
                                                  cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                                  size_t size, cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list, cl_event *event,
                                                  cl_int *errcode_ret) {
  auto fail = [&](cl_int code) -> void * {
    if (errcode_ret)
      *errcode_ret = code;
    return nullptr;
  };
  CommandQueue *queue;
  BufferObject *buffer;
  if (cl_int code = resolveQueue(command_queue, queue))
    return fail(code);
  if (cl_int code = resolveBuffer(*queue, buffer_handle, buffer))
    return fail(code);
  constexpr cl_map_flags kWriteFlags = CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (map_flags & ~(CL_MAP_READ | kWriteFlags))
    return fail(CL_INVALID_VALUE);
  if ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))
    return fail(CL_INVALID_VALUE);
  if (size == 0 || outOfRange(offset, size, buffer->size()))
    return fail(CL_INVALID_VALUE);
  // Read once: the flags may change concurrently (clModifyMemoryFlagsPOLYMUX).
  const cl_mem_flags bufferFlags = buffer->flags();
  if (((map_flags & CL_MAP_READ) && !memflags::hostMayRead(bufferFlags)) ||
      ((map_flags & kWriteFlags) && !memflags::hostMayWrite(bufferFlags)))
    return fail(CL_INVALID_OPERATION);
  if (cl_int code = checkSubBufferAlignment(*buffer, *queue))
    return fail(code);
  auto storageOr = buffer->root().storage(queue->device());
  if (!storageOr)
    return fail(allocationError(storageOr.takeError()));
  BufferObject::Storage *storage = *storageOr;
  const size_t rootOffset = buffer->origin() + offset;

  // Where the application sees the data: inside its own memory for
  // USE_HOST_PTR (the specification requires it), directly in host-visible
  // device memory, or else in a staging copy.
  BufferObject::Mapping mapping;
  mapping.offset = offset;
  mapping.size = size;
  mapping.flags = map_flags;
  mapping.device = &queue->device();
  if (buffer->hostPtr()) {
    mapping.pointer = static_cast<std::byte *>(buffer->hostPtr()) + offset;
    mapping.staged = !storage->wrapsHostPtr;
  } else if (storage->hostView) {
    mapping.pointer = storage->hostView + rootOffset;
  } else if (!commandsAccessHostMemory(queue->device().mux())) {
    // The device copies into a staging buffer the application sees mapped.
    auto staging = StagingBuffer::create(queue->device().mux(), size);
    if (!staging)
      return fail(allocationError(staging.takeError()));
    mapping.deviceStaging = staging->get();
    mapping.pointer = (*staging)->view();
    mapping.staging = std::move(*staging);
    mapping.staged = true;
  } else {
    mapping.staging = allocateHostStaging(size);
    if (!mapping.staging)
      return fail(CL_OUT_OF_HOST_MEMORY);
    mapping.pointer = mapping.staging.get();
    mapping.staged = true;
  }
  void *pointer = mapping.pointer;

  Command command;
  command.type = CL_COMMAND_MAP_BUFFER;
  if (mapping.deviceStaging && !(map_flags & CL_MAP_WRITE_INVALIDATE_REGION)) {
    command.record = [staging = mapping.deviceStaging, storage, rootOffset, size](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.copyBuffer(*storage->buffer, rootOffset, staging->buffer(), 0, size);
    };
    command.onComplete = [staging = mapping.deviceStaging, size] { staging->beforeHostRead(size); };
  } else if (mapping.staged && !(map_flags & CL_MAP_WRITE_INVALIDATE_REGION)) {
    if (cl_int code = setHostRead(command, queue->device().mux(), *storage->buffer, rootOffset, pointer, size))
      return fail(code);
  } else if (!mapping.staged && !storage->coherent && !storage->wrapsHostPtr) {
    command.onComplete = [memory = storage->memory.get(), rootOffset, size] {
      memory->flushFromDevice(rootOffset, size);
    };
  }
  command.keepAlive.emplace_back(buffer);
  // The mapped bytes must be the latest contents unless they are discarded.
  if (!(map_flags & CL_MAP_WRITE_INVALIDATE_REGION))
    buffer->addUse(command, offset, size, ContentAccess::Read);
  // Registered first so an unmap racing with a blocking map finds it; the
  // mapping owns the staging memory the map command writes.
  buffer->addMapping(mapping);
  cl_int code = queue->enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event, blocking_map);
  if (code != CL_SUCCESS) {
    buffer->takeMapping(pointer, queue->device());
    return fail(code);
  }
  if (errcode_ret)
    *errcode_ret = CL_SUCCESS;
  return pointer;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list, cl_event *event) {
  CommandQueue *queue;
  if (cl_int code = resolveQueue(command_queue, queue))
    return code;
  MemObject *memory = MemObject::fromHandle(memobj);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  if (&memory->context() != &queue->context())
    return CL_INVALID_CONTEXT;
  auto *buffer = dynamic_cast<BufferObject *>(memory);
  if (auto *image = dynamic_cast<ImageObject *>(memory))
    buffer = &image->pixels(); // clEnqueueMapImage maps the image's texels
  if (!buffer)
    return CL_INVALID_MEM_OBJECT;
  if (!mapped_ptr)
    return CL_INVALID_VALUE;
  std::optional<BufferObject::Mapping> mapping = buffer->takeMapping(mapped_ptr, queue->device());
  if (!mapping)
    return CL_INVALID_VALUE;
  auto storageOr = buffer->root().storage(queue->device());
  if (!storageOr) {
    buffer->addMapping(std::move(*mapping));
    return allocationError(storageOr.takeError());
  }
  BufferObject::Storage *storage = *storageOr;
  const size_t rootOffset = buffer->origin() + mapping->offset;
  const bool written = mapping->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);

  Command command;
  command.type = CL_COMMAND_UNMAP_MEM_OBJECT;
  if (mapping->deviceStaging && written) {
    mapping->deviceStaging->hostWrote(mapping->size);
    command.record = [staging = mapping->deviceStaging, storage, rootOffset,
                      size = mapping->size](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.copyBuffer(staging->buffer(), 0, *storage->buffer, rootOffset, size);
    };
    command.resources.push_back(mapping->staging);
  } else if (mapping->staged && written) {
    if (cl_int code =
            setHostWrite(command, queue->device().mux(), *storage->buffer, rootOffset, mapping->pointer, mapping->size)) {
      buffer->addMapping(std::move(*mapping));
      return code;
    }
    // The write may read the staging memory when it runs: keep it until then.
    if (mapping->staging)
      command.resources.push_back(mapping->staging);
  } else if (!mapping->staged && written && !storage->coherent && !storage->wrapsHostPtr) {
    command.onComplete = [memory = storage->memory.get(), rootOffset, size = mapping->size] {
      memory->flushToDevice(rootOffset, size);
    };
  }
  command.keepAlive.emplace_back(buffer);
  command.unmapsInvalidatedRegion = mapping->flags & CL_MAP_WRITE_INVALIDATE_REGION;
  // What the host wrote through the map is now the latest contents.
  if (written)
    buffer->addUse(command, mapping->offset, mapping->size, ContentAccess::Overwrite);
  cl_int code = queue->enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
  if (code != CL_SUCCESS)
    buffer->addMapping(std::move(*mapping));
  return code;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                                           const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  CommandQueue *queue;
  if (cl_int code = resolveQueue(command_queue, queue))
    return code;
  if (num_mem_objects == 0 || !mem_objects)
    return CL_INVALID_VALUE;
  llvm::SmallVector<BufferObject *, 4> buffers;
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    BufferObject *buffer;
    if (cl_int code = resolveBuffer(*queue, mem_objects[i], buffer))
      return code;
    buffers.push_back(buffer);
  }
  if (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  // To the queue's device: its copy becomes the latest (multi-device
  // contexts; migration.h), or with CONTENT_UNDEFINED is declared to be.
  // To the host: only a hint, as the host reads and writes every device's
  // copy through maps enqueued on that device's queues.
  const bool toDevice = !(flags & CL_MIGRATE_MEM_OBJECT_HOST);
  const ContentAccess access =
      (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) ? ContentAccess::Overwrite : ContentAccess::Read;
  Command command;
  command.type = CL_COMMAND_MIGRATE_MEM_OBJECTS;
  for (BufferObject *buffer : buffers) {
    command.keepAlive.emplace_back(buffer);
    if (!toDevice)
      continue;
    BufferBinding binding;
    if (cl_int code = bind(*buffer, *queue, binding))
      return code;
    buffer->addUse(command, 0, buffer->size(), access);
  }
  return queue->enqueue(std::move(command), num_events_in_wait_list, event_wait_list, event);
}

} // extern "C"
