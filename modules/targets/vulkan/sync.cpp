#include "sync.h"

#include "vulkan_result.h"

namespace vulkan_target {

llvm::Expected<std::unique_ptr<Semaphore>> Semaphore::create(SharedDevice device) {
  if (std::optional<RetiredSemaphores::Reusable> reused = device->retiredSemaphores().reuse()) {
    // Counting on from its last signal's value (retired_semaphores.h).
    std::unique_ptr<Semaphore> semaphore(new Semaphore(std::move(device), reused->semaphore));
    semaphore->value_ = reused->value;
    return semaphore;
  }
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = 0;
  VkSemaphoreCreateInfo createInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  createInfo.pNext = &type;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  if (llvm::Error error =
          check(vkCreateSemaphore(device->get(), &createInfo, nullptr, &semaphore), "vkCreateSemaphore"))
    return error;
  return std::unique_ptr<Semaphore>(new Semaphore(std::move(device), semaphore));
}

Semaphore::~Semaphore() {
  if (device_->abandoned())
    return;
  // Reused once the queue is done with it (retired_semaphores.h).
  device_->retiredSemaphores().retire(semaphore_, value_);
}

void Semaphore::reset() { signalSubmitted_.store(false, std::memory_order_release); }

} // namespace vulkan_target
