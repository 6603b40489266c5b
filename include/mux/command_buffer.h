// Command buffers: commands are recorded, finalized, then dispatched to a
// Queue. Commands in one command buffer run in the order they were recorded,
// each one complete (and its writes visible) before the next starts.
#pragma once

#include "mux/status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace mux {

class Buffer;
class Kernel;
class QueryPool;

/// A 3-D box within a linearly laid out buffer or host region, in bytes for
/// the x dimension and rows/slices for y and z (as clEnqueueReadBufferRect).
struct RectRegion {
  std::array<size_t, 3> srcOrigin{0, 0, 0};
  std::array<size_t, 3> dstOrigin{0, 0, 0};
  std::array<size_t, 3> region{0, 1, 1};
  size_t srcRowPitch = 0;
  size_t srcSlicePitch = 0;
  size_t dstRowPitch = 0;
  size_t dstSlicePitch = 0;
};

/// The index space of one kernel launch. localSize is always set (the OpenCL
/// layer chooses one when the application did not); globalSize need not be a
/// multiple of it: the last work-group in a dimension is then smaller.
struct NDRange {
  uint32_t dimensions = 1;
  std::array<size_t, 3> globalOffset{0, 0, 0};
  std::array<size_t, 3> globalSize{1, 1, 1};
  std::array<size_t, 3> localSize{1, 1, 1};
};

/// One kernel argument as the device should see it.
struct KernelArg {
  enum class Kind {
    Buffer, ///< a __global or __constant pointer: buffer (may be null) + offset
    Value,  ///< plain bytes passed by value
    Local,  ///< a __local pointer: the target allocates `localSize` bytes per work-group
  };
  Kind kind = Kind::Value;
  Buffer *buffer = nullptr;     ///< Buffer: the buffer, or null for a NULL pointer
  uint64_t offset = 0;          ///< Buffer: byte offset into it (sub-buffers)
  /// Buffer holding an image descriptor (compiler/abi/image_abi.h): the
  /// buffer of the image's texels, which the kernel reaches through the
  /// descriptor's address rather than through the argument; null otherwise.
  /// A target that checks a kernel's accesses lets it reach this buffer too.
  Buffer *texels = nullptr;
  std::vector<std::byte> value; ///< Value: the bytes
  uint64_t localSize = 0;       ///< Local: bytes per work-group
};

/// Called on the device timeline with the outcome of the nearest work command
/// recorded before it (Success when none failed); a failure carries the
/// target's explanation in Outcome::detail. A callable taking a plain Status
/// is accepted too (Outcome converts to it).
using CommandCallback = std::function<void(const Outcome &)>;

class CommandBuffer {
public:
  virtual ~CommandBuffer() = default;

  virtual llvm::Error readBuffer(Buffer &src, uint64_t srcOffset, void *dst, uint64_t size) = 0;
  /// `src` is read when the command runs, not when it is recorded.
  virtual llvm::Error writeBuffer(Buffer &dst, uint64_t dstOffset, const void *src, uint64_t size) = 0;
  virtual llvm::Error copyBuffer(Buffer &src, uint64_t srcOffset, Buffer &dst, uint64_t dstOffset, uint64_t size) = 0;
  /// `pattern` (1..128 bytes, dividing `size`) is copied at record time.
  virtual llvm::Error fillBuffer(Buffer &dst, uint64_t offset, uint64_t size, const void *pattern,
                                 size_t patternSize) = 0;
  /// Rectangular variants: src/dst origins and pitches in `rect` apply to the
  /// buffer and host region as named.
  virtual llvm::Error readBufferRect(Buffer &src, void *dst, const RectRegion &rect) = 0;
  virtual llvm::Error writeBufferRect(Buffer &dst, const void *src, const RectRegion &rect) = 0;
  virtual llvm::Error copyBufferRect(Buffer &src, Buffer &dst, const RectRegion &rect) = 0;

  /// Runs `kernel` over `range`. Argument values are copied at record time.
  virtual llvm::Error ndrange(Kernel &kernel, std::span<const KernelArg> args, const NDRange &range) = 0;

  /// Runs `callback` on the device timeline after the previous command;
  /// later commands start only after it returned. On a device whose commands
  /// run away from the host this splits the command stream, so the OpenCL
  /// layer uses it only where the order matters (see the markers below).
  virtual llvm::Error userCallback(CommandCallback callback) = 0;

  /// Cheap per-command markers: neither orders later commands after the
  /// callback, so a target may run them late, e.g. all when the dispatch
  /// completes, instead of splitting the command stream. Both run in
  /// recording order and before the dispatch's completion callback.
  /// `callback` of markCommandStart runs at the latest when the work
  /// recorded after it has completed (its outcome is always Success);
  /// `callback` of markCommandEnd runs once the work recorded since the
  /// previous markCommandEnd has completed, with the outcome of the nearest
  /// work command before it (as userCallback). The defaults are
  /// userCallback, right for a target whose callbacks are cheap (CPUs).
  virtual llvm::Error markCommandStart(CommandCallback callback) { return userCallback(std::move(callback)); }
  virtual llvm::Error markCommandEnd(CommandCallback callback) { return userCallback(std::move(callback)); }

  /// Writes a device timestamp into `pool` slot `index` when reached.
  virtual llvm::Error writeTimestamp(QueryPool &pool, uint32_t index) = 0;

  /// No more commands; the command buffer may now be dispatched (repeatedly).
  virtual llvm::Error finalize() = 0;
  /// Drops all commands so the command buffer can be recorded again.
  virtual void reset() = 0;
};

/// Device timestamps, read back after the command buffer that wrote them has
/// completed.
class QueryPool {
public:
  virtual ~QueryPool() = default;
  virtual uint32_t count() const = 0;
  /// Nanoseconds on the same clock as Device::timestampNs().
  virtual uint64_t timestampNs(uint32_t index) const = 0;
};

} // namespace mux
