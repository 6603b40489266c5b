// cl_khr_command_buffer_mutable_dispatch: MutableCommand and the entry
// points that query and update mutable commands (mutable_command.h).
#include "mutable_command.h"

#include "command_buffer.h"
#include "kernel.h"

namespace polymux::cl {

MutableCommand::~MutableCommand() = default;

} // namespace polymux::cl
