#include "compiler/type_entity.h"

namespace compiler {
namespace {

constexpr uint32_t kLastKind = static_cast<uint32_t>(EntityKind::Opaque);
constexpr uint32_t kLastAddressSpace = static_cast<uint32_t>(EntityAddressSpace::Generic);

bool validReference(EntityIndex index, size_t tableSize) { return index == kNoEntity || index < tableSize; }

} // namespace

void writeEntityFields(ByteWriter &writer, const TypeEntity &entity, std::string_view name) {
  writer.u32(static_cast<uint32_t>(entity.kind));
  writer.string(name);
  writer.string(entity.typeName);
  writer.u32(entity.qualifiers);
  writer.u64(entity.size);
  writer.u64(entity.alignment);
  writer.u64(entity.count);
  writer.u32(static_cast<uint32_t>(entity.addressSpace));
}

void writeEntities(ByteWriter &writer, const std::vector<TypeEntity> &entities) {
  writer.u32(static_cast<uint32_t>(entities.size()));
  for (const TypeEntity &entity : entities) {
    writeEntityFields(writer, entity, entity.name);
    writer.u32(entity.element);
    writer.u32(static_cast<uint32_t>(entity.members.size()));
    for (const EntityMember &member : entity.members) {
      writer.u32(member.entity);
      writer.u64(member.offset);
    }
  }
}

bool readEntities(ByteReader &reader, std::vector<TypeEntity> &entities) {
  uint32_t count = reader.u32();
  entities.clear();
  for (uint32_t i = 0; i < count && !reader.failed(); ++i) {
    TypeEntity entity;
    uint32_t kind = reader.u32();
    if (kind > kLastKind)
      return false;
    entity.kind = static_cast<EntityKind>(kind);
    entity.name = reader.string();
    entity.typeName = reader.string();
    entity.qualifiers = reader.u32();
    entity.size = reader.u64();
    entity.alignment = reader.u64();
    entity.count = reader.u64();
    uint32_t addressSpace = reader.u32();
    if (addressSpace > kLastAddressSpace)
      return false;
    entity.addressSpace = static_cast<EntityAddressSpace>(addressSpace);
    entity.element = reader.u32();
    uint32_t memberCount = reader.u32();
    for (uint32_t m = 0; m < memberCount && !reader.failed(); ++m) {
      EntityMember member;
      member.entity = reader.u32();
      member.offset = reader.u64();
      entity.members.push_back(member);
    }
    entities.push_back(std::move(entity));
  }
  if (reader.failed())
    return false;
  for (const TypeEntity &entity : entities) {
    if (!validReference(entity.element, entities.size()))
      return false;
    for (const EntityMember &member : entity.members)
      if (member.entity >= entities.size())
        return false;
  }
  return true;
}

} // namespace compiler
