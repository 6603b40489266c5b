// Migrations between the devices of a context: see migration.h.
#include "migration.h"

#include "batch.h"
#include "buffer.h"
#include "context.h"
#include "device.h"
#include "host_staging.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace polymux::cl {
namespace {

using Copy = BufferContents::Copy;
using Extent = BufferContents::Extent;
using Storage = BufferObject::Storage;

/// POLYMUX_MIGRATION=staged: every migration takes the general path. Read
/// per migration (cheap next to one) so a test can switch it.
bool stagedMigrationForced() {
  const char *value = std::getenv("POLYMUX_MIGRATION");
  return value && std::string_view(value) == "staged";
}

/// Host memory carrying one migration from the source device's read to the
/// destination's write; both commands keep it alive. Plain host memory, or,
/// for a destination whose commands cannot read host memory, a staging
/// buffer of the destination that the host sees mapped.
class StagingMemory final : public ObjectBase {
public:
  explicit StagingMemory(std::shared_ptr<void> memory) : data_(memory.get()), owner_(std::move(memory)) {}
  explicit StagingMemory(std::shared_ptr<StagingBuffer> buffer)
      : data_(buffer->view()), buffer_(buffer.get()), owner_(std::move(buffer)) {}
  void *data() const { return data_; }
  /// The destination's staging buffer; null for plain host memory.
  StagingBuffer *deviceBuffer() const { return buffer_; }

private:
  void *data_;
  StagingBuffer *buffer_ = nullptr;
  std::shared_ptr<void> owner_;
};

/// Whether a command must still wait for `event`. Failed events count as
/// done: their command ran no further, and failing every later migration
/// with them would not make the data better.
bool pending(const Ref<Event> &event) { return event && event->status() > CL_COMPLETE; }

/// Whether the host may read `storage` directly when a command runs.
bool hostReadable(const Storage &storage) { return storage.hostView && storage.coherent; }

/// Both storages are the application's USE_HOST_PTR memory itself.
bool sameHostMemory(const Storage &a, const Storage &b) { return a.wrapsHostPtr && b.wrapsHostPtr; }

/// A device whose copy of an extent a migration reads.
struct Source {
  size_t index;
  Storage *storage;
};

/// The migrations of one command, enqueued on the command's queue.
class Migrator {
public:
  Migrator(CommandQueue &queue, SchedulerGuard &guard)
      : queue_(queue), context_(queue.context()), destination_(context_.deviceIndex(queue.device())), guard_(guard) {}

  /// Makes the range of `use` valid on the queue's device where it must
  /// be, and collects the migrations the command must wait for.
  cl_int prepare(const BufferUse &use);
  /// After the command was submitted with `event`: the range `use` writes
  /// is now valid on the queue's device only.
  void recordWrite(const BufferUse &use, const Ref<Event> &event);
  std::span<const Ref<Event>> waits() const { return waits_; }

private:
  /// Copies `extent` from a device holding it onto the queue's device.
  cl_int migrate(BufferObject &root, Extent &extent);
  /// The best valid copy to read: the same host memory (no copy), then one
  /// the host can read directly, then any.
  std::optional<Source> chooseSource(BufferObject &root, const Extent &extent, const Storage &destination) const;
  /// Reads `extent` of `source` into staging memory on the source device's
  /// transfer queue; `staged` becomes that read's event.
  cl_int stageOnSource(BufferObject &root, const Extent &extent, const Source &source, const Ref<Event> &after,
                       const Ref<StagingMemory> &staging, Ref<Event> &staged);
  /// Submits one of our own commands on `queue` after `after` (when it is
  /// still pending); `done` becomes its event.
  cl_int submitOwn(CommandQueue &queue, Command &command, const Ref<Event> &after, Ref<Event> &done);
  /// Replaces `copy`; its old event is released once the lock is dropped.
  void replace(Copy &copy, Copy value);

  CommandQueue &queue_;
  Context &context_;
  size_t destination_;
  SchedulerGuard &guard_;
  llvm::SmallVector<Ref<Event>, 4> waits_;
};

cl_int Migrator::prepare(const BufferUse &use) {
  BufferContents &contents = *use.root->contents();
  for (Extent &extent : contents.extents(use.begin, use.end)) {
    for (Copy &copy : extent.copies)
      if (copy.ready && !pending(copy.ready))
        replace(copy, Copy{copy.valid, nullptr, false});
    Copy &copy = extent.copies[destination_];
    if (!copy.valid && use.access != ContentAccess::Overwrite)
      if (cl_int code = migrate(*use.root, extent))
        return code;
    // Only our own migrations: ordering against the application's commands
    // is the application's to express, as on one device. An overwrite waits
    // too, so the migration cannot land on top of it.
    if (copy.readyIsMigration && pending(copy.ready))
      waits_.push_back(copy.ready);
  }
  contents.coalesce();
  return CL_SUCCESS;
}

void Migrator::recordWrite(const BufferUse &use, const Ref<Event> &event) {
  if (use.access == ContentAccess::Read)
    return;
  BufferContents &contents = *use.root->contents();
  for (Extent &extent : contents.extents(use.begin, use.end))
    for (size_t i = 0; i < extent.copies.size(); ++i)
      replace(extent.copies[i], i == destination_ ? Copy{true, event, false} : Copy{false, nullptr, false});
  contents.coalesce();
}

cl_int Migrator::migrate(BufferObject &root, Extent &extent) {
  // The command's binding allocated the destination, and a copy only goes
  // stale when a command on another device writes (allocating its storage).
  Storage *destination = root.existingStorage(queue_.device());
  std::optional<Source> source = destination ? chooseSource(root, extent, *destination) : std::nullopt;
  assert(source && "a stale copy with no valid copy to read");
  if (!source)
    return CL_OUT_OF_RESOURCES;
  Copy &target = extent.copies[destination_];
  const Copy &from = extent.copies[source->index];
  if (sameHostMemory(*source->storage, *destination)) {
    replace(target, from);
    return CL_SUCCESS;
  }

  const uint64_t begin = extent.begin;
  const uint64_t size = extent.end - extent.begin;
  // A destination that cannot read host memory when the write runs gets the
  // bytes in a staging buffer of its own, filled by the source's read.
  const bool destinationReadsHost = commandsAccessHostMemory(queue_.device().mux());
  Ref<Event> after = from.ready;
  Ref<StagingMemory> staging;
  const void *bytes;
  if (destinationReadsHost && hostReadable(*source->storage) && !stagedMigrationForced()) {
    bytes = source->storage->hostView + begin;
  } else {
    if (destinationReadsHost) {
      std::shared_ptr<void> memory = allocateHostStaging(size);
      if (!memory)
        return CL_OUT_OF_HOST_MEMORY;
      staging = adopt(new StagingMemory(std::move(memory)));
    } else {
      auto buffer = StagingBuffer::create(queue_.device().mux(), size);
      if (!buffer)
        return allocationError(buffer.takeError());
      staging = adopt(new StagingMemory(std::move(*buffer)));
    }
    Ref<Event> staged;
    if (cl_int code = stageOnSource(root, extent, *source, after, staging, staged))
      return code;
    after = std::move(staged);
    bytes = staging->data();
  }

  Command write;
  write.type = CL_COMMAND_MIGRATE_MEM_OBJECTS;
  write.record = [&](mux::CommandBuffer &commandBuffer) {
    if (staging && staging->deviceBuffer())
      return commandBuffer.copyBuffer(staging->deviceBuffer()->buffer(), 0, *destination->buffer, begin, size);
    return commandBuffer.writeBuffer(*destination->buffer, begin, bytes, size);
  };
  write.keepAlive.emplace_back(&root);
  if (staging)
    write.keepAlive.emplace_back(staging.get());
  Ref<Event> done;
  if (cl_int code = submitOwn(queue_, write, after, done)) {
    if (staging) // nothing waits for the read now: let it run and retire
      flushQueue(*after->queue(), guard_);
    return code;
  }
  replace(target, Copy{true, std::move(done), true});
  return CL_SUCCESS;
}

std::optional<Source> Migrator::chooseSource(BufferObject &root, const Extent &extent,
                                             const Storage &destination) const {
  std::optional<Source> best;
  int bestRank = -1;
  for (size_t i = 0; i < extent.copies.size(); ++i) {
    if (i == destination_ || !extent.copies[i].valid)
      continue;
    Storage *storage = root.existingStorage(*context_.devices()[i]);
    if (!storage)
      continue;
    const int rank = sameHostMemory(*storage, destination) ? 2 : hostReadable(*storage) ? 1 : 0;
    if (rank > bestRank) {
      best = Source{i, storage};
      bestRank = rank;
    }
  }
  return best;
}

cl_int Migrator::stageOnSource(BufferObject &root, const Extent &extent, const Source &source, const Ref<Event> &after,
                               const Ref<StagingMemory> &staging, Ref<Event> &staged) {
  Command read;
  read.type = CL_COMMAND_MIGRATE_MEM_OBJECTS;
  const uint64_t size = extent.end - extent.begin;
  if (cl_int code = setHostRead(read, context_.devices()[source.index]->mux(), *source.storage->buffer, extent.begin,
                                staging->data(), size))
    return code;
  if (StagingBuffer *buffer = staging->deviceBuffer())
    appendOnComplete(read, [buffer, size] { buffer->hostWrote(size); });
  read.keepAlive.emplace_back(&root);
  read.keepAlive.emplace_back(staging.get());
  return submitOwn(context_.transferQueue(*context_.devices()[source.index]), read, after, staged);
}

cl_int Migrator::submitOwn(CommandQueue &queue, Command &command, const Ref<Event> &after, Ref<Event> &done) {
  done = createCommandEvent(queue, command.type);
  Event *wait = after.get();
  std::span<Event *const> waits;
  if (pending(after))
    waits = std::span<Event *const>(&wait, 1);
  return submitCommand(queue, command, waits, done, guard_);
}

void Migrator::replace(Copy &copy, Copy value) {
  if (copy.ready && copy.ready != value.ready)
    guard_.release(std::move(copy.ready));
  copy = std::move(value);
}

} // namespace

bool writesBuffers(const Command &command) {
  return llvm::any_of(command.bufferUses, [](const BufferUse &use) { return use.access != ContentAccess::Read; });
}

cl_int submitWithMigrations(CommandQueue &queue, Command &command, std::span<Event *const> waits,
                            const Ref<Event> &event, SchedulerGuard &guard) {
  Migrator migrator(queue, guard);
  for (const BufferUse &use : command.bufferUses)
    if (cl_int code = migrator.prepare(use))
      return code;
  llvm::SmallVector<Event *, 8> allWaits(waits.begin(), waits.end());
  for (const Ref<Event> &migration : migrator.waits())
    allWaits.push_back(migration.get());
  if (cl_int code = submitCommand(queue, command, allWaits, event, guard))
    return code;
  for (const BufferUse &use : command.bufferUses)
    migrator.recordWrite(use, event);
  return CL_SUCCESS;
}

} // namespace polymux::cl
