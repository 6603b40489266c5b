// cl_khr_command_buffer_mutable_dispatch: MutableCommand and the entry
// points that query and update mutable commands (mutable_command.h).
//
// An update builds each changed launch again, with clEnqueueNDRangeKernel's
// checks, from a fresh copy of the command's kernel on which the new
// argument values are set with clSetKernelArg's checks. Only when every
// launch of the update is valid are they swapped in and the command buffer's
// mux command buffer recorded again: a failed update changes nothing.
#include "mutable_command.h"

#include "command_buffer.h"
#include "command_buffer_entry_points.h"
#include "info.h"
#include "kernel.h"
#include "queue.h"

#include <new>
#include <span>

namespace polymux::cl {

MutableCommand::~MutableCommand() = default;

size_t workGroupCount(const MutableCommand::Launch &launch) {
  if (!launch.localGiven)
    return 1;
  size_t count = 1;
  for (cl_uint d = 0; d < launch.workDim; ++d) {
    if (launch.localSize[d] == 0)
      return 0; // invalid: buildKernelLaunch says so
    count *= (launch.globalSize[d] + launch.localSize[d] - 1) / launch.localSize[d];
  }
  return count;
}

namespace {

/// A launch of `command` built with `config` applied, not yet swapped in.
struct StagedLaunch {
  CommandBufferObject::LaunchUpdate update;
  MutableCommand::Launch launch;
};

/// `earlier`: the list's earlier updates; a later update of the same
/// command builds on the earlier one.
cl_int stageDispatch(CommandBufferObject &commandBuffer, const cl_mutable_dispatch_config_khr &config,
                     std::span<const StagedLaunch> earlier, StagedLaunch &staged) {
  MutableCommand *command = MutableCommand::fromHandle(config.command);
  if (!command || &command->owner() != &commandBuffer)
    return CL_INVALID_MUTABLE_COMMAND_KHR;
  if ((config.num_args > 0) != (config.arg_list != nullptr) ||
      (config.num_svm_args > 0) != (config.arg_svm_list != nullptr) ||
      (config.num_exec_infos > 0) != (config.exec_info_list != nullptr))
    return CL_INVALID_VALUE;

  const MutableCommand::Launch *base = &command->launch();
  for (const StagedLaunch &update : earlier)
    if (update.update.command == command)
      base = &update.launch;
  const MutableCommand::Launch &current = *base;
  const cl_mutable_dispatch_fields_khr updatable = current.updatable;
  auto allowed = [&](bool changes, cl_mutable_dispatch_fields_khr field) { return !changes || (updatable & field); };
  if (!allowed(config.num_args > 0 || config.num_svm_args > 0, CL_MUTABLE_DISPATCH_ARGUMENTS_KHR) ||
      !allowed(config.global_work_offset, CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR) ||
      !allowed(config.global_work_size, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR) ||
      !allowed(config.local_work_size, CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR) ||
      !allowed(config.num_exec_infos > 0, CL_MUTABLE_DISPATCH_EXEC_INFO_KHR))
    return CL_INVALID_OPERATION;
  // 0 keeps the dimensions; they cannot change.
  if (config.work_dim != 0 && config.work_dim != current.workDim)
    return CL_INVALID_VALUE;

  MutableCommand::Launch &next = staged.launch;
  next = current;
  if (config.num_args || config.num_svm_args || config.num_exec_infos) {
    // A copy of the kernel as the command last ran it takes the new values
    // (SVM pointers and exec info with clSetKernelArgSVMPointer's and
    // clSetKernelExecInfo's checks).
    cl_int code = CL_SUCCESS;
    cl_kernel copy = clCloneKernel(current.kernel->handle(), &code);
    if (!copy)
      return code;
    next.kernel = Ref<Kernel>(Kernel::fromHandle(copy));
    clReleaseKernel(copy); // only the command holds it
    for (cl_uint i = 0; i < config.num_args; ++i) {
      const cl_mutable_dispatch_arg_khr &arg = config.arg_list[i];
      if (cl_int code = clSetKernelArg(copy, arg.arg_index, arg.arg_size, arg.arg_value))
        return code;
    }
    for (cl_uint i = 0; i < config.num_svm_args; ++i) {
      const cl_mutable_dispatch_arg_khr &arg = config.arg_svm_list[i];
      if (cl_int code = clSetKernelArgSVMPointer(copy, arg.arg_index, arg.arg_value))
        return code;
    }
    for (cl_uint i = 0; i < config.num_exec_infos; ++i) {
      const cl_mutable_dispatch_exec_info_khr &info = config.exec_info_list[i];
      if (cl_int code = clSetKernelExecInfo(copy, info.param_name, info.param_value_size, info.param_value))
        return code;
    }
  }
  for (cl_uint d = 0; d < current.workDim; ++d) {
    if (config.global_work_offset)
      next.globalOffset[d] = config.global_work_offset[d];
    if (config.global_work_size)
      next.globalSize[d] = config.global_work_size[d];
    if (config.local_work_size)
      next.localSize[d] = config.local_work_size[d];
  }
  if (config.local_work_size)
    next.localGiven = true;
  // CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR: new sizes may
  // not make more work-groups than the launch was recorded with, and without
  // a local size of the application's that cannot be known.
  if (current.workGroupLimit && (config.global_work_size || config.local_work_size) &&
      (!next.localGiven || workGroupCount(next) > *current.workGroupLimit))
    return CL_INVALID_WORK_GROUP_SIZE;

  staged.update.command = command;
  cl_int code = buildKernelLaunch(
      commandBuffer.queue().handle(), next.kernel->handle(), next.workDim, next.globalOffset.data(),
      next.globalSize.data(), next.localGiven ? next.localSize.data() : nullptr, CL_COMMAND_NDRANGE_KERNEL,
      [&](CommandQueue &, Command &&built) {
        staged.update.built = std::move(built);
        return CL_SUCCESS;
      },
      &staged.update.launch);
  // A launch whose arguments an update may set can wait for further updates
  // (CL_COMMAND_BUFFER_STATE_FINALIZED_KHR until then).
  if (code == CL_INVALID_KERNEL_ARGS && (updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR)) {
    staged.update.deferred = true;
    return CL_SUCCESS;
  }
  return code;
}

cl_int updateMutableCommands(cl_command_buffer_khr handle, cl_uint numConfigs,
                             const cl_command_buffer_update_type_khr *configTypes, const void **configs) {
  CommandBufferObject *commandBuffer = CommandBufferObject::fromHandle(handle);
  if (!commandBuffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  std::lock_guard lock(commandBuffer->mutex());
  if (!commandBuffer->finalized() || !commandBuffer->mutableDispatch())
    return CL_INVALID_OPERATION;
  if (numConfigs == 0 || !configTypes || !configs)
    return CL_INVALID_VALUE;
  // Enqueues in flight keep the commands they were enqueued with
  // (CommandBufferObject::updateLaunches), so updating needs no wait.

  std::vector<StagedLaunch> staged(numConfigs);
  for (cl_uint i = 0; i < numConfigs; ++i) {
    // Kernel launches are the only commands this revision can update.
    if (configTypes[i] != CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR || !configs[i])
      return CL_INVALID_VALUE;
    const auto &config = *static_cast<const cl_mutable_dispatch_config_khr *>(configs[i]);
    if (cl_int code = stageDispatch(*commandBuffer, config, std::span<const StagedLaunch>(staged.data(), i), staged[i]))
      return code;
  }
  std::vector<CommandBufferObject::LaunchUpdate> updates;
  for (StagedLaunch &launch : staged) {
    launch.update.command->launch() = std::move(launch.launch);
    updates.push_back(std::move(launch.update));
  }
  return commandBuffer->updateLaunches(updates);
}

/// A size_t[3] answer has one value per dimension of the launch.
cl_int sizesInfo(const MutableCommand::Launch &launch, const std::array<size_t, 3> &values, size_t size, void *value,
                 size_t *sizeRet) {
  return writeInfoBytes(size, value, sizeRet, values.data(), launch.workDim * sizeof(size_t));
}

cl_int mutableCommandInfo(cl_mutable_command_khr handle, cl_mutable_command_info_khr param, size_t size, void *value,
                          size_t *sizeRet) {
  MutableCommand *command = MutableCommand::fromHandle(handle);
  if (!command)
    return CL_INVALID_MUTABLE_COMMAND_KHR;
  CommandBufferObject &owner = command->owner();
  std::lock_guard lock(owner.mutex());
  const MutableCommand::Launch &launch = command->launch();
  switch (param) {
  case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
    return writeInfo(size, value, sizeRet, static_cast<cl_command_queue>(owner.queue().handle()));
  case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
    return writeInfo(size, value, sizeRet, static_cast<cl_command_buffer_khr>(owner.handle()));
  case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
    return writeInfo(size, value, sizeRet, cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  case CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR:
    return writeInfoBytes(size, value, sizeRet, launch.properties.data(),
                          launch.properties.size() * sizeof(cl_command_properties_khr));
  case CL_MUTABLE_DISPATCH_KERNEL_KHR:
    return writeInfo(size, value, sizeRet, static_cast<cl_kernel>(launch.original->handle()));
  case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
    return writeInfo(size, value, sizeRet, launch.workDim);
  case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
    return sizesInfo(launch, launch.globalOffset, size, value, sizeRet);
  case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
    return sizesInfo(launch, launch.globalSize, size, value, sizeRet);
  case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
    return sizesInfo(launch, launch.localSize, size, value, sizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace

cl_int CL_API_CALL updateMutableCommandsKHR(cl_command_buffer_khr command_buffer, cl_uint num_configs,
                                            const cl_command_buffer_update_type_khr *config_types,
                                            const void **configs) try {
  return updateMutableCommands(command_buffer, num_configs, config_types, configs);
} catch (const std::bad_alloc &) {
  return CL_OUT_OF_HOST_MEMORY;
}

} // namespace polymux::cl

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetMutableCommandInfoKHR(cl_mutable_command_khr command,
                                                           cl_mutable_command_info_khr param_name,
                                                           size_t param_value_size, void *param_value,
                                                           size_t *param_value_size_ret) try {
  return polymux::cl::mutableCommandInfo(command, param_name, param_value_size, param_value, param_value_size_ret);
} catch (const std::bad_alloc &) {
  return CL_OUT_OF_HOST_MEMORY;
}

} // extern "C"
