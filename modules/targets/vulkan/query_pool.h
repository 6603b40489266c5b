// mux::QueryPool as a Vulkan timestamp query pool; ticks are converted to
// nanoseconds on the clock of Device::timestampNs().
#pragma once

#include "device_handle.h"

#include "mux/command_buffer.h"

#include <volk.h>

namespace vulkan_target {

class Device;

class QueryPool final : public mux::QueryPool {
public:
  static llvm::Expected<std::unique_ptr<QueryPool>> create(Device &device, uint32_t count);
  ~QueryPool() override;
  uint32_t count() const override { return count_; }
  /// 0 for a slot never written (or out of range).
  uint64_t timestampNs(uint32_t index) const override;
  VkQueryPool handle() const { return pool_; }

private:
  QueryPool(Device &device, SharedDevice owner, VkQueryPool pool, uint32_t count)
      : device_(device), owner_(std::move(owner)), pool_(pool), count_(count) {}
  Device &device_;
  SharedDevice owner_;
  VkQueryPool pool_;
  uint32_t count_;
};

} // namespace vulkan_target
