// A command buffer recorded and submitted once on a bare VkQueue, before the
// device's Queue takes it over (the clock's calibration, the fp64 probe),
// with a command pool and a fence of its own.
#pragma once

#include "llvm/Support/Error.h"

#include <memory>
#include <volk.h>

namespace vulkan_target {

class OneTimeCommands {
public:
  /// A command buffer of `queueFamily`, recording.
  static llvm::Expected<std::unique_ptr<OneTimeCommands>> begin(VkDevice device, uint32_t queueFamily);
  ~OneTimeCommands();
  OneTimeCommands(const OneTimeCommands &) = delete;
  OneTimeCommands &operator=(const OneTimeCommands &) = delete;

  VkCommandBuffer commands() const { return commands_; }
  /// Ends recording.
  llvm::Error end();
  /// Submits it on `queue` (nothing else: callers time the submission).
  llvm::Error submit(VkQueue queue);
  /// Waits at most `timeoutNs` for the submission. When that fails, the pool
  /// and the fence are left alive (the work may still run), and so must be
  /// what the commands use.
  llvm::Error wait(uint64_t timeoutNs);

private:
  explicit OneTimeCommands(VkDevice device) : device_(device) {}

  VkDevice device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
};

} // namespace vulkan_target
