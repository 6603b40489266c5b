#include "retired_semaphores.h"

#include <algorithm>

namespace vulkan_target {

void RetiredSemaphores::retire(VkSemaphore semaphore) {
  std::lock_guard lock(mutex_);
  retired_.push_back({semaphore, submissions_});
}

uint64_t RetiredSemaphores::submitted() {
  std::lock_guard lock(mutex_);
  return ++submissions_;
}

void RetiredSemaphores::completed(uint64_t sequence) {
  std::vector<VkSemaphore> done;
  {
    std::lock_guard lock(mutex_);
    auto firstKept = std::stable_partition(retired_.begin(), retired_.end(), [&](const Retired &retired) {
      return retired.lastSubmissionBefore < sequence;
    });
    for (auto it = retired_.begin(); it != firstKept; ++it)
      done.push_back(it->semaphore);
    retired_.erase(retired_.begin(), firstKept);
  }
  for (VkSemaphore semaphore : done)
    vkDestroySemaphore(device_, semaphore, nullptr);
}

bool RetiredSemaphores::empty() const {
  std::lock_guard lock(mutex_);
  return retired_.empty();
}

void RetiredSemaphores::destroyAll() {
  std::vector<Retired> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(retired_);
  }
  for (const Retired &retired : all)
    vkDestroySemaphore(device_, retired.semaphore, nullptr);
}

} // namespace vulkan_target
