// mux::CommandBuffer recorded into Vulkan command buffers: each command goes
// on its segment's tape (command_tape.h), and finalize() records the tapes,
// or submits the command buffers of the last recording again when the
// tapes are the same. Commands are separated by global memory barriers
// (each sees its predecessor's writes).
// A user callback ends a *segment*: the queue submits segments one at a
// time and runs each one's host work (markers, printf output, the callback)
// once it has completed. Markers do not split: they run, in order, after
// their segment completed.
#pragma once

#include "command_tape.h"
#include "device_handle.h"
#include "query_pool.h"
#include "record_arena.h"

#include "mux/command_buffer.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>
#include <volk.h>

namespace vulkan_target {

class Buffer;
class Device;
class Kernel;

class CommandBuffer final : public mux::CommandBuffer {
public:
  static llvm::Expected<std::unique_ptr<CommandBuffer>> create(Device &device);
  ~CommandBuffer() override;

  llvm::Error readBuffer(mux::Buffer &src, uint64_t srcOffset, void *dst, uint64_t size) override;
  llvm::Error writeBuffer(mux::Buffer &dst, uint64_t dstOffset, const void *src, uint64_t size) override;
  llvm::Error copyBuffer(mux::Buffer &src, uint64_t srcOffset, mux::Buffer &dst, uint64_t dstOffset,
                         uint64_t size) override;
  llvm::Error fillBuffer(mux::Buffer &dst, uint64_t offset, uint64_t size, const void *pattern,
                         size_t patternSize) override;
  llvm::Error readBufferRect(mux::Buffer &src, void *dst, const mux::RectRegion &rect) override;
  llvm::Error writeBufferRect(mux::Buffer &dst, const void *src, const mux::RectRegion &rect) override;
  llvm::Error copyBufferRect(mux::Buffer &src, mux::Buffer &dst, const mux::RectRegion &rect) override;
  llvm::Error ndrange(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) override;
  llvm::Error userCallback(mux::CommandCallback callback) override;
  llvm::Error markCommandStart(mux::CommandCallback callback) override;
  llvm::Error markCommandEnd(mux::CommandCallback callback) override;
  llvm::Error writeTimestamp(mux::QueryPool &pool, uint32_t index) override;
  llvm::Error finalize() override;
  void reset() override;

  // The queue's side.
  bool finalized() const { return finalized_; }
  VkDevice vkDevice() const { return owner_->get(); }
  size_t segmentCount() const { return segments_.size(); }
  /// The Vulkan commands of segment `index` (null when it has none).
  VkCommandBuffer segmentCommands(size_t index) const { return segments_[index].commands; }
  /// The timestamps segment `index` writes, in recording order.
  std::span<const TimestampSlot> segmentTimestamps(size_t index) const { return segments_[index].timestamps; }
  /// The kernels segment `index` launches, in recording order.
  std::span<const std::string> segmentKernels(size_t index) const { return segments_[index].kernels; }
  /// Runs segment `index`'s host work after it completed with `outcome`;
  /// returns the first failure of one of its commands (a kernel's access
  /// outside its buffers), or success.
  mux::Outcome completeSegment(size_t index, const mux::Outcome &outcome);
  /// Whether the last finalize() kept the Vulkan command buffers of the
  /// recording before it (command_tape.h), instead of recording anew.
  bool reusedRecording() const { return reusedRecording_; }
  // Progress (compiler/abi/vulkan_kernel_abi.h, "Progress"): each launch
  // has a counter its kernel adds its finished work-items to.
  /// The work-items of all launches; 0 when a launch has 2^32 or more (its
  /// counter could wrap), so that progress is not reported.
  uint64_t progressWorkItems() const { return progressWorkItems_; }
  /// The work-items the launches have finished since resetProgress().
  uint64_t finishedWorkItems() const;
  /// Zeroes the counters; the queue calls it once a dispatch has completed
  /// (one dispatch of a command buffer runs at a time).
  void resetProgress();
  /// Whether a dispatch of this command buffer is under way (queue mutex).
  bool executing() const { return executing_; }
  void setExecuting(bool executing) { executing_ = executing; }

private:
  struct PrintfOutput {
    std::byte *buffer;                   ///< the launch's printf buffer (host view)
    const std::vector<std::byte> *table; ///< the executable's format table
  };
  struct Action {
    enum class Kind { Start, End, Printf, AccessCheck, ExitRecord } kind;
    mux::CommandCallback callback;
    PrintfOutput printf{};
    /// AccessCheck: the launch's AccessReport; ExitRecord: its exit record
    /// (cl_polymux_kernel_exit), both host views.
    std::byte *accessReport = nullptr;
    std::string kernel;                ///< AccessCheck: the kernel's name
  };
  struct Segment {
    CommandTape tape;                          ///< its Vulkan commands, recorded at finalize()
    VkCommandBuffer commands = VK_NULL_HANDLE; ///< after finalize(); null when the tape is empty
    std::vector<Action> actions;
    std::vector<TimestampSlot> timestamps;
    std::vector<std::string> kernels;  ///< names of the kernels it launches
    mux::CommandCallback userCallback; ///< ends the segment; empty for the last
    bool hasCommands = false;          ///< a command (not a timestamp) was recorded
    /// A command may write memory the host reads (host-visible buffers,
    /// printf buffers, access reports): the segment ends with a barrier to
    /// the host, which cost NVIDIA's H100 about 0.8 µs of every launch.
    bool hostReads = false;
  };
  /// A segment as recorded last time, kept for finalize() to reuse.
  struct Recorded {
    CommandTape tape;
    VkCommandBuffer commands = VK_NULL_HANDLE;
  };

  CommandBuffer(Device &device, SharedDevice owner, VkCommandPool pool)
      : device_(device), owner_(std::move(owner)), pool_(pool), arena_(device, /*preferDeviceLocal=*/true),
        hostArena_(device, /*preferDeviceLocal=*/false) {
    startSegment();
  }
  llvm::Error checkRecordable() const;
  /// An empty tape, with the storage of a spare one where there is one.
  CommandTape spareTape();
  /// Appends a segment, its tape's storage taken from spareTapes_.
  void startSegment();
  /// Checks a buffer-to-buffer transfer and returns the two buffers.
  llvm::Expected<std::pair<Buffer *, Buffer *>> checkCopy(mux::Buffer &src, uint64_t srcOffset, uint64_t srcSize,
                                                          mux::Buffer &dst, uint64_t dstOffset, uint64_t dstSize,
                                                          const char *what);
  llvm::Error addMarker(Action::Kind kind, mux::CommandCallback callback);
  llvm::Error checkHostPointerCommand(mux::Buffer &buffer, uint64_t offset, uint64_t size, const void *host,
                                      const char *what);
  /// The current segment's commands, after a barrier that orders this
  /// command after the segment's commands before it. The segment's first
  /// command has none: what came before it on the device is ordered by the
  /// submission's semaphore wait (queue.h); a barrier there added about 4 µs
  /// to every launch on NVIDIA's driver.
  CommandTape &beginCommand();
  /// Notes that the current command may write `buffer`'s memory.
  void writes(const mux::Buffer &buffer);
  void barrier(CommandTape &tape, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);
  /// Gives every segment its VkCommandBuffer: the ones recorded last time
  /// when every tape is unchanged and nothing they name was destroyed,
  /// else new recordings of the tapes.
  llvm::Error recordSegments();
  /// Orders a command's shader-storage and transfer accesses after those of
  /// the command recorded before it.
  void commandBarrier(CommandTape &tape);
  llvm::Error recordFillPieces(CommandTape &tape, VkBuffer dst, uint64_t offset, uint64_t size,
                               const std::byte *pattern, size_t patternSize);
  llvm::Error recordLaunch(CommandTape &tape, Kernel &kernel, std::span<const mux::KernelArg> args,
                           const mux::NDRange &range);
  void freeCommandBuffers();
  /// The failure a launch's kernel reported in its AccessReport, if any;
  /// clears the report for the next run.
  std::optional<mux::Outcome> takeAccessFault(const Action &check);

  Device &device_;
  SharedDevice owner_;
  VkCommandPool pool_;
  RecordArena arena_;     ///< what the device reads
  RecordArena hostArena_; ///< what the host reads
  std::vector<Segment> segments_;
  struct ProgressCounter {
    volatile uint32_t *host; ///< its host view, written by the device
    uint64_t workItems;      ///< the launch's
  };
  std::vector<ProgressCounter> progressCounters_; ///< of every launch, in recording order
  uint64_t progressWorkItems_ = 0;
  /// The segments of the last finalized recording, from reset() until the
  /// next finalize() reuses or discards their command buffers.
  std::vector<Recorded> previous_;
  /// DeviceHandle::destroyedObjects() when previous_ was recorded.
  uint64_t previousRecordedAt_ = 0;
  /// previous_ is a whole finalized recording, every command buffer of it
  /// executable.
  bool previousReusable_ = false;
  bool reusedRecording_ = false;
  /// Emptied tapes whose storage the next segments reuse: a tape grown
  /// from nothing reallocated about seven times per launch.
  std::vector<CommandTape> spareTapes_;
  /// Command buffers of pool_ in the initial state.
  std::vector<VkCommandBuffer> spareCommands_;
  bool finalized_ = false;
  bool executing_ = false;
};

} // namespace vulkan_target
