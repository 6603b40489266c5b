#include "run_state.h"

#include "callbacks.h"

namespace stress {

RunState::RunState(const Options &options, const DeviceFacts &device)
    : options(options), device(device), programs(*this) {
  cl_int err = CL_SUCCESS;
  context.reset(clCreateContext(nullptr, 1, &device.id, onContextNotify, &tally, &err));
  ok(err, "clCreateContext");
}

} // namespace stress
