#include "process_exit.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace vulkan_target {
namespace {

std::atomic<bool> gone{false};

void markVulkanGone() { gone.store(true, std::memory_order_release); }

} // namespace

void watchProcessExit() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(markVulkanGone); });
}

bool vulkanGoneAtExit() { return gone.load(std::memory_order_acquire); }

} // namespace vulkan_target
