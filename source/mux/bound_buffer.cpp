#include "mux/support/bound_buffer.h"

#include <algorithm>

namespace mux::support {

llvm::Expected<BoundBuffer> createBoundBuffer(Device &device, uint64_t size, uint32_t properties) {
  BoundBuffer bound;
  auto buffer = device.createBuffer(size);
  if (!buffer)
    return buffer.takeError();
  bound.buffer = std::move(*buffer);
  const MemoryRequirements requirements = bound.buffer->memoryRequirements();
  auto memory = device.allocateMemory(std::max(requirements.size, size), properties,
                                      std::max<uint64_t>(requirements.alignment, 1));
  if (!memory)
    return memory.takeError();
  bound.memory = std::move(*memory);
  if (llvm::Error error = bound.buffer->bind(*bound.memory, 0))
    return error;
  return bound;
}

} // namespace mux::support
