#include "host_staging.h"

#include "buffer.h"

#include "mux/support/rect_copy.h"

#include <cstring>

namespace polymux::cl {

void appendOnComplete(Command &command, std::function<void()> then) {
  if (command.onComplete)
    command.onComplete = [first = std::move(command.onComplete), then = std::move(then)] {
      first();
      then();
    };
  else
    command.onComplete = std::move(then);
}

namespace {

llvm::Expected<std::shared_ptr<StagingBuffer>> stagingFor(Command &command, mux::Device &device, uint64_t size,
                                                          StagingBuffer::HostAccess access) {
  auto staging = StagingBuffer::create(device, size, access);
  if (staging)
    command.resources.push_back(*staging);
  return staging;
}

/// `rect` with its destination (or source) side packed tightly at the start
/// of a staging buffer.
mux::RectRegion withPackedDestination(mux::RectRegion rect) {
  rect.dstOrigin = {0, 0, 0};
  rect.dstRowPitch = rect.region[0];
  rect.dstSlicePitch = rect.region[0] * rect.region[1];
  return rect;
}
mux::RectRegion withPackedSource(mux::RectRegion rect) {
  rect.srcOrigin = {0, 0, 0};
  rect.srcRowPitch = rect.region[0];
  rect.srcSlicePitch = rect.region[0] * rect.region[1];
  return rect;
}

uint64_t packedSize(const mux::RectRegion &rect) { return uint64_t(rect.region[0]) * rect.region[1] * rect.region[2]; }

} // namespace

cl_int setHostRead(Command &command, mux::Device &device, mux::Buffer &src, uint64_t srcOffset, void *dst,
                   uint64_t size) {
  if (commandsAccessHostMemory(device)) {
    command.record = [&src, srcOffset, dst, size](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.readBuffer(src, srcOffset, dst, size);
    };
    return CL_SUCCESS;
  }
  auto staging = stagingFor(command, device, size, StagingBuffer::HostAccess::ReadWrite);
  if (!staging)
    return allocationError(staging.takeError());
  command.record = [&src, srcOffset, size, staging = staging->get()](mux::CommandBuffer &commandBuffer) {
    return commandBuffer.copyBuffer(src, srcOffset, staging->buffer(), 0, size);
  };
  appendOnComplete(command, [staging = staging->get(), dst, size] {
    staging->beforeHostRead(size);
    std::memcpy(dst, staging->view(), size);
  });
  return CL_SUCCESS;
}

cl_int setHostWrite(Command &command, mux::Device &device, mux::Buffer &dst, uint64_t dstOffset, const void *src,
                    uint64_t size) {
  if (commandsAccessHostMemory(device)) {
    command.record = [&dst, dstOffset, src, size](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.writeBuffer(dst, dstOffset, src, size);
    };
    return CL_SUCCESS;
  }
  auto staging = stagingFor(command, device, size, StagingBuffer::HostAccess::Write);
  if (!staging)
    return allocationError(staging.takeError());
  std::memcpy((*staging)->view(), src, size);
  (*staging)->hostWrote(size);
  command.record = [&dst, dstOffset, size, staging = staging->get()](mux::CommandBuffer &commandBuffer) {
    return commandBuffer.copyBuffer(staging->buffer(), 0, dst, dstOffset, size);
  };
  return CL_SUCCESS;
}

cl_int setHostReadRect(Command &command, mux::Device &device, mux::Buffer &src, void *dst,
                       const mux::RectRegion &rect) {
  if (commandsAccessHostMemory(device)) {
    command.record = [&src, dst, rect](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.readBufferRect(src, dst, rect);
    };
    return CL_SUCCESS;
  }
  const uint64_t size = packedSize(rect);
  auto staging = stagingFor(command, device, size, StagingBuffer::HostAccess::ReadWrite);
  if (!staging)
    return allocationError(staging.takeError());
  const mux::RectRegion toStaging = withPackedDestination(rect);
  const mux::RectRegion toHost = withPackedSource(rect);
  command.record = [&src, toStaging, staging = staging->get()](mux::CommandBuffer &commandBuffer) {
    return commandBuffer.copyBufferRect(src, staging->buffer(), toStaging);
  };
  appendOnComplete(command, [staging = staging->get(), dst, toHost, size] {
    staging->beforeHostRead(size);
    mux::support::copyRect(static_cast<std::byte *>(dst), staging->view(), toHost);
  });
  return CL_SUCCESS;
}

cl_int setHostWriteRect(Command &command, mux::Device &device, mux::Buffer &dst, const void *src,
                        const mux::RectRegion &rect) {
  if (commandsAccessHostMemory(device)) {
    command.record = [&dst, src, rect](mux::CommandBuffer &commandBuffer) {
      return commandBuffer.writeBufferRect(dst, src, rect);
    };
    return CL_SUCCESS;
  }
  const uint64_t size = packedSize(rect);
  auto staging = stagingFor(command, device, size, StagingBuffer::HostAccess::Write);
  if (!staging)
    return allocationError(staging.takeError());
  mux::support::copyRect((*staging)->view(), static_cast<const std::byte *>(src), withPackedDestination(rect));
  (*staging)->hostWrote(size);
  const mux::RectRegion toBuffer = withPackedSource(rect);
  command.record = [&dst, toBuffer, staging = staging->get()](mux::CommandBuffer &commandBuffer) {
    return commandBuffer.copyBufferRect(staging->buffer(), dst, toBuffer);
  };
  return CL_SUCCESS;
}

} // namespace polymux::cl
