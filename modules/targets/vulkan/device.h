// One Vulkan physical device as a Mux device: owns the VkDevice, its compute
// queue, the pipeline cache and the device-wide helpers the other objects
// use (memory-type choice, the clock).
#pragma once

#include "device_clock.h"
#include "device_handle.h"
#include "instance.h"
#include "physical_device.h"
#include "pipeline_cache.h"
#include "queue.h"

#include "mux/device.h"
#include "mux/support/content_cache.h"

#include <memory>
#include <mutex>

namespace vulkan_target {

struct DeviceAllocation;
struct ShaderProgram;

class Device final : public mux::Device {
public:
  /// Creates the VkDevice with the features `facts` selected.
  static llvm::Expected<std::unique_ptr<Device>> create(std::shared_ptr<Instance> instance, PhysicalDevice facts);
  ~Device() override;

  const mux::DeviceInfo &info() const override { return info_; }
  compiler::Target &compiler() override;
  llvm::Expected<std::unique_ptr<mux::Memory>> allocateMemory(uint64_t size, uint32_t properties,
                                                              uint64_t alignment) override;
  llvm::Expected<std::unique_ptr<mux::Memory>> wrapHostMemory(void *pointer, uint64_t size) override;
  llvm::Expected<std::unique_ptr<mux::Buffer>> createBuffer(uint64_t size) override;
  llvm::Expected<std::unique_ptr<mux::CommandBuffer>> createCommandBuffer() override;
  llvm::Expected<std::unique_ptr<mux::QueryPool>> createQueryPool(uint32_t count) override;
  llvm::Expected<std::unique_ptr<mux::Semaphore>> createSemaphore() override;
  llvm::Expected<std::unique_ptr<mux::Fence>> createFence() override;
  llvm::Expected<std::unique_ptr<mux::Executable>> createExecutable(std::span<const std::byte> binary) override;
  mux::Queue &queue() override { return *queue_; }
  uint64_t timestampNs() const override;
  /// globalMemSize less the memory this process allocated on the device
  /// (other processes' use is not seen).
  uint64_t memoryAvailable() const override {
    uint64_t allocated = shared_->allocatedBytes();
    return allocated >= info_.globalMemSize ? 0 : info_.globalMemSize - allocated;
  }

  VkDevice handle() const { return device_; }
  /// Keeps the VkDevice alive for objects that may outlive this Device.
  const SharedDevice &shared() const { return shared_; }
  const PhysicalDevice &facts() const { return facts_; }
  PipelineCache &pipelineCache() { return *pipelineCache_; }
  /// Shader modules and pipelines of loaded programs, shared between
  /// programs with equal binaries (executable.h).
  mux::support::ContentCache<ShaderProgram> &shaderPrograms() { return shaderPrograms_; }

  /// The memory type for buffers with at least `properties` (MemoryProperty
  /// bits), preferring `preferred` (VkMemoryPropertyFlags) among them; -1
  /// when none has them.
  int chooseMemoryType(uint32_t properties, VkMemoryPropertyFlags preferred = 0) const;
  /// The MemoryProperty bits memory type `index` offers.
  uint32_t memoryProperties(uint32_t index) const;
  /// Memory types a buffer of ours may be bound to.
  uint32_t bufferMemoryTypeBits() const { return bufferMemoryTypeBits_; }
  /// Where a kernel's accesses outside its buffers go instead
  /// (compiler/abi/vulkan_kernel_abi.h: kAccessScratchSize bytes).
  uint64_t accessScratchAddress() const;

private:
  Device(std::shared_ptr<Instance> instance, PhysicalDevice facts, VkDevice device);
  llvm::Error initialize();

  std::shared_ptr<Instance> instance_;
  PhysicalDevice facts_;
  mux::DeviceInfo info_;
  VkDevice device_;
  SharedDevice shared_;
  uint32_t bufferMemoryTypeBits_ = 0;
  std::unique_ptr<DeviceClock> clock_;
  std::once_flag compilerOnce_;
  std::unique_ptr<compiler::Target> compiler_;
  std::unique_ptr<PipelineCache> pipelineCache_;
  /// The 32 programs loaded last stay alive: enough for the working set of
  /// an application or library that rebuilds its programs, few enough that
  /// the pipelines kept for nobody stay a small cost.
  mux::support::ContentCache<ShaderProgram> shaderPrograms_{32};
  std::unique_ptr<DeviceAllocation> accessScratch_;
  // Destroyed first: no dispatch outlives the objects above.
  std::unique_ptr<Queue> queue_;
};

} // namespace vulkan_target
