#include "sync.h"

namespace vulkan_target {

llvm::Expected<std::unique_ptr<Semaphore>> Semaphore::create(SharedDevice device) {
  return std::unique_ptr<Semaphore>(new Semaphore(std::move(device)));
}

void Semaphore::reset() { signalSubmitted_.store(false, std::memory_order_release); }

} // namespace vulkan_target
