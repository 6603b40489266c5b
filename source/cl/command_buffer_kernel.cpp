// clCommandNDRangeKernelKHR's own part: the command properties and, for
// cl_khr_command_buffer_mutable_dispatch, the mutable handle and what it
// keeps to record the launch again (mutable_command.h).
#include "command_buffer.h"

#include "device.h"
#include "kernel.h"
#include "mutable_command.h"

namespace polymux::cl {

cl_int recordKernelCommand(CommandBufferObject &commandBuffer, cl_command_queue queue,
                           const cl_command_properties_khr *properties, cl_kernel kernel, cl_uint workDim,
                           const size_t *globalWorkOffset, const size_t *globalWorkSize, const size_t *localWorkSize,
                           cl_sync_point_khr *syncPoint, cl_mutable_command_khr *mutableHandle) {
  const bool mutableDispatch = commandBuffer.queue().device().hasExtension("cl_khr_command_buffer_mutable_dispatch");
  // Without the property, every field the device can update may be.
  const cl_mutable_dispatch_fields_khr capabilities = mutableDispatchCapabilities(commandBuffer.queue().device());
  cl_mutable_dispatch_fields_khr updatable = capabilities;
  cl_mutable_dispatch_asserts_khr asserts = commandBuffer.mutableDispatchAsserts();
  std::vector<cl_command_properties_khr> array;
  if (properties) {
    bool fieldsSeen = false, assertsSeen = false;
    for (const cl_command_properties_khr *p = properties; *p; p += 2) {
      if (!mutableDispatch)
        return CL_INVALID_VALUE;
      if (p[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR && !fieldsSeen) {
        if (p[1] & ~capabilities)
          return CL_INVALID_VALUE;
        fieldsSeen = true;
        updatable = p[1];
      } else if (p[0] == CL_MUTABLE_DISPATCH_ASSERTS_KHR && !assertsSeen) {
        // The application's promise about its updates, which they are
        // checked against (stageDispatch).
        if (p[1] & ~cl_mutable_dispatch_asserts_khr(CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR))
          return CL_INVALID_VALUE;
        assertsSeen = true;
        asserts |= p[1];
      } else {
        return CL_INVALID_VALUE;
      }
      array.insert(array.end(), {p[0], p[1]});
    }
    array.push_back(0);
  }
  if (mutableHandle && !mutableDispatch)
    return CL_INVALID_VALUE;

  auto plainSink = [&](CommandQueue &, Command &&command) {
    return commandBuffer.record(std::move(command), syncPoint);
  };
  if (!mutableHandle)
    return buildKernelLaunch(queue, kernel, workDim, globalWorkOffset, globalWorkSize, localWorkSize,
                             CL_COMMAND_NDRANGE_KERNEL, plainSink);

  // A mutable launch runs a copy of the kernel holding the argument values
  // of now, on which updates set new values with clSetKernelArg's checks.
  Kernel *original = Kernel::fromHandle(kernel);
  if (!original)
    return CL_INVALID_KERNEL;
  cl_int code = CL_SUCCESS;
  cl_kernel cloneHandle = clCloneKernel(kernel, &code);
  if (!cloneHandle)
    return code;
  Ref<Kernel> clone(Kernel::fromHandle(cloneHandle));
  clReleaseKernel(cloneHandle); // only the command buffer holds it

  MutableCommand *handle = nullptr;
  code = buildKernelLaunch(
      queue, clone->handle(), workDim, globalWorkOffset, globalWorkSize, localWorkSize, CL_COMMAND_NDRANGE_KERNEL,
      [&](CommandQueue &, Command &&command) { return commandBuffer.record(std::move(command), syncPoint, &handle); });
  // Arguments an update may set can be missing now (mutable dispatch 0.9.5):
  // the launch is recorded once an update has set them all. The arguments
  // are the last thing buildKernelLaunch checks, so the rest is valid.
  if (code == CL_INVALID_KERNEL_ARGS && (updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR))
    code = commandBuffer.recordDeferred(syncPoint, &handle);
  if (code != CL_SUCCESS)
    return code;
  MutableCommand::Launch &recorded = handle->launch();
  recorded.original = Ref<Kernel>(original);
  recorded.kernel = std::move(clone);
  recorded.workDim = workDim;
  for (cl_uint d = 0; d < workDim; ++d) {
    recorded.globalOffset[d] = globalWorkOffset ? globalWorkOffset[d] : 0;
    recorded.globalSize[d] = globalWorkSize ? globalWorkSize[d] : 0;
    recorded.localSize[d] = localWorkSize ? localWorkSize[d] : 0;
  }
  recorded.localGiven = localWorkSize != nullptr;
  recorded.updatable = updatable;
  if (asserts & CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR)
    recorded.workGroupLimit = workGroupCount(recorded);
  recorded.properties = std::move(array);
  *mutableHandle = handle->handle();
  return CL_SUCCESS;
}

} // namespace polymux::cl
