// The template device. Every HAL object it hands out comes from the shared
// helpers in include/mux/support/, which keep buffers in host RAM and run
// command buffers on a host thread. That is enough for a simulator or for
// bring-up; for real hardware replace, one at a time:
//   - memory:          mux::support::HostMemory / HostBuffer  -> your allocator
//   - command buffers: mux::support::HostCommandBuffer         -> your command encoder
//   - queue and sync:  ThreadedQueue / CpuSemaphore / CpuFence -> your submission
// The HAL contract each must keep is in include/mux/*.h; test/mux checks it.
#pragma once

#include "mux/device.h"
#include "mux/support/threaded_queue.h"

#include <memory>

namespace template_target {

class Device final : public mux::Device {
public:
  Device();
  ~Device() override;

  const mux::DeviceInfo &info() const override { return info_; }
  compiler::Target &compiler() override { return *compiler_; }

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
  std::unique_ptr<compiler::Target> compiler_;
  mux::support::ThreadedQueue queue_;
};

/// VENDOR: your compiler::Target (source/compiler holds the shared front end
/// and passes). The template has none: every entry point says Unsupported.
std::unique_ptr<compiler::Target> createCompiler();

/// VENDOR: what your device reports to clGetDeviceInfo.
mux::DeviceInfo describeDevice();

} // namespace template_target
