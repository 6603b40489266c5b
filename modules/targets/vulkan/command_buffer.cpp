#include "command_buffer.h"

#include "device.h"
#include "memory.h"
#include "memory_barrier.h"
#include "query_pool.h"
#include "vulkan_result.h"

#include "compiler/abi/vulkan_kernel_abi.h"
#include "compiler/printf_decoder.h"
#include "mux/kernel_exit.h"
#include "mux/support/rect_copy.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace vulkan_target {
namespace {

llvm::Error checkRange(const Buffer &buffer, uint64_t offset, uint64_t size, const char *what) {
  if (offset > buffer.size() || size > buffer.size() - offset)
    return mux::makeError(mux::Status::InvalidArgument, std::string(what) + " range [" + std::to_string(offset) +
                                                            ", +" + std::to_string(size) + ") exceeds buffer of " +
                                                            std::to_string(buffer.size()) + " bytes");
  return llvm::Error::success();
}

llvm::Error hostPointerCommand(const char *what) {
  // DeviceInfo::commandsAccessHostMemory is false: the OpenCL layer stages
  // host data through host-visible buffers and never records these.
  return mux::makeError(mux::Status::Unsupported,
                        std::string(what) + " with a host pointer: vulkan device commands cannot access host memory; "
                                            "copy through a host-visible buffer");
}

} // namespace

llvm::Expected<std::unique_ptr<CommandBuffer>> CommandBuffer::create(Device &device) {
  VkCommandPoolCreateInfo createInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  createInfo.queueFamilyIndex = device.facts().computeQueueFamily;
  VkCommandPool pool = VK_NULL_HANDLE;
  if (llvm::Error error =
          check(vkCreateCommandPool(device.handle(), &createInfo, nullptr, &pool), "vkCreateCommandPool"))
    return error;
  return std::unique_ptr<CommandBuffer>(new CommandBuffer(device, device.shared(), pool));
}

CommandBuffer::~CommandBuffer() {
  if (owner_->abandoned())
    return; // its commands may still be running
  freeCommandBuffers();
  vkDestroyCommandPool(owner_->get(), pool_, nullptr);
}

void CommandBuffer::freeCommandBuffers() {
  for (Segment &segment : segments_)
    if (segment.commands != VK_NULL_HANDLE)
      vkFreeCommandBuffers(owner_->get(), pool_, 1, &segment.commands);
  for (Recorded &recorded : previous_)
    if (recorded.commands != VK_NULL_HANDLE)
      vkFreeCommandBuffers(owner_->get(), pool_, 1, &recorded.commands);
  if (!spareCommands_.empty())
    vkFreeCommandBuffers(owner_->get(), pool_, static_cast<uint32_t>(spareCommands_.size()), spareCommands_.data());
  spareCommands_.clear();
}

llvm::Error CommandBuffer::checkRecordable() const {
  if (finalized_)
    return mux::makeError(mux::Status::InvalidArgument, "command buffer is finalized; reset() it to record again");
  return llvm::Error::success();
}

void CommandBuffer::barrier(CommandTape &tape, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
  tape.barrier(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, dstStage, dstAccess);
}

CommandTape CommandBuffer::spareTape() {
  if (spareTapes_.empty())
    return {};
  CommandTape tape = std::move(spareTapes_.back());
  spareTapes_.pop_back();
  return tape;
}

void CommandBuffer::startSegment() {
  segments_.emplace_back();
  segments_.back().tape = spareTape();
}

CommandTape &CommandBuffer::beginCommand() {
  Segment &segment = segments_.back();
  if (segment.hasCommands)
    commandBarrier(segment.tape);
  segment.hasCommands = true;
  return segment.tape;
}

void CommandBuffer::writes(const mux::Buffer &buffer) {
  const mux::Memory *memory = buffer.boundMemory();
  if (!memory || (memory->properties() & mux::MemoryHostVisible))
    segments_.back().hostReads = true;
}

void CommandBuffer::commandBarrier(CommandTape &tape) {
  // Commands reach memory only from compute shaders (buffer device
  // addresses: storage accesses) and transfers (copies, fills, updates);
  // timestamps and query resets order themselves. The wider barrier (all
  // stages, any memory access) cost NVIDIA's H100 more: float sqrt, whose
  // launches take about 13 µs, ran at 0.58x of NVIDIA's OpenCL with it and
  // 0.71x with this one.
  constexpr VkPipelineStageFlags2 stages =
      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
  tape.barrier(stages, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, stages,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                   VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

llvm::Error CommandBuffer::readBuffer(mux::Buffer &src, uint64_t srcOffset, void *dst, uint64_t size) {
  if (llvm::Error error = checkHostPointerCommand(src, srcOffset, size, dst, "read"))
    return error;
  return hostPointerCommand("readBuffer");
}

llvm::Error CommandBuffer::writeBuffer(mux::Buffer &dst, uint64_t dstOffset, const void *src, uint64_t size) {
  if (llvm::Error error = checkHostPointerCommand(dst, dstOffset, size, src, "write"))
    return error;
  return hostPointerCommand("writeBuffer");
}

llvm::Error CommandBuffer::readBufferRect(mux::Buffer &src, void *dst, const mux::RectRegion &rect) {
  auto normal = mux::support::normalizeRect(rect);
  if (!normal)
    return normal.takeError();
  if (llvm::Error error = checkHostPointerCommand(src, 0, mux::support::rectSrcExtent(*normal), dst, "rect read"))
    return error;
  return hostPointerCommand("readBufferRect");
}

llvm::Error CommandBuffer::writeBufferRect(mux::Buffer &dst, const void *src, const mux::RectRegion &rect) {
  auto normal = mux::support::normalizeRect(rect);
  if (!normal)
    return normal.takeError();
  if (llvm::Error error = checkHostPointerCommand(dst, 0, mux::support::rectDstExtent(*normal), src, "rect write"))
    return error;
  return hostPointerCommand("writeBufferRect");
}

llvm::Error CommandBuffer::checkHostPointerCommand(mux::Buffer &buffer, uint64_t offset, uint64_t size,
                                                   const void *host, const char *what) {
  // The arguments are checked as on any device, so that a broken call is
  // reported as such rather than as unsupported.
  if (llvm::Error error = checkRecordable())
    return error;
  auto bound = boundBuffer(buffer, what);
  if (!bound)
    return bound.takeError();
  if (llvm::Error error = checkRange(**bound, offset, size, what))
    return error;
  if (!host && size)
    return mux::makeError(mux::Status::InvalidArgument, std::string(what) + " host pointer is null");
  return llvm::Error::success();
}

llvm::Expected<std::pair<Buffer *, Buffer *>> CommandBuffer::checkCopy(mux::Buffer &src, uint64_t srcOffset,
                                                                       uint64_t srcSize, mux::Buffer &dst,
                                                                       uint64_t dstOffset, uint64_t dstSize,
                                                                       const char *what) {
  if (llvm::Error error = checkRecordable())
    return error;
  const std::string name(what);
  auto source = boundBuffer(src, (name + " source").c_str());
  if (!source)
    return source.takeError();
  auto destination = boundBuffer(dst, (name + " destination").c_str());
  if (!destination)
    return destination.takeError();
  if (llvm::Error error = checkRange(**source, srcOffset, srcSize, (name + " source").c_str()))
    return error;
  if (llvm::Error error = checkRange(**destination, dstOffset, dstSize, (name + " destination").c_str()))
    return error;
  return std::pair{*source, *destination};
}

llvm::Error CommandBuffer::copyBuffer(mux::Buffer &src, uint64_t srcOffset, mux::Buffer &dst, uint64_t dstOffset,
                                      uint64_t size) {
  auto buffers = checkCopy(src, srcOffset, size, dst, dstOffset, size, "copy");
  if (!buffers)
    return buffers.takeError();
  auto [source, destination] = *buffers;
  if (size == 0)
    return llvm::Error::success();
  CommandTape &tape = beginCommand();
  writes(*destination);
  // Vulkan forbids overlapping regions in one copy; memmove semantics come
  // from copying an overlapping range in pieces no longer than the distance,
  // ordered away from the overlap, with a barrier between pieces.
  const bool sameMemory = source->boundMemory() == destination->boundMemory();
  const uint64_t srcBegin = source->boundOffset() + srcOffset;
  const uint64_t dstBegin = destination->boundOffset() + dstOffset;
  const uint64_t distance = srcBegin > dstBegin ? srcBegin - dstBegin : dstBegin - srcBegin;
  if (!sameMemory || distance >= size) {
    VkBufferCopy region{srcOffset, dstOffset, size};
    tape.copyBuffer(source->handle(), destination->handle(), {&region, 1});
    return llvm::Error::success();
  }
  if (distance == 0)
    return llvm::Error::success();
  const bool forward = dstBegin < srcBegin;
  for (uint64_t done = 0; done < size;) {
    uint64_t piece = std::min(distance, size - done);
    uint64_t at = forward ? done : size - done - piece;
    VkBufferCopy region{srcOffset + at, dstOffset + at, piece};
    if (done)
      barrier(tape, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    tape.copyBuffer(source->handle(), destination->handle(), {&region, 1});
    done += piece;
  }
  return llvm::Error::success();
}

llvm::Error CommandBuffer::copyBufferRect(mux::Buffer &src, mux::Buffer &dst, const mux::RectRegion &rect) {
  auto normal = mux::support::normalizeRect(rect);
  if (!normal)
    return normal.takeError();
  auto buffers = checkCopy(src, 0, mux::support::rectSrcExtent(*normal), dst, 0, mux::support::rectDstExtent(*normal),
                           "rect copy");
  if (!buffers)
    return buffers.takeError();
  auto [source, destination] = *buffers;
  std::vector<VkBufferCopy> rows;
  for (size_t z = 0; z < normal->region[2]; ++z)
    for (size_t y = 0; y < normal->region[1]; ++y) {
      VkBufferCopy row;
      row.srcOffset = (normal->srcOrigin[2] + z) * normal->srcSlicePitch +
                      (normal->srcOrigin[1] + y) * normal->srcRowPitch + normal->srcOrigin[0];
      row.dstOffset = (normal->dstOrigin[2] + z) * normal->dstSlicePitch +
                      (normal->dstOrigin[1] + y) * normal->dstRowPitch + normal->dstOrigin[0];
      row.size = normal->region[0];
      rows.push_back(row);
    }
  CommandTape &tape = beginCommand();
  writes(*destination);
  tape.copyBuffer(source->handle(), destination->handle(), rows);
  return llvm::Error::success();
}

llvm::Error CommandBuffer::fillBuffer(mux::Buffer &dst, uint64_t offset, uint64_t size, const void *pattern,
                                      size_t patternSize) {
  if (llvm::Error error = checkRecordable())
    return error;
  auto destination = boundBuffer(dst, "fill destination");
  if (!destination)
    return destination.takeError();
  if (!pattern || patternSize == 0 || patternSize > 128 || size % patternSize)
    return mux::makeError(mux::Status::InvalidArgument, "fill pattern of " + std::to_string(patternSize) +
                                                            " bytes (1 to 128, dividing the size, non-null)");
  if (llvm::Error error = checkRange(**destination, offset, size, "fill"))
    return error;
  if (size == 0)
    return llvm::Error::success();
  CommandTape &tape = beginCommand();
  writes(**destination);
  return recordFillPieces(tape, (*destination)->handle(), offset, size, static_cast<const std::byte *>(pattern),
                          patternSize);
}

llvm::Error CommandBuffer::userCallback(mux::CommandCallback callback) {
  if (llvm::Error error = checkRecordable())
    return error;
  if (!callback)
    return mux::makeError(mux::Status::InvalidArgument, "empty user callback");
  segments_.back().userCallback = std::move(callback);
  startSegment();
  return llvm::Error::success();
}

llvm::Error CommandBuffer::addMarker(Action::Kind kind, mux::CommandCallback callback) {
  if (llvm::Error error = checkRecordable())
    return error;
  if (!callback)
    return mux::makeError(mux::Status::InvalidArgument, "empty marker callback");
  segments_.back().actions.push_back({kind, std::move(callback)});
  return llvm::Error::success();
}

llvm::Error CommandBuffer::markCommandStart(mux::CommandCallback callback) {
  return addMarker(Action::Kind::Start, std::move(callback));
}

llvm::Error CommandBuffer::markCommandEnd(mux::CommandCallback callback) {
  return addMarker(Action::Kind::End, std::move(callback));
}

llvm::Error CommandBuffer::writeTimestamp(mux::QueryPool &pool, uint32_t index) {
  if (llvm::Error error = checkRecordable())
    return error;
  auto *vulkanPool = dynamic_cast<QueryPool *>(&pool);
  if (!vulkanPool)
    return mux::makeError(mux::Status::InvalidArgument, "query pool of another device");
  if (index >= vulkanPool->count())
    return mux::makeError(mux::Status::InvalidArgument, "timestamp slot " + std::to_string(index) + " of a pool of " +
                                                            std::to_string(vulkanPool->count()));
  // No barrier: a reset orders itself after earlier commands on the same
  // query, and an ALL_COMMANDS timestamp is latched once every earlier
  // command has completed. (A barrier per timestamp cost NVIDIA's H100
  // about 8 µs of device time each.)
  CommandTape &tape = segments_.back().tape;
  tape.resetQuery(vulkanPool->handle(), index);
  tape.writeTimestamp(vulkanPool->handle(), index);
  segments_.back().timestamps.push_back({vulkanPool, index});
  return llvm::Error::success();
}

llvm::Error CommandBuffer::finalize() {
  if (llvm::Error error = checkRecordable())
    return error;
  for (Segment &segment : segments_)
    if (segment.hostReads) // the host reads after the segment's completion
      barrier(segment.tape, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT);
  if (llvm::Error error = recordSegments())
    return error;
  finalized_ = true;
  return llvm::Error::success();
}

llvm::Error CommandBuffer::recordSegments() {
  const uint64_t destroyed = owner_->destroyedObjects();
  bool same = previousReusable_ && previous_.size() == segments_.size() && destroyed == previousRecordedAt_;
  for (size_t i = 0; same && i < segments_.size(); ++i)
    same = previous_[i].tape == segments_[i].tape;
  reusedRecording_ = same;
  bool recordedBefore = false;
  for (size_t i = 0; i < previous_.size(); ++i) {
    Recorded &recorded = previous_[i];
    if (same) {
      segments_[i].commands = recorded.commands;
    } else if (recorded.commands != VK_NULL_HANDLE) {
      spareCommands_.push_back(recorded.commands);
      recordedBefore = true;
    }
    recorded.tape.clear();
    spareTapes_.push_back(std::move(recorded.tape));
  }
  previous_.clear();
  if (same)
    return llvm::Error::success();
  if (recordedBefore) // back to the initial state, all of them
    vkResetCommandPool(device_.handle(), pool_, 0);
  previousRecordedAt_ = destroyed;
  for (Segment &segment : segments_) {
    if (segment.tape.empty())
      continue;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    if (!spareCommands_.empty()) {
      // Allocating one took NVIDIA's driver 60 to 120 µs.
      commands = spareCommands_.back();
      spareCommands_.pop_back();
    } else {
      VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocateInfo.commandPool = pool_;
      allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocateInfo.commandBufferCount = 1;
      if (llvm::Error error =
              check(vkAllocateCommandBuffers(device_.handle(), &allocateInfo, &commands), "vkAllocateCommandBuffers"))
        return error;
    }
    // Not one-time: a later recording with the same tape submits it again.
    VkCommandBufferBeginInfo beginInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (llvm::Error error = check(vkBeginCommandBuffer(commands, &beginInfo), "vkBeginCommandBuffer")) {
      spareCommands_.push_back(commands);
      return error;
    }
    segment.commands = commands;
    segment.tape.replay(commands);
    if (llvm::Error error = check(vkEndCommandBuffer(commands), "vkEndCommandBuffer"))
      return error;
  }
  return llvm::Error::success();
}

void CommandBuffer::reset() {
  // The last finalized recording's command buffers are kept, not reset:
  // finalize() submits them again if the new tapes are the same.
  if (finalized_) {
    previous_.clear(); // finalize() emptied it
    for (Segment &segment : segments_)
      previous_.push_back({std::move(segment.tape), segment.commands});
    previousReusable_ = true;
  } else {
    // A finalize() that failed may have left command buffers half recorded.
    for (Segment &segment : segments_)
      if (segment.commands != VK_NULL_HANDLE) {
        previous_.push_back({{}, segment.commands});
        previousReusable_ = false;
      }
  }
  // The first segment's lists keep their storage for the next recording.
  segments_.resize(1);
  Segment &first = segments_.front();
  first.tape = spareTape();
  first.commands = VK_NULL_HANDLE;
  first.actions.clear();
  first.timestamps.clear();
  first.kernels.clear();
  first.userCallback = nullptr;
  first.hasCommands = false;
  first.hostReads = false;
  progressCounters_.clear();
  progressWorkItems_ = 0;
  arena_.reset();
  hostArena_.reset();
  finalized_ = false;
}

uint64_t CommandBuffer::finishedWorkItems() const {
  uint64_t done = 0;
  for (const ProgressCounter &counter : progressCounters_)
    done += std::min<uint64_t>(counter.workItems, *counter.host);
  return done;
}

void CommandBuffer::resetProgress() {
  // Posted writes only: a read of a GPU's memory across the bus would cost
  // far more.
  for (const ProgressCounter &counter : progressCounters_)
    *counter.host = 0;
}

mux::Outcome CommandBuffer::completeSegment(size_t index, const mux::Outcome &outcome) {
  Segment &segment = segments_[index];
  mux::Outcome firstFailure;
  // What the command before an End marker ended with.
  mux::Outcome previous = outcome;
  for (Action &action : segment.actions) {
    switch (action.kind) {
    case Action::Kind::Start:
      previous = outcome;
      action.callback(mux::Outcome());
      break;
    case Action::Kind::End:
      action.callback(previous);
      break;
    case Action::Kind::Printf:
      if (outcome.status == mux::Status::Success) {
        std::string text = compiler::decodePrintfBuffer(*action.printf.table, action.printf.buffer);
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
      }
      break;
    case Action::Kind::ExitRecord:
      // After the launch's AccessCheck: a fault found there takes precedence.
      if (previous.status == mux::Status::Success) {
        int32_t status = 0;
        std::memcpy(&status, action.accessReport, sizeof(status));
        if (status != mux::kernel_exit::NotExiting)
          previous.kernelExitStatus = status;
      }
      break;
    case Action::Kind::AccessCheck:
      previous = outcome;
      if (outcome.status != mux::Status::Success)
        break; // the device's failure says more
      if (std::optional<mux::Outcome> fault = takeAccessFault(action)) {
        previous = *fault;
        if (firstFailure.status == mux::Status::Success)
          firstFailure = *fault;
      }
      break;
    }
  }
  if (segment.userCallback)
    segment.userCallback(previous);
  return firstFailure;
}

std::optional<mux::Outcome> CommandBuffer::takeAccessFault(const Action &check) {
  namespace abi = compiler::abi::vulkan;
  abi::AccessReport report;
  std::memcpy(&report, check.accessReport, sizeof(report));
  if (!report.faulted)
    return std::nullopt;
  std::memset(check.accessReport, 0, sizeof(report));
  char address[32];
  std::snprintf(address, sizeof(address), "0x%llx", static_cast<unsigned long long>(report.address));
  mux::Outcome fault(mux::Status::KernelFault, "kernel '" + check.kernel + "' faulted on device '" +
                                                   device_.info().name + "': an access to address " + address +
                                                   ", outside every buffer it was given (the access was not done)");
  fault.kernelExitStatus = mux::kernel_exit::OutOfBounds;
  return fault;
}

} // namespace vulkan_target
