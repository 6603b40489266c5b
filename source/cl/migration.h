// Moving buffer contents between the devices of a context (buffer_contents.h
// says how they are tracked).
//
// When a command on device D uses a range whose copy on D is stale, the
// queue enqueues a migration right before it, under the same scheduler lock:
// - general path, for any pair of devices: on the context's transfer queue
//   of a source device S holding the latest contents, readBuffer from S's
//   storage into host staging memory, after the command that made S's copy
//   valid; then, on the command's own queue, writeBuffer from the staging
//   memory into D's storage, after that read;
// - when S's storage is host-visible and coherent: only the writeBuffer on
//   D's queue, straight from S's mapping, after the command that made S's
//   copy valid (writeBuffer reads its source when it runs);
// - when both storages wrap the same USE_HOST_PTR memory: no command.
// The command then waits for the migration's writeBuffer. Cross-device
// waits are held back by the batching engine until the batch they wait for
// has completed, so a migration never runs early. POLYMUX_MIGRATION=staged
// forces the general path (tests use it on devices the host can see into).
#pragma once

#include "command.h"
#include "event.h"

#include <span>

namespace polymux::cl {

class CommandQueue;
class SchedulerGuard;

/// Whether `command` writes a buffer range, so that its event must exist:
/// later migrations out of its device wait for it.
bool writesBuffers(const Command &command);

/// submitCommand() for a command with buffer uses: first migrates the stale
/// ranges it uses onto the queue's device, then submits it after `waits` and
/// those migrations, then records that the ranges it writes are valid only
/// on its device, after `event`.
cl_int submitWithMigrations(CommandQueue &queue, Command &command, std::span<Event *const> waits,
                            const Ref<Event> &event, SchedulerGuard &guard);

} // namespace polymux::cl
