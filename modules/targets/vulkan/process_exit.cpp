#include "process_exit.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

namespace vulkan_target {
namespace {

std::atomic<bool> gone{false};

void markVulkanGone() { gone.store(true, std::memory_order_release); }

using Drain = std::function<void(std::chrono::steady_clock::time_point)>;

// Both leaked on purpose: a static's destructor registered after
// drainAtExit would run before it.
std::mutex &drainMutex() {
  static auto *mutex = new std::mutex;
  return *mutex;
}

std::vector<std::pair<const void *, Drain>> &drains() {
  static auto *list = new std::vector<std::pair<const void *, Drain>>;
  return *list;
}

void drainAtExit() {
  const auto deadline = std::chrono::steady_clock::now() + kExitDrainLimit;
  std::lock_guard lock(drainMutex());
  for (auto &[owner, drain] : drains())
    drain(deadline);
}

} // namespace

void watchWorkAtExit(const void *owner, Drain drain) {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(drainAtExit); });
  std::lock_guard lock(drainMutex());
  drains().emplace_back(owner, std::move(drain));
}

void forgetWorkAtExit(const void *owner) {
  std::lock_guard lock(drainMutex());
  std::erase_if(drains(), [&](const auto &entry) { return entry.first == owner; });
}

void watchProcessExit() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(markVulkanGone); });
}

bool vulkanGoneAtExit() { return gone.load(std::memory_order_acquire); }

} // namespace vulkan_target
