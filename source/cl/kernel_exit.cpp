// cl_polymux_kernel_exit's host API: clRegisterProgramErrorMessagePOLYMUX,
// clRegisterKernelErrorMessagePOLYMUX and clGetKernelExecutionStatusPOLYMUX.
#include "kernel_exit.h"

#include "event.h"
#include "event_impl.h"
#include "info.h"
#include "program.h"
#include "program_impl.h"

#include "CL/cl_ext_polymux.h"
#include "mux/kernel_exit.h"

#include <algorithm>

using namespace polymux::cl;

namespace polymux::cl {

void KernelExitMessages::registerForProgram(int32_t code, std::string message) {
  std::lock_guard lock(mutex_);
  program_[code] = std::move(message);
}

void KernelExitMessages::registerForKernel(std::string kernel, int32_t code, std::string message) {
  std::lock_guard lock(mutex_);
  kernels_[{std::move(kernel), code}] = std::move(message);
}

std::optional<std::string> KernelExitMessages::find(std::string_view kernel, int32_t code) const {
  std::lock_guard lock(mutex_);
  if (auto it = kernels_.find(std::pair<std::string, int32_t>(kernel, code)); it != kernels_.end())
    return it->second;
  if (auto it = program_.find(code); it != program_.end())
    return it->second;
  return std::nullopt;
}

} // namespace polymux::cl

namespace {

static_assert(CL_KERNEL_EXIT_SEARCH_COMPLETE_POLYMUX == mux::kernel_exit::SearchComplete &&
              CL_KERNEL_EXIT_OUT_OF_BOUNDS_POLYMUX == mux::kernel_exit::OutOfBounds &&
              CL_KERNEL_EXIT_ARITHMETIC_FAULT_POLYMUX == mux::kernel_exit::ArithmeticFault &&
              CL_KERNEL_EXIT_STACK_OVERFLOW_POLYMUX == mux::kernel_exit::StackOverflow &&
              CL_KERNEL_EXIT_INVALID_STATUS_POLYMUX == mux::kernel_exit::InvalidStatus &&
              CL_KERNEL_EXIT_DEVICE_FAULT_POLYMUX == mux::kernel_exit::DeviceFault);

/// The implementation's message for `status` when the application
/// registered none: the device's explanation of a fault, else what the
/// reserved codes mean.
std::string implementationMessage(int32_t status, const std::string &detail) {
  if (!detail.empty())
    return detail;
  switch (status) {
  case mux::kernel_exit::SearchComplete:
    return "EXIT_SEARCH_COMPLETE: the search is complete";
  case mux::kernel_exit::OutOfBounds:
    return "EXIT_OUT_OF_BOUNDS: a buffer access was out of bounds";
  case mux::kernel_exit::ArithmeticFault:
    return "EXIT_ARITHMETIC_FAULT: an integer division trapped";
  case mux::kernel_exit::StackOverflow:
    return "EXIT_STACK_OVERFLOW: the kernel overflowed its stack";
  case mux::kernel_exit::InvalidStatus:
    return "EXIT_INVALID_STATUS: kernel_exit was called with INT32_MIN, which is reserved";
  case mux::kernel_exit::DeviceFault:
    return "EXIT_DEVICE_FAULT: the device stopped the kernel";
  case CL_KERNEL_EXIT_NOT_RUN_POLYMUX:
    return "the command failed without running the kernel to an exit (see its event's execution status)";
  default:
    return {};
  }
}

bool isKernelCommand(cl_command_type type) { return type == CL_COMMAND_NDRANGE_KERNEL || type == CL_COMMAND_TASK; }

} // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clRegisterProgramErrorMessagePOLYMUX(cl_program program, cl_int error_code,
                                                                     const char *message) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  if (error_code <= 0 || !message)
    return CL_INVALID_VALUE;
  try {
    p->impl().exitMessages->registerForProgram(error_code, message);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRegisterKernelErrorMessagePOLYMUX(cl_program program, const char *kernel_name,
                                                                    cl_int error_code, const char *message) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  if (!kernel_name || error_code <= 0 || !message)
    return CL_INVALID_VALUE;
  try {
    std::optional<std::vector<std::string>> names = p->kernelNames();
    if (!names)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    if (std::find(names->begin(), names->end(), kernel_name) == names->end())
      return CL_INVALID_KERNEL_NAME;
    p->impl().exitMessages->registerForKernel(kernel_name, error_code, message);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelExecutionStatusPOLYMUX(cl_event event,
                                                                  cl_kernel_status_info_POLYMUX param_name,
                                                                  size_t param_value_size, void *param_value,
                                                                  size_t *param_value_size_ret) {
  Event *e = Event::fromHandle(event);
  if (!e || !e->queue() || !isKernelCommand(e->commandType()))
    return CL_INVALID_EVENT;
  if (param_name != CL_KERNEL_STATUS_EXIT_CODE_POLYMUX && param_name != CL_KERNEL_STATUS_EXIT_MSG_POLYMUX)
    return CL_INVALID_VALUE;
  const cl_int executionStatus = e->status(); // acquires what the device timeline wrote before it
  if (executionStatus > CL_COMPLETE)
    return CL_INVALID_OPERATION; // not finished yet
  const Event::Impl &impl = e->impl();
  const KernelExitState *state = impl.kernelExit ? &*impl.kernelExit : nullptr;
  int32_t status = 0;
  if (state && state->status)
    status = *state->status;
  else if (executionStatus < 0)
    status = CL_KERNEL_EXIT_NOT_RUN_POLYMUX;
  try {
    if (param_name == CL_KERNEL_STATUS_EXIT_CODE_POLYMUX)
      return writeInfo(param_value_size, param_value, param_value_size_ret, cl_int(status));
    std::optional<std::string> registered;
    if (state && state->messages && status > 0)
      registered = state->messages->find(state->kernelName, status);
    std::string message = registered ? *registered : implementationMessage(status, state ? state->detail : "");
    return writeInfoString(param_value_size, param_value, param_value_size_ret, message);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

} // extern "C"
