// The device's harts: one simulated RV64 hart per compute unit, each with
// its own local memory (the scratch window), run by host worker threads.
#pragma once

#include "device_description.h"

#include "mux/status.h"
#include "mux/support/thread_pool.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace riscv_sim {

class HartArray {
public:
  /// OutOfMemory when the host cannot reserve the local memories.
  static llvm::Expected<std::unique_ptr<HartArray>> create(const DeviceDescription &description);
  ~HartArray();

  unsigned size() const { return static_cast<unsigned>(scratch_.size()); }
  /// Host view of hart `index`'s local memory (description.scratchSize
  /// bytes at guest address description.scratchBase).
  std::byte *scratch(unsigned index) const { return scratch_[index]; }

  /// Runs `body(context, hart, first, end)` over work items [0, count),
  /// each chunk on one hart; returns when all are done. One call at a time.
  bool parallelFor(uint64_t count, mux::support::ThreadPool::Body body, void *context) {
    return pool_.parallelFor(count, 0, body, context);
  }

private:
  HartArray(uint64_t scratchSize, std::vector<std::byte *> scratch);

  uint64_t scratchSize_;
  std::vector<std::byte *> scratch_;
  mux::support::ThreadPool pool_;
};

} // namespace riscv_sim
