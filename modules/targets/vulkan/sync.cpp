#include "sync.h"

#include "vulkan_result.h"

namespace vulkan_target {

llvm::Expected<std::unique_ptr<Semaphore>> Semaphore::create(SharedDevice device) {
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
  // A fence can report a submission complete before the driver is done
  // signalling its semaphores (lavapipe 22.3 then touched a destroyed
  // semaphore from its queue thread): wait for the last signal first. A
  // signal whose submission failed never comes, hence the bound.
  if (value_ > 0) {
    VkSemaphoreWaitInfo waitInfo{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    waitInfo.semaphoreCount = 1;
    waitInfo.pSemaphores = &semaphore_;
    waitInfo.pValues = &value_;
    vkWaitSemaphores(device_->get(), &waitInfo, 1'000'000'000);
  }
  vkDestroySemaphore(device_->get(), semaphore_, nullptr);
}

void Semaphore::reset() { signalSubmitted_.store(false, std::memory_order_release); }

} // namespace vulkan_target
