// Memory allocations and the buffer views bound to them.
#pragma once

#include "mux/status.h"

#include <cstddef>
#include <cstdint>

namespace mux {

/// Properties requested for (or offered by) an allocation. Bit flags.
enum MemoryProperty : uint32_t {
  MemoryDeviceLocal = 1u << 0,   ///< fastest for the device
  MemoryHostVisible = 1u << 1,   ///< can be mapped by the host
  MemoryHostCoherent = 1u << 2,  ///< no flush needed after host writes
  MemoryHostCached = 1u << 3,    ///< host reads are fast
};

/// One device allocation. Buffers are views bound into it.
class Memory {
public:
  virtual ~Memory() = default;
  virtual uint64_t size() const = 0;
  virtual uint32_t properties() const = 0;
  /// Returns a host pointer to [offset, offset + size). Only for HostVisible
  /// memory. Mappings may nest; each map needs an unmap.
  virtual llvm::Expected<void *> map(uint64_t offset, uint64_t size) = 0;
  virtual void unmap() = 0;
  /// Makes host writes visible to the device (non-coherent memory only).
  virtual void flushToDevice(uint64_t offset, uint64_t size) = 0;
  /// Makes device writes visible to the host (non-coherent memory only).
  virtual void flushFromDevice(uint64_t offset, uint64_t size) = 0;
};

struct MemoryRequirements {
  uint64_t size = 0;
  uint64_t alignment = 1;
  uint32_t supportedProperties = 0;  ///< properties any compatible memory may have
};

/// A range of device memory that commands and kernels address.
class Buffer {
public:
  virtual ~Buffer() = default;
  virtual uint64_t size() const = 0;
  virtual MemoryRequirements memoryRequirements() const = 0;
  /// Binds the buffer to `memory` at `offset`, which must satisfy the
  /// alignment of memoryRequirements() and leave room for size().
  virtual llvm::Error bind(Memory &memory, uint64_t offset) = 0;
  virtual Memory *boundMemory() const = 0;
  virtual uint64_t boundOffset() const = 0;
  /// The address kernels see for the buffer's first byte: a host pointer on
  /// the host, a guest address on a simulator, a buffer device address on a
  /// GPU. 0 while unbound.
  virtual uint64_t deviceAddress() const = 0;
};

} // namespace mux
