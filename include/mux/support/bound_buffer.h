// A buffer bound to an allocation of its own: what a user of the HAL (the
// OpenCL layer's integrity checks, the polymux tool) needs for a buffer it
// does not sub-allocate.
#pragma once

#include "mux/device.h"

#include <cstdint>
#include <memory>

namespace mux::support {

struct BoundBuffer {
  std::unique_ptr<Memory> memory;
  std::unique_ptr<Buffer> buffer;
};

/// Creates a buffer of `size` bytes and binds it at offset 0 of new memory
/// with `properties` (MemoryProperty bits), as large and aligned as the
/// buffer requires.
llvm::Expected<BoundBuffer> createBoundBuffer(Device &device, uint64_t size, uint32_t properties);

} // namespace mux::support
