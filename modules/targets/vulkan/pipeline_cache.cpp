#include "pipeline_cache.h"

#include "mux/support/cache_directory.h"
#include "mux/support/log.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <unistd.h>
#include <vector>

namespace vulkan_target {
namespace {

std::string hex(const uint8_t *bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < size; ++i) {
    text += digits[bytes[i] >> 4];
    text += digits[bytes[i] & 15];
  }
  return text;
}

/// One file per driver build (pipelineCacheUUID) and device, so two devices
/// or drivers never read each other's data.
std::optional<std::string> cachePath(const PhysicalDevice &facts) {
  std::optional<std::string> directory = mux::support::cacheDirectory();
  if (!directory)
    return std::nullopt;
  llvm::SmallString<256> path(*directory);
  llvm::sys::path::append(path, "vulkan-pipelines-" + hex(facts.properties.pipelineCacheUUID, VK_UUID_SIZE) + "-" +
                                    hex(facts.properties11.deviceUUID, VK_UUID_SIZE) + ".bin");
  return std::string(path);
}

/// Whether `data` starts with a header Vulkan version one describes for
/// this device: drivers should reject foreign data themselves, but not all
/// are robust against it.
bool headerMatches(llvm::StringRef data, const PhysicalDevice &facts) {
  if (data.size() < 16 + VK_UUID_SIZE)
    return false;
  uint32_t header[4];
  std::memcpy(header, data.data(), sizeof(header));
  return header[0] >= 16 + VK_UUID_SIZE && header[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
         header[2] == facts.properties.vendorID && header[3] == facts.properties.deviceID &&
         std::memcmp(data.data() + 16, facts.properties.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

} // namespace

PipelineCache::PipelineCache(VkDevice device, const PhysicalDevice &facts) : device_(device), path_(cachePath(facts)) {
  std::unique_ptr<llvm::MemoryBuffer> file;
  if (path_) {
    auto loaded = llvm::MemoryBuffer::getFile(*path_, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (loaded && headerMatches((*loaded)->getBuffer(), facts))
      file = std::move(*loaded);
  }
  VkPipelineCacheCreateInfo createInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  if (file) {
    createInfo.initialDataSize = file->getBufferSize();
    createInfo.pInitialData = file->getBufferStart();
  }
  if (vkCreatePipelineCache(device_, &createInfo, nullptr, &cache_) != VK_SUCCESS && file) {
    // Rejected data: start empty.
    createInfo.initialDataSize = 0;
    createInfo.pInitialData = nullptr;
    vkCreatePipelineCache(device_, &createInfo, nullptr, &cache_);
  }
  loadedSize_ = file ? file->getBufferSize() : 0;
}

PipelineCache::~PipelineCache() {
  if (cache_ == VK_NULL_HANDLE)
    return;
  save();
  vkDestroyPipelineCache(device_, cache_, nullptr);
}

void PipelineCache::save() {
  if (!path_ || cache_ == VK_NULL_HANDLE)
    return;
  size_t size = 0;
  if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS || size == 0 || size == loadedSize_)
    return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device_, cache_, &size, data.data()) != VK_SUCCESS)
    return;
  // I/O errors only cost a recompilation next time.
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(*path_)))
    return;
  std::string temporary = *path_ + ".tmp" + std::to_string(::getpid());
  {
    std::error_code error;
    llvm::raw_fd_ostream out(temporary, error, llvm::sys::fs::OF_None);
    if (error)
      return;
    out.write(data.data(), size);
    out.close();
    if (out.has_error()) {
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      return;
    }
  }
  if (llvm::sys::fs::rename(temporary, *path_)) {
    llvm::sys::fs::remove(temporary);
    return;
  }
  loadedSize_ = size;
  mux::support::log(mux::support::LogLevel::Debug, "vulkan", "saved pipeline cache " + *path_);
}

} // namespace vulkan_target
