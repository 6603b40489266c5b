#include "query_pool.h"

#include "device.h"
#include "vulkan_result.h"

namespace vulkan_target {

llvm::Expected<std::unique_ptr<QueryPool>> QueryPool::create(Device &device, uint32_t count) {
  if (count == 0)
    return mux::makeError(mux::Status::InvalidArgument, "query pool of 0 slots");
  if (device.facts().timestampValidBits == 0)
    return mux::makeError(mux::Status::Unsupported, "the device's compute queue has no timestamps");
  VkQueryPoolCreateInfo createInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  createInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  createInfo.queryCount = count;
  VkQueryPool pool = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateQueryPool(device.handle(), &createInfo, nullptr, &pool), "vkCreateQueryPool"))
    return error;
  // Slots never written must read as unavailable, not undefined.
  if (device.facts().features12.hostQueryReset)
    vkResetQueryPool(device.handle(), pool, 0, count);
  return std::unique_ptr<QueryPool>(new QueryPool(device, device.shared(), pool, count));
}

QueryPool::~QueryPool() {
  owner_->noteDestroyed();
  if (!owner_->abandoned())
    vkDestroyQueryPool(owner_->get(), pool_, nullptr);
}

uint64_t QueryPool::timestampNs(uint32_t index) const {
  return index < count_ ? results_[index].load(std::memory_order_acquire) : 0;
}

std::optional<uint64_t> QueryPool::readTicks(uint32_t index) const {
  uint64_t result[2] = {0, 0}; // value, availability
  VkResult status = vkGetQueryPoolResults(device_.handle(), pool_, index, 1, sizeof(result), result, sizeof(result),
                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  if ((status != VK_SUCCESS && status != VK_NOT_READY) || !result[1])
    return std::nullopt;
  const uint32_t bits = device_.facts().timestampValidBits;
  return bits < 64 ? result[0] & ((uint64_t(1) << bits) - 1) : result[0];
}

} // namespace vulkan_target
