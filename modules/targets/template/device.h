// The template device. It derives from mux::support::HostMemoryDevice, which
// implements memory, buffers, query pools, semaphores, fences and the
// timestamp clock over host RAM; the command buffers and queue below are the
// shared host helpers too. That is enough for a simulator or for bring-up;
// for real hardware replace, one at a time:
//   - memory:          override allocateMemory / wrapHostMemory / createBuffer
//                      (HostMemory / HostBuffer -> your allocator). A device
//                      that cannot address host memory returns Unsupported
//                      from wrapHostMemory; the OpenCL layer then copies for
//                      CL_MEM_USE_HOST_PTR.
//   - command buffers: mux::support::HostCommandBuffer -> your command encoder
//   - queue and sync:  ThreadedQueue, and override createSemaphore /
//                      createFence / createQueryPool / timestampNs (CpuSemaphore,
//                      CpuFence, HostQueryPool, host clock) -> your submission
// The HAL contract each must keep is in include/mux/*.h; test/mux checks it.
#pragma once

#include "mux/support/host_memory_device.h"
#include "mux/support/threaded_queue.h"

#include <memory>

namespace template_target {

class Device final : public mux::support::HostMemoryDevice {
public:
  Device();
  ~Device() override;

  compiler::Target &compiler() override { return *compiler_; }

  llvm::Expected<std::unique_ptr<mux::CommandBuffer>> createCommandBuffer() override;
  llvm::Expected<std::unique_ptr<mux::Executable>> createExecutable(std::span<const std::byte> binary) override;
  mux::Queue &queue() override { return queue_; }

private:
  std::unique_ptr<compiler::Target> compiler_;
  mux::support::ThreadedQueue queue_{&activity()};
};

/// VENDOR: your compiler::Target (source/compiler holds the shared front end
/// and passes). The template has none: every entry point says Unsupported.
std::unique_ptr<compiler::Target> createCompiler();

/// VENDOR: what your device reports to clGetDeviceInfo.
mux::DeviceInfo describeDevice();

} // namespace template_target
