#include "retired_semaphores.h"

#include <algorithm>

namespace vulkan_target {

void RetiredSemaphores::retire(VkSemaphore semaphore, uint64_t value) {
  std::lock_guard lock(mutex_);
  retired_.push_back({{semaphore, value}, submissions_});
}

std::optional<RetiredSemaphores::Reusable> RetiredSemaphores::reuse() {
  std::lock_guard lock(mutex_);
  if (reusable_.empty())
    return std::nullopt;
  Reusable semaphore = reusable_.back();
  reusable_.pop_back();
  return semaphore;
}

uint64_t RetiredSemaphores::submitted() {
  std::lock_guard lock(mutex_);
  return ++submissions_;
}

void RetiredSemaphores::makeReusable(const Reusable &semaphore) {
  if (reusable_.size() < kMaxReusable)
    reusable_.push_back(semaphore);
  else
    vkDestroySemaphore(device_, semaphore.semaphore, nullptr);
}

void RetiredSemaphores::completed(uint64_t sequence) {
  std::lock_guard lock(mutex_);
  auto firstKept = std::stable_partition(retired_.begin(), retired_.end(), [&](const Retired &retired) {
    return retired.lastSubmissionBefore < sequence;
  });
  for (auto it = retired_.begin(); it != firstKept; ++it)
    makeReusable(it->semaphore);
  retired_.erase(retired_.begin(), firstKept);
}

bool RetiredSemaphores::empty() const {
  std::lock_guard lock(mutex_);
  return retired_.empty();
}

void RetiredSemaphores::releaseAll() {
  std::lock_guard lock(mutex_);
  for (const Retired &retired : retired_)
    makeReusable(retired.semaphore);
  retired_.clear();
}

void RetiredSemaphores::destroyAll() {
  std::lock_guard lock(mutex_);
  for (const Retired &retired : retired_)
    vkDestroySemaphore(device_, retired.semaphore.semaphore, nullptr);
  for (const Reusable &semaphore : reusable_)
    vkDestroySemaphore(device_, semaphore.semaphore, nullptr);
  retired_.clear();
  reusable_.clear();
}

} // namespace vulkan_target
