// Loaded target binaries and the kernels in them.
#pragma once

#include "mux/status.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace mux {

struct KernelArg;
struct NDRange;

/// A kernel ready to be recorded into a command buffer with ndrange().
class Kernel {
public:
  virtual ~Kernel() = default;
  virtual const std::string &name() const = 0;
  /// Largest work-group this kernel can run with on its device.
  virtual size_t maxWorkGroupSize() const = 0;
  /// Local sizes work best as multiples of this.
  virtual size_t preferredWorkGroupSizeMultiple() const = 0;
  /// Sub-group size used for a work-group of `localSize` work-items.
  virtual uint32_t subGroupSize(size_t localSize) const = 0;
  /// Bytes of __local memory the kernel declares statically.
  virtual uint64_t localMemSize() const = 0;
  /// Bytes of private memory (stack) per work-item.
  virtual uint64_t privateMemSize() const = 0;
  /// Prepares what a launch with `range`'s local size and `args`' __local
  /// sizes needs (e.g. compiles a pipeline for them), so that recording it
  /// with CommandBuffer::ndrange() is cheap. The OpenCL layer calls it before
  /// it takes its scheduler lock, so a slow compilation stalls only the
  /// thread that enqueues; ndrange() prepares by itself whatever was not
  /// prepared. Thread-safe. Targets with nothing to prepare keep the default.
  virtual llvm::Error prepareLaunch(std::span<const KernelArg> args, const NDRange &range) {
    (void)args;
    (void)range;
    return llvm::Error::success();
  }
};

/// A target binary loaded onto a device.
class Executable {
public:
  virtual ~Executable() = default;
  virtual llvm::Expected<std::unique_ptr<Kernel>> createKernel(std::string_view name) = 0;
};

} // namespace mux
