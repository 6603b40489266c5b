// Shared HAL helpers: a command buffer whose memory the CPU addresses
// directly. It records and validates every command, runs the transfers,
// callbacks and timestamps itself, and leaves kernel launches to the target
// (createLaunch). The host and template targets use it; any target whose
// buffers live in host RAM can.
#pragma once

#include "mux/command_buffer.h"
#include "mux/device_activity.h"
#include "mux/support/host_memory.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

namespace mux::support {

/// Nanoseconds on the steady (CLOCK_MONOTONIC) clock: host timestamps.
inline uint64_t hostClockNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

/// Timestamps written by HostCommandBuffer::writeTimestamp.
class HostQueryPool final : public QueryPool {
public:
  explicit HostQueryPool(uint32_t count) : slots_(count, 0) {}
  uint32_t count() const override { return static_cast<uint32_t>(slots_.size()); }
  /// 0 for an index out of range or a slot never written.
  uint64_t timestampNs(uint32_t index) const override { return index < slots_.size() ? slots_[index] : 0; }
  void write(uint32_t index, uint64_t ns) { slots_[index] = ns; }

private:
  std::vector<uint64_t> slots_;
};

/// A recorded kernel launch, prepared by the target at record time.
class KernelLaunch {
public:
  virtual ~KernelLaunch() = default;
  /// Runs every work-group; Success, or e.g. KernelFault with a detail
  /// naming the kernel and the fault (see Outcome).
  virtual Outcome run() = 0;
  /// The work-groups run() executes, for the progress it reports.
  virtual uint64_t workGroupCount() const = 0;
  /// Where run() reports finished work-groups (null: nowhere). Set by the
  /// command buffer before each run().
  void reportProgressTo(DeviceActivity *activity) { activity_ = activity; }

protected:
  /// run() calls this as work-groups finish, from any thread.
  void workGroupsDone(uint64_t count) {
    if (activity_)
      activity_->workGroupsDone(count);
  }

private:
  DeviceActivity *activity_ = nullptr;
};

class HostCommandBuffer : public CommandBuffer {
public:
  llvm::Error readBuffer(Buffer &src, uint64_t srcOffset, void *dst, uint64_t size) override;
  llvm::Error writeBuffer(Buffer &dst, uint64_t dstOffset, const void *src, uint64_t size) override;
  llvm::Error copyBuffer(Buffer &src, uint64_t srcOffset, Buffer &dst, uint64_t dstOffset, uint64_t size) override;
  llvm::Error fillBuffer(Buffer &dst, uint64_t offset, uint64_t size, const void *pattern, size_t patternSize) override;
  llvm::Error readBufferRect(Buffer &src, void *dst, const RectRegion &rect) override;
  llvm::Error writeBufferRect(Buffer &dst, const void *src, const RectRegion &rect) override;
  llvm::Error copyBufferRect(Buffer &src, Buffer &dst, const RectRegion &rect) override;
  llvm::Error ndrange(Kernel &kernel, std::span<const KernelArg> args, const NDRange &range) final;
  llvm::Error userCallback(CommandCallback callback) override;
  llvm::Error writeTimestamp(QueryPool &pool, uint32_t index) override;
  llvm::Error finalize() override;
  void reset() override;

  bool finalized() const { return finalized_; }
  /// Runs the commands in order. Work commands run even after an earlier
  /// one failed; each user callback gets the outcome of the nearest work
  /// command before it. Returns Success or the first failure. Transfers,
  /// launches and launch progress are reported to `activity` when given.
  Outcome run(DeviceActivity *activity = nullptr);

protected:
  /// Validates and prepares one launch (the kernel, arguments and range are
  /// as given to ndrange()). Called only while recording is allowed.
  virtual llvm::Expected<std::unique_ptr<KernelLaunch>> createLaunch(Kernel &kernel, std::span<const KernelArg> args,
                                                                     const NDRange &range) = 0;

private:
  struct Move { ///< read, write and copy: one memmove
    std::byte *dst;
    const std::byte *src;
    uint64_t size;
  };
  struct Fill {
    std::byte *dst;
    uint64_t size;
    uint32_t patternSize;
    std::array<std::byte, 128> pattern;
  };
  struct Rect {
    std::byte *dst;
    const std::byte *src;
    RectRegion rect; ///< normalised
  };
  struct Callback {
    CommandCallback callback;
  };
  struct Timestamp {
    HostQueryPool *pool;
    uint32_t index;
  };
  struct Launch {
    std::unique_ptr<KernelLaunch> launch;
  };
  using Command = std::variant<Move, Fill, Rect, Callback, Timestamp, Launch>;

  llvm::Error checkRecordable() const;

  std::vector<Command> commands_;
  bool finalized_ = false;
};

} // namespace mux::support
