#include "mux/support/host_command_buffer.h"

#include "mux/support/discrete_memory.h"
#include "mux/support/rect_copy.h"

#include <bit>
#include <cstring>
#include <string>

namespace mux::support {

namespace {

/// InvalidArgument unless [offset, offset + size) lies within `buffer`.
llvm::Error checkRange(const HostBuffer &buffer, uint64_t offset, uint64_t size, const char *what) {
  if (offset > buffer.size() || size > buffer.size() - offset)
    return makeError(Status::InvalidArgument, std::string(what) + " range [" + std::to_string(offset) + ", +" +
                                                  std::to_string(size) + ") exceeds buffer of " +
                                                  std::to_string(buffer.size()) + " bytes");
  return llvm::Error::success();
}

llvm::Error checkHostPointer(const void *pointer, uint64_t size, const char *what) {
  if (discreteMemoryEmulated())
    return makeError(Status::Unsupported, std::string(what) + ": this device's commands do not access host memory "
                                                              "(POLYMUX_DISCRETE_MEMORY=1)");
  if (!pointer && size != 0)
    return makeError(Status::InvalidArgument, std::string(what) + " host pointer is null");
  return llvm::Error::success();
}

/// Writes `size` bytes of the repeated pattern: one copy, then doubling.
void fillPattern(std::byte *dst, uint64_t size, const std::byte *pattern, uint32_t patternSize) {
  if (size == 0)
    return;
  if (patternSize == 1) {
    std::memset(dst, std::to_integer<int>(pattern[0]), size);
    return;
  }
  std::memcpy(dst, pattern, patternSize);
  uint64_t done = patternSize;
  while (done < size) {
    uint64_t chunk = std::min(done, size - done);
    std::memcpy(dst + done, dst, chunk);
    done += chunk;
  }
}

} // namespace

llvm::Error HostCommandBuffer::checkRecordable() const {
  if (finalized_)
    return makeError(Status::InvalidArgument, "command buffer is finalized; reset() it to record again");
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::readBuffer(Buffer &src, uint64_t srcOffset, void *dst, uint64_t size) {
  if (auto error = checkRecordable())
    return error;
  auto buffer = asBoundHostBuffer(src, "read source");
  if (!buffer)
    return buffer.takeError();
  if (auto error = checkRange(**buffer, srcOffset, size, "read"))
    return error;
  if (auto error = checkHostPointer(dst, size, "read destination"))
    return error;
  commands_.emplace_back(Move{static_cast<std::byte *>(dst), (*buffer)->data() + srcOffset, size});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::writeBuffer(Buffer &dst, uint64_t dstOffset, const void *src, uint64_t size) {
  if (auto error = checkRecordable())
    return error;
  auto buffer = asBoundHostBuffer(dst, "write destination");
  if (!buffer)
    return buffer.takeError();
  if (auto error = checkRange(**buffer, dstOffset, size, "write"))
    return error;
  if (auto error = checkHostPointer(src, size, "write source"))
    return error;
  commands_.emplace_back(Move{(*buffer)->data() + dstOffset, static_cast<const std::byte *>(src), size});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::copyBuffer(Buffer &src, uint64_t srcOffset, Buffer &dst, uint64_t dstOffset,
                                          uint64_t size) {
  if (auto error = checkRecordable())
    return error;
  auto source = asBoundHostBuffer(src, "copy source");
  if (!source)
    return source.takeError();
  auto destination = asBoundHostBuffer(dst, "copy destination");
  if (!destination)
    return destination.takeError();
  if (auto error = checkRange(**source, srcOffset, size, "copy source"))
    return error;
  if (auto error = checkRange(**destination, dstOffset, size, "copy destination"))
    return error;
  commands_.emplace_back(Move{(*destination)->data() + dstOffset, (*source)->data() + srcOffset, size});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::fillBuffer(Buffer &dst, uint64_t offset, uint64_t size, const void *pattern,
                                          size_t patternSize) {
  if (auto error = checkRecordable())
    return error;
  auto buffer = asBoundHostBuffer(dst, "fill destination");
  if (!buffer)
    return buffer.takeError();
  if (!pattern || patternSize == 0 || patternSize > 128)
    return makeError(Status::InvalidArgument, "fill pattern must be 1 to 128 bytes");
  if (size % patternSize != 0)
    return makeError(Status::InvalidArgument, "fill size " + std::to_string(size) +
                                                  " is not a multiple of the pattern size " +
                                                  std::to_string(patternSize));
  if (auto error = checkRange(**buffer, offset, size, "fill"))
    return error;
  Fill fill{(*buffer)->data() + offset, size, static_cast<uint32_t>(patternSize), {}};
  std::memcpy(fill.pattern.data(), pattern, patternSize);
  commands_.emplace_back(fill);
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::readBufferRect(Buffer &src, void *dst, const RectRegion &rect) {
  if (auto error = checkRecordable())
    return error;
  auto buffer = asBoundHostBuffer(src, "rect read source");
  if (!buffer)
    return buffer.takeError();
  auto normalized = normalizeRect(rect);
  if (!normalized)
    return normalized.takeError();
  if (rectSrcExtent(*normalized) > (*buffer)->size())
    return makeError(Status::InvalidArgument, "rect read exceeds the source buffer");
  if (auto error = checkHostPointer(dst, 1, "rect read destination"))
    return error;
  commands_.emplace_back(Rect{static_cast<std::byte *>(dst), (*buffer)->data(), *normalized});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::writeBufferRect(Buffer &dst, const void *src, const RectRegion &rect) {
  if (auto error = checkRecordable())
    return error;
  auto buffer = asBoundHostBuffer(dst, "rect write destination");
  if (!buffer)
    return buffer.takeError();
  auto normalized = normalizeRect(rect);
  if (!normalized)
    return normalized.takeError();
  if (rectDstExtent(*normalized) > (*buffer)->size())
    return makeError(Status::InvalidArgument, "rect write exceeds the destination buffer");
  if (auto error = checkHostPointer(src, 1, "rect write source"))
    return error;
  commands_.emplace_back(Rect{(*buffer)->data(), static_cast<const std::byte *>(src), *normalized});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::copyBufferRect(Buffer &src, Buffer &dst, const RectRegion &rect) {
  if (auto error = checkRecordable())
    return error;
  auto source = asBoundHostBuffer(src, "rect copy source");
  if (!source)
    return source.takeError();
  auto destination = asBoundHostBuffer(dst, "rect copy destination");
  if (!destination)
    return destination.takeError();
  auto normalized = normalizeRect(rect);
  if (!normalized)
    return normalized.takeError();
  if (rectSrcExtent(*normalized) > (*source)->size())
    return makeError(Status::InvalidArgument, "rect copy exceeds the source buffer");
  if (rectDstExtent(*normalized) > (*destination)->size())
    return makeError(Status::InvalidArgument, "rect copy exceeds the destination buffer");
  commands_.emplace_back(Rect{(*destination)->data(), (*source)->data(), *normalized});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::ndrange(Kernel &kernel, std::span<const KernelArg> args, const NDRange &range) {
  if (auto error = checkRecordable())
    return error;
  auto launch = createLaunch(kernel, args, range);
  if (!launch)
    return launch.takeError();
  commands_.emplace_back(Launch{std::move(*launch)});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::userCallback(CommandCallback callback) {
  if (auto error = checkRecordable())
    return error;
  if (!callback)
    return makeError(Status::InvalidArgument, "user callback is empty");
  commands_.emplace_back(Callback{std::move(callback)});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::writeTimestamp(QueryPool &pool, uint32_t index) {
  if (auto error = checkRecordable())
    return error;
  auto *hostPool = dynamic_cast<HostQueryPool *>(&pool);
  if (!hostPool)
    return makeError(Status::InvalidArgument, "query pool was not created by this device");
  if (index >= hostPool->count())
    return makeError(Status::InvalidArgument, "timestamp index " + std::to_string(index) + " is outside a pool of " +
                                                  std::to_string(hostPool->count()));
  commands_.emplace_back(Timestamp{hostPool, index});
  return llvm::Error::success();
}

llvm::Error HostCommandBuffer::finalize() {
  if (auto error = checkRecordable())
    return error;
  finalized_ = true;
  return llvm::Error::success();
}

void HostCommandBuffer::reset() {
  commands_.clear();
  finalized_ = false;
}

namespace {

/// Reports one command's time as `kind` of work to `activity` (if any).
class BusyScope {
public:
  BusyScope(DeviceActivity *activity, DeviceActivity::Work kind) : activity_(activity), kind_(kind) {
    if (activity_)
      activity_->begin(kind_, DeviceActivity::steadyNs());
  }
  ~BusyScope() {
    if (activity_)
      activity_->end(kind_, DeviceActivity::steadyNs());
  }
  BusyScope(const BusyScope &) = delete;
  BusyScope &operator=(const BusyScope &) = delete;

private:
  DeviceActivity *activity_;
  DeviceActivity::Work kind_;
};

} // namespace

Outcome HostCommandBuffer::run(DeviceActivity *activity) {
  Outcome first;
  Outcome previous;
  for (Command &command : commands_) {
    const bool transfer = std::holds_alternative<Move>(command) || std::holds_alternative<Fill>(command) ||
                          std::holds_alternative<Rect>(command);
    BusyScope busy(transfer ? activity : nullptr, DeviceActivity::Work::Transfer);
    if (auto *move = std::get_if<Move>(&command)) {
      if (move->size != 0)
        std::memmove(move->dst, move->src, move->size);
      previous = Outcome();
    } else if (auto *fill = std::get_if<Fill>(&command)) {
      fillPattern(fill->dst, fill->size, fill->pattern.data(), fill->patternSize);
      previous = Outcome();
    } else if (auto *rect = std::get_if<Rect>(&command)) {
      copyRect(rect->dst, rect->src, rect->rect);
      previous = Outcome();
    } else if (auto *launch = std::get_if<Launch>(&command)) {
      BusyScope kernelBusy(activity, DeviceActivity::Work::Kernel);
      if (activity)
        activity->launchStarted(launch->launch->workGroupCount());
      launch->launch->reportProgressTo(activity);
      previous = launch->launch->run();
      if (activity)
        activity->launchEnded();
      if (first.status == Status::Success)
        first = previous;
    } else if (auto *callback = std::get_if<Callback>(&command)) {
      callback->callback(previous);
    } else if (auto *timestamp = std::get_if<Timestamp>(&command)) {
      timestamp->pool->write(timestamp->index, hostClockNs());
    }
  }
  return first;
}

} // namespace mux::support
