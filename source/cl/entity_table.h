// A program's type entities (cl_polymux_kernel_arg_entities), interned: the
// front end gives each kernel of each device its own entity table; this
// table merges them so that equal types (same declared name, same kind,
// names, layout and parts, recursively) get one id, and hands out opaque
// handles that name the program's table and an id in it.
#pragma once

#include "CL/cl_ext_polymux.h"

#include "compiler/type_entity.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace polymux::cl {

class EntityTable {
public:
  /// One interned entity. `entity.element` and the member entities are ids
  /// of this table.
  struct Entry {
    compiler::TypeEntity entity;
    uint32_t type = 0; ///< id of the same entity without a declared name
  };

  /// Each table gets a tag of its own: handles of another program, or of
  /// this program before a rebuild, are not found().
  EntityTable();

  /// The id of entity `index` of a kernel's `entities`, added if new. With
  /// `unnamed`, of the same type without its declared name.
  uint32_t intern(const std::vector<compiler::TypeEntity> &entities, compiler::EntityIndex index, bool unnamed);

  cl_entity_POLYMUX handle(uint32_t id) const;
  /// The entry `handle` names, or null when it names none of this table.
  const Entry *find(cl_entity_POLYMUX handle) const;

private:
  uint32_t tag_;
  std::vector<Entry> entries_;
  std::map<std::string, uint32_t> ids_; ///< by EntityKeys digest
};

} // namespace polymux::cl
