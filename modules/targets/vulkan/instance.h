// The process's VkInstance, created through volk (the Vulkan loader is
// opened at run time) and shared by every vulkan device and target object.
#pragma once

#include "mux/status.h"

#include <memory>
#include <volk.h>

namespace vulkan_target {

class Instance {
public:
  /// The live instance, or a new one. Fails (Unsupported) when no Vulkan
  /// loader can be opened or it offers less than Vulkan 1.3.
  static llvm::Expected<std::shared_ptr<Instance>> acquire();
  ~Instance();
  Instance(const Instance &) = delete;
  Instance &operator=(const Instance &) = delete;

  VkInstance handle() const { return instance_; }

private:
  explicit Instance(VkInstance instance) : instance_(instance) {}
  VkInstance instance_;
};

} // namespace vulkan_target
