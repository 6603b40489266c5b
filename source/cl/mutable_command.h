// cl_khr_command_buffer_mutable_dispatch: the handle of a kernel launch
// recorded into a command buffer, and what it keeps to record the launch
// again with new arguments or sizes. The command buffer owns it.
#pragma once

#include "command_builders.h"
#include "object.h"

#include "CL/cl_khr_command_buffer_next.h"

#include <array>
#include <optional>
#include <vector>

namespace polymux::cl {

class CommandBufferObject;
class Kernel;

class MutableCommand final : public Object<_cl_mutable_command_khr, ObjectKind::MutableCommand> {
public:
  static MutableCommand *fromHandle(cl_mutable_command_khr handle) {
    return Object::fromHandle<MutableCommand>(handle);
  }

  MutableCommand(CommandBufferObject &owner, size_t index) : owner_(owner), index_(index) {}
  ~MutableCommand() override;

  CommandBufferObject &owner() const { return owner_; }
  /// The command's position in its command buffer.
  size_t index() const { return index_; }

  /// What the launch was recorded with, as the application gave it.
  struct Launch {
    Ref<Kernel> original; ///< the kernel the application recorded
    /// A copy of the kernel with the argument values at record time: updated
    /// arguments are set on it with clSetKernelArg's checks.
    Ref<Kernel> kernel;
    cl_uint workDim = 1;
    std::array<size_t, 3> globalOffset{0, 0, 0};
    std::array<size_t, 3> globalSize{0, 0, 0};
    std::array<size_t, 3> localSize{0, 0, 0};
    bool localGiven = false; ///< the application passed a local size
    cl_mutable_dispatch_fields_khr updatable = 0;
    /// With CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR (of the
    /// command or its command buffer): the work-groups it was recorded with,
    /// which no update may exceed.
    std::optional<size_t> workGroupLimit;
    std::vector<cl_command_properties_khr> properties;
  };
  Launch &launch() { return launch_; }

private:
  CommandBufferObject &owner_;
  size_t index_;
  Launch launch_;
};

/// The work-groups of a launch as the application sized it: one when it gave
/// no local size (the implementation's choice is not the application's to
/// count), as the Khronos command buffer emulation layer counts them.
size_t workGroupCount(const MutableCommand::Launch &launch);

} // namespace polymux::cl
