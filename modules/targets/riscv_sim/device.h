// The simulated RISC-V accelerator as a Mux device. Its DRAM is a window of
// guest addresses backed by host memory (a WindowArena), so the shared CPU
// memory helpers serve its memory, buffers and transfers; this class adds
// the harts, the compiler, program loading and kernel launches. The queue's
// thread is the device's command processor.
#pragma once

#include "device_description.h"
#include "executable.h"
#include "hart_array.h"

#include "mux/support/host_memory_device.h"
#include "mux/support/memory_arena.h"
#include "mux/support/threaded_queue.h"

#include <memory>
#include <mutex>

namespace riscv_sim {

class Device final : public mux::support::HostMemoryDevice {
public:
  /// OutOfMemory when the host cannot reserve the DRAM window or the harts'
  /// local memories.
  static llvm::Expected<std::unique_ptr<Device>> create(DeviceDescription description);
  ~Device() override;

  compiler::Target &compiler() override;
  llvm::Expected<std::unique_ptr<mux::CommandBuffer>> createCommandBuffer() override;
  llvm::Expected<std::unique_ptr<mux::Executable>> createExecutable(std::span<const std::byte> binary) override;
  mux::Queue &queue() override { return queue_; }

  const DeviceDescription &description() const { return description_; }
  mux::support::WindowArena &dram() const { return *dram_; }
  HartArray &harts() { return *harts_; }

private:
  Device(DeviceDescription description, std::unique_ptr<mux::support::WindowArena> dram,
         std::unique_ptr<HartArray> harts);

  DeviceDescription description_;
  std::unique_ptr<mux::support::WindowArena> dram_;
  std::unique_ptr<HartArray> harts_;
  std::once_flag compilerOnce_;
  std::unique_ptr<compiler::Target> compiler_;
  // Declared last: destroyed first, so no dispatch outlives the harts.
  mux::support::ThreadedQueue queue_{&activity()};
};

/// What the device reports to clGetDeviceInfo.
mux::DeviceInfo describeDevice(const DeviceDescription &description);

/// The device's compiler (compiler.cpp).
std::unique_ptr<compiler::Target> createCompiler(const DeviceDescription &description, const mux::DeviceInfo &info);

} // namespace riscv_sim
