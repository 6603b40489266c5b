// The host CPU as a Mux device.
#pragma once

#include "mux/device.h"
#include "mux/support/threaded_queue.h"
#include "thread_pool.h"

#include <memory>
#include <mutex>

namespace host {

class Device final : public mux::Device {
public:
  Device(mux::DeviceInfo info, unsigned threads);
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
  mux::Queue &queue() override { return queue_; }
  uint64_t timestampNs() const override;

private:
  mux::DeviceInfo info_;
  std::once_flag compilerOnce_;
  std::unique_ptr<compiler::Target> compiler_;
  ThreadPool pool_;
  // Declared after the pool: destroyed first, so no dispatch outlives it.
  mux::support::ThreadedQueue queue_;
};

} // namespace host
