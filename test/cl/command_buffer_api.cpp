// cl_khr_command_buffer test helpers (command_buffer_api.h).
#include "command_buffer_api.h"

namespace cltest {

bool CommandBufferApi::load() {
  create = extensionFunction<clCreateCommandBufferKHR_fn>("clCreateCommandBufferKHR");
  finalize = extensionFunction<clFinalizeCommandBufferKHR_fn>("clFinalizeCommandBufferKHR");
  retain = extensionFunction<clRetainCommandBufferKHR_fn>("clRetainCommandBufferKHR");
  release = extensionFunction<clReleaseCommandBufferKHR_fn>("clReleaseCommandBufferKHR");
  enqueue = extensionFunction<clEnqueueCommandBufferKHR_fn>("clEnqueueCommandBufferKHR");
  barrier = extensionFunction<clCommandBarrierWithWaitListKHR_fn>("clCommandBarrierWithWaitListKHR");
  copy = extensionFunction<clCommandCopyBufferKHR_fn>("clCommandCopyBufferKHR");
  copyRect = extensionFunction<clCommandCopyBufferRectKHR_fn>("clCommandCopyBufferRectKHR");
  fill = extensionFunction<clCommandFillBufferKHR_fn>("clCommandFillBufferKHR");
  ndrange = extensionFunction<clCommandNDRangeKernelKHR_fn>("clCommandNDRangeKernelKHR");
  info = extensionFunction<clGetCommandBufferInfoKHR_fn>("clGetCommandBufferInfoKHR");
  update = extensionFunction<clUpdateMutableCommandsKHR_fn>("clUpdateMutableCommandsKHR");
  mutableInfo = extensionFunction<clGetMutableCommandInfoKHR_fn>("clGetMutableCommandInfoKHR");
  const bool all =
      create && finalize && retain && release && enqueue && barrier && copy && copyRect && fill && ndrange && info;
  EXPECT_TRUE(all) << "a cl_khr_command_buffer function is missing";
  return all;
}

void CommandBufferTest::SetUp() {
  DeviceTest::SetUp();
  if (HasFatalFailure())
    return;
  // Every Polymux target offers command buffers.
  ASSERT_TRUE(deviceHasExtension(device(), "cl_khr_command_buffer"));
  ASSERT_TRUE(api_.load());
}

CommandBuffer CommandBufferTest::create(const cl_command_buffer_properties_khr *properties, cl_command_queue queue) {
  cl_command_queue queues[] = {queue ? queue : queue_.get()};
  cl_int err = CL_SUCCESS;
  CommandBuffer commandBuffer(api_, api_.create(1, queues, properties, &err));
  EXPECT_CL(err) << " clCreateCommandBufferKHR";
  return commandBuffer;
}

cl_command_buffer_state_khr CommandBufferTest::state(cl_command_buffer_khr commandBuffer) {
  cl_command_buffer_state_khr value = ~0u;
  EXPECT_CL(api_.info(commandBuffer, CL_COMMAND_BUFFER_STATE_KHR, sizeof value, &value, nullptr));
  return value;
}

} // namespace cltest
