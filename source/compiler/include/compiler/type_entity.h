// Type entities of kernel arguments (cl_polymux_kernel_arg_entities): the
// front end describes each kernel argument's type as the device lays it out
// (sizes, alignments, member offsets, typedef chains) in a small graph, one
// table per kernel; the OpenCL layer interns the tables of a program and
// answers clGetEntityInfoPOLYMUX and its companions from them.
#pragma once

#include "compiler/byte_io.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace compiler {

/// Index of an entity in its kernel's table; kNoEntity when there is none.
using EntityIndex = uint32_t;
inline constexpr EntityIndex kNoEntity = UINT32_MAX;

enum class EntityKind : uint32_t {
  Scalar,  ///< bool, char ... double, half, enums, atomic types
  Vector,  ///< element + lane count
  Struct,  ///< members with offsets
  Union,   ///< members, all at offset 0
  Typedef, ///< a typedef the program declares; `element` is the aliased type
  Pointer, ///< `element` is the pointee, `addressSpace` where it points
  Array,   ///< element + count (0 for a flexible array member)
  Opaque,  ///< void, images, samplers, events, incomplete types: no layout
};

/// Where a pointer points (the OpenCL C address space of its pointee).
enum class EntityAddressSpace : uint32_t { Private, Global, Constant, Local, Generic };

struct EntityMember {
  EntityIndex entity = kNoEntity; ///< its name is the member's name
  uint64_t offset = 0;            ///< bytes from the start of the struct

  bool operator==(const EntityMember &) const = default;
};

struct TypeEntity {
  EntityKind kind = EntityKind::Opaque;
  /// The declared name this entity was reached through: a parameter or a
  /// member name; empty for a type reached as an alias, pointee or element.
  std::string name;
  /// OpenCL C spelling of the type: "int", "float4", "struct S", "length_t",
  /// "float*", "int[4]"; empty for an anonymous struct or union.
  std::string typeName;
  uint32_t qualifiers = 0; ///< TypeQualifier bits (kernel_info.h): const, volatile, restrict
  uint64_t size = 0;       ///< bytes, including padding; 0 for Opaque
  uint64_t alignment = 0;  ///< bytes; 0 for Opaque
  /// Typedef: the aliased type; Vector and Array: the element; Pointer: the
  /// pointee. kNoEntity otherwise.
  EntityIndex element = kNoEntity;
  uint64_t count = 0;                                            ///< Vector lanes, Array elements
  EntityAddressSpace addressSpace = EntityAddressSpace::Private; ///< Pointer only
  std::vector<EntityMember> members;                             ///< Struct and Union

  bool operator==(const TypeEntity &) const = default;
};

/// Writes the fields of `entity` that are not references to other entities,
/// with `name` for its declared name (for canonical keys of the entity
/// without it).
void writeEntityFields(ByteWriter &writer, const TypeEntity &entity, std::string_view name);

/// Writes `entities`; readEntities reads them back, failing (false, or
/// reader.failed()) on references outside the table or unknown enum values.
void writeEntities(ByteWriter &writer, const std::vector<TypeEntity> &entities);
bool readEntities(ByteReader &reader, std::vector<TypeEntity> &entities);

} // namespace compiler
