// cl_polymux_kernel_arg_entities entry points. Every query takes the
// program's lock, which also guards its EntityTable.
#include "entity.h"

#include "info.h"
#include "kernel.h"
#include "program_impl.h"

#include <algorithm>
#include <mutex>
#include <new>

namespace polymux::cl {
namespace {

using compiler::EntityKind;

/// Runs `query(table)` on `program`'s entity table under the program's
/// lock. A program without an executable (or in the middle of a build)
/// has no entities: CL_INVALID_PROGRAM_EXECUTABLE.
template <typename Query> cl_int withEntities(Program &program, Query query) {
  Program::Impl &impl = program.impl();
  try {
    std::lock_guard lock(impl.mutex);
    bool anyExecutable = std::any_of(impl.builds.begin(), impl.builds.end(),
                                     [](const DeviceBuild &build) { return build.isExecutable(); });
    if (impl.busy || !anyExecutable)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    if (!impl.entities)
      impl.entities = std::make_unique<EntityTable>();
    return query(*impl.entities);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

/// withEntities() for a program handle and one entity of it; an entity
/// that is not one of the program's: CL_INVALID_VALUE.
template <typename Query> cl_int withEntity(cl_program handle, cl_entity_POLYMUX entity, Query query) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  return withEntities(*program, [&](const EntityTable &table) -> cl_int {
    const EntityTable::Entry *entry = table.find(entity);
    if (!entry)
      return CL_INVALID_VALUE;
    return query(table, *entry);
  });
}

cl_entity_kind_POLYMUX entityKind(EntityKind kind) {
  switch (kind) {
  case EntityKind::Scalar:
    return CL_ENTITY_KIND_SCALAR_POLYMUX;
  case EntityKind::Vector:
    return CL_ENTITY_KIND_VECTOR_POLYMUX;
  case EntityKind::Struct:
    return CL_ENTITY_KIND_STRUCT_POLYMUX;
  case EntityKind::Union:
    return CL_ENTITY_KIND_UNION_POLYMUX;
  case EntityKind::Typedef:
    return CL_ENTITY_KIND_TYPEDEF_POLYMUX;
  case EntityKind::Pointer:
    return CL_ENTITY_KIND_POINTER_POLYMUX;
  case EntityKind::Array:
    return CL_ENTITY_KIND_ARRAY_POLYMUX;
  case EntityKind::Opaque:
    return CL_ENTITY_KIND_OPAQUE_POLYMUX;
  }
  return CL_ENTITY_KIND_OPAQUE_POLYMUX;
}

cl_kernel_arg_address_qualifier addressQualifier(compiler::EntityAddressSpace addressSpace) {
  switch (addressSpace) {
  case compiler::EntityAddressSpace::Global:
    return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  case compiler::EntityAddressSpace::Constant:
    return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  case compiler::EntityAddressSpace::Local:
    return CL_KERNEL_ARG_ADDRESS_LOCAL;
  case compiler::EntityAddressSpace::Generic:
    return CL_KERNEL_ARG_ADDRESS_GENERIC_POLYMUX;
  case compiler::EntityAddressSpace::Private:
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
  return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

bool hasElement(EntityKind kind) { return kind == EntityKind::Vector || kind == EntityKind::Array; }

cl_int entityInfo(const EntityTable &table, const EntityTable::Entry &entry, cl_entity_info_POLYMUX name,
                  size_t paramValueSize, void *paramValue, size_t *paramValueSizeRet) {
  const compiler::TypeEntity &entity = entry.entity;
  auto write = [&](const auto &value) { return writeInfo(paramValueSize, paramValue, paramValueSizeRet, value); };
  auto writeString = [&](const std::string &value) {
    return writeInfoString(paramValueSize, paramValue, paramValueSizeRet, value);
  };
  switch (name) {
  case CL_ENTITY_KIND_POLYMUX:
    return write(entityKind(entity.kind));
  case CL_ENTITY_NAME_POLYMUX:
    return writeString(entity.name);
  case CL_ENTITY_TYPE_NAME_POLYMUX:
    return writeString(entity.typeName);
  case CL_ENTITY_QUALIFIER_POLYMUX:
    return write(typeQualifier(entity.qualifiers));
  case CL_ENTITY_SIZE_POLYMUX:
    return write(static_cast<size_t>(entity.size));
  case CL_ENTITY_ALIGNMENT_POLYMUX:
    return write(static_cast<size_t>(entity.alignment));
  case CL_ENTITY_TYPE_POLYMUX:
    return write(table.handle(entry.type));
  case CL_ENTITY_TYPEDEF_TYPE_POLYMUX:
    if (entity.kind != EntityKind::Typedef)
      return CL_INVALID_VALUE;
    return write(table.handle(entity.element));
  case CL_ENTITY_ELEMENT_POLYMUX:
    if (!hasElement(entity.kind))
      return CL_INVALID_VALUE;
    return write(table.handle(entity.element));
  case CL_ENTITY_ELEMENT_COUNT_POLYMUX:
    if (!hasElement(entity.kind))
      return CL_INVALID_VALUE;
    return write(static_cast<size_t>(entity.count));
  case CL_ENTITY_POINTEE_POLYMUX:
    if (entity.kind != EntityKind::Pointer)
      return CL_INVALID_VALUE;
    return write(table.handle(entity.element));
  case CL_ENTITY_ADDRESS_SPACE_POLYMUX:
    if (entity.kind != EntityKind::Pointer)
      return CL_INVALID_VALUE;
    return write(addressQualifier(entity.addressSpace));
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace

cl_int kernelArgEntityInfo(Kernel &kernel, const compiler::KernelArgInfo &arg, bool named, size_t paramValueSize,
                           void *paramValue, size_t *paramValueSizeRet) {
  // A binary from a producer that recorded no entities.
  if (arg.entity == compiler::kNoEntity)
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  return withEntities(kernel.program(), [&](EntityTable &table) {
    uint32_t id = table.intern(kernel.info().entities, arg.entity, !named);
    return writeInfo(paramValueSize, paramValue, paramValueSizeRet, table.handle(id));
  });
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetEntityInfoPOLYMUX(cl_program program, cl_entity_POLYMUX entity,
                                                       cl_entity_info_POLYMUX param_name, size_t param_value_size,
                                                       void *param_value, size_t *param_value_size_ret) {
  return withEntity(program, entity, [&](const EntityTable &table, const EntityTable::Entry &entry) {
    return entityInfo(table, entry, param_name, param_value_size, param_value, param_value_size_ret);
  });
}

CL_API_ENTRY size_t CL_API_CALL clNumMemberEntitiesPOLYMUX(cl_program program, cl_entity_POLYMUX entity,
                                                           cl_int *errcode_ret) {
  size_t count = 0;
  cl_int code = withEntity(program, entity, [&](const EntityTable &, const EntityTable::Entry &entry) {
    count = entry.entity.members.size();
    return CL_SUCCESS;
  });
  if (errcode_ret)
    *errcode_ret = code;
  return count;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEntityMemberInfoPOLYMUX(cl_program program, cl_entity_POLYMUX entity,
                                                             cl_uint member_index,
                                                             cl_entity_member_info_POLYMUX param_name,
                                                             size_t param_value_size, void *param_value,
                                                             size_t *param_value_size_ret) {
  return withEntity(program, entity, [&](const EntityTable &table, const EntityTable::Entry &entry) -> cl_int {
    if (member_index >= entry.entity.members.size())
      return CL_INVALID_VALUE;
    const compiler::EntityMember &member = entry.entity.members[member_index];
    switch (param_name) {
    case CL_ENTITY_MEMBER_ENTITY_POLYMUX:
      return writeInfo(param_value_size, param_value, param_value_size_ret, table.handle(member.entity));
    case CL_ENTITY_MEMBER_OFFSET_POLYMUX:
      return writeInfo(param_value_size, param_value, param_value_size_ret, static_cast<size_t>(member.offset));
    default:
      return CL_INVALID_VALUE;
    }
  });
}

} // extern "C"
