// The host CPU as a Mux device. Memory, buffers, query pools and
// synchronisation come from the shared HostMemoryDevice; this class adds the
// compiler, the thread pool that runs kernels, and the queue.
#pragma once

#include "mux/support/host_memory_device.h"
#include "mux/support/thread_pool.h"
#include "mux/support/threaded_queue.h"

#include <memory>
#include <mutex>

namespace host {

class Device final : public mux::support::HostMemoryDevice {
public:
  Device(mux::DeviceInfo info, unsigned threads);
  ~Device() override;

  compiler::Target &compiler() override;

  llvm::Expected<std::unique_ptr<mux::CommandBuffer>> createCommandBuffer() override;
  llvm::Expected<std::unique_ptr<mux::Executable>> createExecutable(std::span<const std::byte> binary) override;
  mux::Queue &queue() override { return queue_; }

private:
  std::once_flag compilerOnce_;
  std::unique_ptr<compiler::Target> compiler_;
  mux::support::ThreadPool pool_;
  // Declared after the pool: destroyed first, so no dispatch outlives it.
  mux::support::ThreadedQueue queue_{&activity()};
};

} // namespace host
