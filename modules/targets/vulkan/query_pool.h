// mux::QueryPool as a Vulkan timestamp query pool. Results are moved onto
// the clock of Device::timestampNs() when the submission that wrote them
// completes (device_clock.h) and kept here for timestampNs().
#pragma once

#include "device_handle.h"

#include "mux/command_buffer.h"

#include <atomic>
#include <memory>
#include <optional>
#include <volk.h>

namespace vulkan_target {

class Device;

class QueryPool final : public mux::QueryPool {
public:
  static llvm::Expected<std::unique_ptr<QueryPool>> create(Device &device, uint32_t count);
  ~QueryPool() override;
  uint32_t count() const override { return count_; }
  /// 0 for a slot never written, or whose submission has not completed.
  uint64_t timestampNs(uint32_t index) const override;
  VkQueryPool handle() const { return pool_; }

  // The queue's side.
  /// Slot `index`'s result in device ticks (valid bits only), when available.
  std::optional<uint64_t> readTicks(uint32_t index) const;
  /// Sets slot `index`'s result on the host clock (0: none).
  void setResult(uint32_t index, uint64_t ns) { results_[index].store(ns, std::memory_order_release); }

private:
  QueryPool(Device &device, SharedDevice owner, VkQueryPool pool, uint32_t count)
      : device_(device), owner_(std::move(owner)), pool_(pool), count_(count),
        results_(std::make_unique<std::atomic<uint64_t>[]>(count)) {}
  Device &device_;
  SharedDevice owner_;
  VkQueryPool pool_;
  uint32_t count_;
  std::unique_ptr<std::atomic<uint64_t>[]> results_;
};

/// One timestamp a command buffer writes.
struct TimestampSlot {
  QueryPool *pool;
  uint32_t index;
};

} // namespace vulkan_target
