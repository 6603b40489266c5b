// A Mux device: its capabilities and the factory for every other HAL object.
#pragma once

#include "mux/command_buffer.h"
#include "mux/device_activity.h"
#include "mux/device_info.h"
#include "mux/executable.h"
#include "mux/memory.h"
#include "mux/queue.h"

#include <memory>
#include <span>

namespace compiler {
class Target;
}

namespace mux {

class Device {
public:
  virtual ~Device() = default;
  virtual const DeviceInfo &info() const = 0;

  /// The compiler that produces binaries for createExecutable().
  virtual compiler::Target &compiler() = 0;

  /// Allocates `size` bytes with at least `properties` (MemoryProperty bits).
  virtual llvm::Expected<std::unique_ptr<Memory>> allocateMemory(uint64_t size, uint32_t properties,
                                                                 uint64_t alignment) = 0;
  /// Wraps application memory (CL_MEM_USE_HOST_PTR). Returns Unsupported when
  /// the device cannot address host memory; the caller then copies.
  virtual llvm::Expected<std::unique_ptr<Memory>> wrapHostMemory(void *pointer, uint64_t size) = 0;
  virtual llvm::Expected<std::unique_ptr<Buffer>> createBuffer(uint64_t size) = 0;
  /// Shared virtual memory (DeviceInfo::svmCapabilities): host-visible,
  /// coherent memory whose host address (map()) is also the device address
  /// of a buffer bound at its start, and which wrapHostMemory() wraps at
  /// that same address. `alignment` is a power of two. Unsupported on
  /// devices without SVM (the default).
  virtual llvm::Expected<std::unique_ptr<Memory>> allocateSharedMemory(uint64_t size, uint64_t alignment) {
    (void)size, (void)alignment;
    return makeError(Status::Unsupported, "the device has no shared virtual memory");
  }

  virtual llvm::Expected<std::unique_ptr<CommandBuffer>> createCommandBuffer() = 0;
  virtual llvm::Expected<std::unique_ptr<QueryPool>> createQueryPool(uint32_t count) = 0;
  virtual llvm::Expected<std::unique_ptr<Semaphore>> createSemaphore() = 0;
  virtual llvm::Expected<std::unique_ptr<Fence>> createFence() = 0;

  /// Loads a binary produced by this device's compiler().
  virtual llvm::Expected<std::unique_ptr<Executable>> createExecutable(std::span<const std::byte> binary) = 0;

  /// The device's queue (shared by every OpenCL command queue on it).
  virtual Queue &queue() = 0;

  /// Current device time, on the clock QueryPool timestamps use.
  virtual uint64_t timestampNs() const = 0;

  /// What the device is doing (cl_polymux_device_status): the target's
  /// memory, command buffers and queue report into it.
  DeviceActivity &activity() { return activity_; }
  const DeviceActivity &activity() const { return activity_; }
  /// Bytes of global memory free now. The default is globalMemSize less
  /// what activity() counts as allocated; a target that can ask its
  /// hardware (a driver's memory budget) may answer better.
  virtual uint64_t memoryAvailable() const {
    uint64_t allocated = activity_.bytesAllocated();
    return allocated >= info().globalMemSize ? 0 : info().globalMemSize - allocated;
  }

private:
  DeviceActivity activity_;
};

} // namespace mux
