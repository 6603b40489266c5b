#include "entity_table.h"

#include "compiler/byte_io.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <atomic>
#include <limits>

namespace polymux::cl {
namespace {

using compiler::EntityIndex;
using compiler::kNoEntity;
using compiler::TypeEntity;
using Digest = std::array<uint8_t, 32>;

static_assert(sizeof(uintptr_t) == 8, "entity handles hold a 32-bit table tag and a 32-bit id");

/// Canonical keys of the entities of one kernel's table: a digest of an
/// entity's fields and, recursively, of the entities it refers to. A
/// reference back to an entity on the current path (a recursive type)
/// is hashed as its distance up the path, so the key does not depend on
/// where the walk started. Digests that do not refer above their own entity
/// are cached, which keeps shared parts from being walked again.
class EntityKeys {
public:
  explicit EntityKeys(const std::vector<TypeEntity> &entities) : entities_(entities) {}

  std::string key(EntityIndex index, bool unnamed) {
    size_t lowest;
    Digest digest = digestOf(index, unnamed, lowest);
    return std::string(digest.begin(), digest.end());
  }

private:
  static constexpr size_t kNoReference = std::numeric_limits<size_t>::max();

  /// `lowest`: the lowest path depth the digest refers back to, or
  /// kNoReference. An unnamed root stands for a different entity than its
  /// index, so it is never a target of a back-reference.
  Digest digestOf(EntityIndex index, bool unnamed, size_t &lowest) {
    lowest = kNoReference;
    compiler::ByteWriter fields;
    if (!unnamed) {
      auto onPath = std::find(path_.begin(), path_.end(), index);
      if (onPath != path_.end()) {
        lowest = static_cast<size_t>(onPath - path_.begin());
        fields.u32(0); // a back-reference, by distance
        fields.u64(path_.size() - lowest);
        return hash(fields);
      }
      if (auto cached = contextFree_.find(index); cached != contextFree_.end())
        return cached->second;
    }
    const TypeEntity &entity = entities_[index];
    size_t depth = path_.size();
    path_.push_back(unnamed ? kNoEntity : index);
    fields.u32(1);
    compiler::writeEntityFields(fields, entity, unnamed ? "" : entity.name);
    auto part = [&](EntityIndex child) {
      size_t childLowest;
      Digest digest = digestOf(child, false, childLowest);
      lowest = std::min(lowest, childLowest);
      fields.raw(digest.data(), digest.size());
    };
    fields.u32(entity.element == kNoEntity ? 0 : 1);
    if (entity.element != kNoEntity)
      part(entity.element);
    fields.u32(static_cast<uint32_t>(entity.members.size()));
    for (const compiler::EntityMember &member : entity.members) {
      fields.u64(member.offset);
      part(member.entity);
    }
    path_.pop_back();
    Digest digest = hash(fields);
    if (lowest >= depth) {
      lowest = kNoReference;
      if (!unnamed)
        contextFree_[index] = digest;
    }
    return digest;
  }

  static Digest hash(compiler::ByteWriter &fields) {
    llvm::SHA256 hasher;
    hasher.update(llvm::ArrayRef(reinterpret_cast<const uint8_t *>(fields.data().data()), fields.data().size()));
    return hasher.final();
  }

  const std::vector<TypeEntity> &entities_;
  std::vector<EntityIndex> path_;
  llvm::DenseMap<EntityIndex, Digest> contextFree_;
};

uint32_t nextTag() {
  static std::atomic<uint32_t> counter{0};
  uint32_t tag;
  do
    tag = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  while (tag == 0);
  return tag;
}

/// Interns the entities of one kernel's table into `entries`/`ids`.
class Interner {
public:
  Interner(const std::vector<TypeEntity> &entities, std::vector<EntityTable::Entry> &entries,
           std::map<std::string, uint32_t> &ids)
      : entities_(entities), keys_(entities), entries_(entries), ids_(ids) {}

  uint32_t intern(EntityIndex index, bool unnamed) {
    const TypeEntity &source = entities_[index];
    if (source.name.empty())
      unnamed = false;
    std::string key = keys_.key(index, unnamed);
    if (auto found = ids_.find(key); found != ids_.end())
      return found->second;
    auto id = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
    ids_.emplace(std::move(key), id);
    // Entered before its parts: a recursive type finds itself.
    EntityTable::Entry entry;
    entry.entity = source;
    if (unnamed)
      entry.entity.name.clear();
    if (source.element != kNoEntity)
      entry.entity.element = intern(source.element, false);
    for (compiler::EntityMember &member : entry.entity.members)
      member.entity = intern(member.entity, false);
    entry.type = entry.entity.name.empty() ? id : intern(index, true);
    entries_[id] = std::move(entry);
    return id;
  }

private:
  const std::vector<TypeEntity> &entities_;
  EntityKeys keys_;
  std::vector<EntityTable::Entry> &entries_;
  std::map<std::string, uint32_t> &ids_;
};

} // namespace

EntityTable::EntityTable() : tag_(nextTag()) {}

uint32_t EntityTable::intern(const std::vector<TypeEntity> &entities, EntityIndex index, bool unnamed) {
  return Interner(entities, entries_, ids_).intern(index, unnamed);
}

cl_entity_POLYMUX EntityTable::handle(uint32_t id) const {
  uintptr_t value = (static_cast<uintptr_t>(tag_) << 32) | (static_cast<uintptr_t>(id) + 1);
  return reinterpret_cast<cl_entity_POLYMUX>(value);
}

const EntityTable::Entry *EntityTable::find(cl_entity_POLYMUX handle) const {
  auto value = reinterpret_cast<uintptr_t>(handle);
  if ((value >> 32) != tag_)
    return nullptr;
  uint32_t low = static_cast<uint32_t>(value);
  if (low == 0 || low > entries_.size())
    return nullptr;
  return &entries_[low - 1];
}

} // namespace polymux::cl
