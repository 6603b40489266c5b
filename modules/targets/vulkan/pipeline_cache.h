// The device's VkPipelineCache, kept on disk beside the kernel cache
// (mux/support/cache_directory.h: POLYMUX_CACHE=0 disables it, a path moves
// it) so that pipelines compiled once are not compiled by the driver again
// in the next process.
#pragma once

#include "physical_device.h"

#include <optional>
#include <string>
#include <volk.h>

namespace vulkan_target {

class PipelineCache {
public:
  /// Loads the cache file of this device and driver when there is one; a
  /// missing, foreign or damaged file gives an empty cache.
  PipelineCache(VkDevice device, const PhysicalDevice &facts);
  /// Saves the cache (when caching is enabled and it changed).
  ~PipelineCache();
  PipelineCache(const PipelineCache &) = delete;
  PipelineCache &operator=(const PipelineCache &) = delete;

  VkPipelineCache handle() const { return cache_; }
  /// Writes the cache file now (atomically: a temporary file renamed).
  void save();
  /// The file this device's cache lives in; none when caching is disabled.
  const std::optional<std::string> &path() const { return path_; }

private:
  VkDevice device_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::optional<std::string> path_;
  size_t loadedSize_ = 0;
};

} // namespace vulkan_target
