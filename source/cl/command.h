// A command as the OpenCL layer hands it to a CommandQueue: how to record it
// into a mux::CommandBuffer, plus the objects it must keep alive until it
// completes. Every clEnqueue* entry point validates its arguments, builds a
// Command and calls CommandQueue::enqueue().
#pragma once

#include "object.h"

#include "mux/command_buffer.h"

#include <functional>
#include <vector>

namespace polymux::cl {

struct Command {
  cl_command_type type = 0;
  /// Records the command's work. May record nothing (markers, barriers).
  std::function<llvm::Error(mux::CommandBuffer &)> record;
  /// Runs on the host once the command has completed successfully, before
  /// its event is set to CL_COMPLETE (e.g. the copy-back of a map).
  std::function<void()> onComplete;
  /// Objects (buffers, kernels, ...) retained until the command completes.
  std::vector<Ref<ObjectBase>> keepAlive;
};

} // namespace polymux::cl
