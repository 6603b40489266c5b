// cl_khr_command_buffer for tests: the extension's entry points looked up
// through clGetExtensionFunctionAddressForPlatform (the ICD loader does not
// export them), an RAII holder for command buffers, and a fixture that skips
// devices without the extension.
#pragma once

#include "cl_test.h"

#include "CL/cl_khr_command_buffer_next.h"

namespace cltest {

struct CommandBufferApi {
  clCreateCommandBufferKHR_fn create = nullptr;
  clFinalizeCommandBufferKHR_fn finalize = nullptr;
  clRetainCommandBufferKHR_fn retain = nullptr;
  clReleaseCommandBufferKHR_fn release = nullptr;
  clEnqueueCommandBufferKHR_fn enqueue = nullptr;
  clCommandBarrierWithWaitListKHR_fn barrier = nullptr;
  clCommandCopyBufferKHR_fn copy = nullptr;
  clCommandCopyBufferRectKHR_fn copyRect = nullptr;
  clCommandFillBufferKHR_fn fill = nullptr;
  clCommandNDRangeKernelKHR_fn ndrange = nullptr;
  clGetCommandBufferInfoKHR_fn info = nullptr;
  clUpdateMutableCommandsKHR_fn update = nullptr;
  clGetMutableCommandInfoKHR_fn mutableInfo = nullptr;

  /// Looks every function up; false (with a test failure) when one of the
  /// cl_khr_command_buffer functions is missing.
  bool load();
};

/// Owns one command buffer reference.
class CommandBuffer {
public:
  CommandBuffer() = default;
  CommandBuffer(const CommandBufferApi &api, cl_command_buffer_khr handle) : api_(&api), handle_(handle) {}
  CommandBuffer(CommandBuffer &&other) noexcept : api_(other.api_), handle_(std::exchange(other.handle_, nullptr)) {}
  CommandBuffer(const CommandBuffer &) = delete;
  CommandBuffer &operator=(const CommandBuffer &) = delete;
  ~CommandBuffer() {
    if (handle_)
      api_->release(handle_);
  }
  cl_command_buffer_khr get() const { return handle_; }
  operator cl_command_buffer_khr() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  cl_command_buffer_khr release() { return std::exchange(handle_, nullptr); }

private:
  const CommandBufferApi *api_ = nullptr;
  cl_command_buffer_khr handle_ = nullptr;
};

/// DeviceTest on devices that report cl_khr_command_buffer (others skip).
class CommandBufferTest : public DeviceTest {
protected:
  void SetUp() override;
  /// A command buffer on `queue` (the fixture's queue when null).
  CommandBuffer create(const cl_command_buffer_properties_khr *properties = nullptr, cl_command_queue queue = nullptr);
  cl_command_buffer_state_khr state(cl_command_buffer_khr commandBuffer);

  CommandBufferApi api_;
};

} // namespace cltest
