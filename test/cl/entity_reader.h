// Reads kernel argument type entities (cl_polymux_kernel_arg_entities)
// through the entry points clGetExtensionFunctionAddressForPlatform returns.
#pragma once

#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

#include <set>
#include <string>

namespace cltest {

class EntityReader {
public:
  explicit EntityReader(cl_program program) : program_(program) {
    cl_platform_id platform = platformUnderTest();
    info = reinterpret_cast<clGetEntityInfoPOLYMUX_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetEntityInfoPOLYMUX"));
    numMembers = reinterpret_cast<clNumMemberEntitiesPOLYMUX_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clNumMemberEntitiesPOLYMUX"));
    memberInfo = reinterpret_cast<clGetEntityMemberInfoPOLYMUX_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetEntityMemberInfoPOLYMUX"));
  }
  bool loaded() const { return info && numMembers && memberInfo; }

  static cl_entity_POLYMUX argEntity(cl_kernel kernel, cl_uint index) {
    cl_entity_POLYMUX entity = nullptr;
    EXPECT_CL(clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ENTITY_POLYMUX, sizeof(entity), &entity, nullptr));
    return entity;
  }

  template <typename T> T get(cl_entity_POLYMUX entity, cl_entity_info_POLYMUX param) const {
    T value{};
    size_t size = 0;
    EXPECT_CL(info(program_, entity, param, sizeof(value), &value, &size)) << " param " << std::hex << param;
    EXPECT_EQ(size, sizeof(value));
    return value;
  }
  std::string string(cl_entity_POLYMUX entity, cl_entity_info_POLYMUX param) const {
    size_t size = 0;
    EXPECT_CL(info(program_, entity, param, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(info(program_, entity, param, size, value.data(), nullptr));
    if (!value.empty() && value.back() == '\0')
      value.pop_back();
    return value;
  }
  cl_entity_kind_POLYMUX kind(cl_entity_POLYMUX entity) const {
    return get<cl_entity_kind_POLYMUX>(entity, CL_ENTITY_KIND_POLYMUX);
  }
  std::string name(cl_entity_POLYMUX entity) const { return string(entity, CL_ENTITY_NAME_POLYMUX); }
  std::string typeName(cl_entity_POLYMUX entity) const { return string(entity, CL_ENTITY_TYPE_NAME_POLYMUX); }
  size_t size(cl_entity_POLYMUX entity) const { return get<size_t>(entity, CL_ENTITY_SIZE_POLYMUX); }
  size_t alignment(cl_entity_POLYMUX entity) const { return get<size_t>(entity, CL_ENTITY_ALIGNMENT_POLYMUX); }
  cl_entity_POLYMUX entity(cl_entity_POLYMUX entity, cl_entity_info_POLYMUX param) const {
    return get<cl_entity_POLYMUX>(entity, param);
  }
  size_t members(cl_entity_POLYMUX entity) const {
    cl_int err = CL_INVALID_VALUE;
    size_t count = numMembers(program_, entity, &err);
    EXPECT_CL(err);
    return count;
  }
  cl_entity_POLYMUX member(cl_entity_POLYMUX entity, cl_uint index) const {
    cl_entity_POLYMUX value = nullptr;
    EXPECT_CL(memberInfo(program_, entity, index, CL_ENTITY_MEMBER_ENTITY_POLYMUX, sizeof(value), &value, nullptr));
    return value;
  }
  size_t offset(cl_entity_POLYMUX entity, cl_uint index) const {
    size_t value = 0;
    EXPECT_CL(memberInfo(program_, entity, index, CL_ENTITY_MEMBER_OFFSET_POLYMUX, sizeof(value), &value, nullptr));
    return value;
  }
  /// The member of a struct or union called `name`; null when there is none.
  cl_entity_POLYMUX memberNamed(cl_entity_POLYMUX entity, const std::string &memberName, size_t *offsetOut) const {
    for (cl_uint i = 0; i < members(entity); ++i) {
      cl_entity_POLYMUX candidate = member(entity, i);
      if (name(candidate) == memberName) {
        if (offsetOut)
          *offsetOut = offset(entity, i);
        return candidate;
      }
    }
    return nullptr;
  }

  /// Everything below `entity`, as text: equal texts mean equal layouts,
  /// whichever program (or build of it) the entity came from.
  std::string describe(cl_entity_POLYMUX entity) const {
    std::set<cl_entity_POLYMUX> path;
    return describe(entity, path);
  }

  clGetEntityInfoPOLYMUX_fn info = nullptr;
  clNumMemberEntitiesPOLYMUX_fn numMembers = nullptr;
  clGetEntityMemberInfoPOLYMUX_fn memberInfo = nullptr;

private:
  std::string describe(cl_entity_POLYMUX entity, std::set<cl_entity_POLYMUX> &path) const {
    cl_entity_kind_POLYMUX entityKind = kind(entity);
    std::string text = std::to_string(entityKind) + " '" + name(entity) + "' '" + typeName(entity) + "' q" +
                       std::to_string(get<cl_kernel_arg_type_qualifier>(entity, CL_ENTITY_QUALIFIER_POLYMUX)) + " " +
                       std::to_string(size(entity)) + "/" + std::to_string(alignment(entity));
    if (!path.insert(entity).second)
      return text + " (recursive)";
    switch (entityKind) {
    case CL_ENTITY_KIND_TYPEDEF_POLYMUX:
      text += " = " + describe(this->entity(entity, CL_ENTITY_TYPEDEF_TYPE_POLYMUX), path);
      break;
    case CL_ENTITY_KIND_POINTER_POLYMUX:
      text += " as" + std::to_string(get<cl_kernel_arg_address_qualifier>(entity, CL_ENTITY_ADDRESS_SPACE_POLYMUX)) +
              " -> " + describe(this->entity(entity, CL_ENTITY_POINTEE_POLYMUX), path);
      break;
    case CL_ENTITY_KIND_VECTOR_POLYMUX:
    case CL_ENTITY_KIND_ARRAY_POLYMUX:
      text += " x" + std::to_string(get<size_t>(entity, CL_ENTITY_ELEMENT_COUNT_POLYMUX)) + " of " +
              describe(this->entity(entity, CL_ENTITY_ELEMENT_POLYMUX), path);
      break;
    case CL_ENTITY_KIND_STRUCT_POLYMUX:
    case CL_ENTITY_KIND_UNION_POLYMUX:
      text += " {";
      for (cl_uint i = 0; i < members(entity); ++i)
        text += " @" + std::to_string(offset(entity, i)) + " " + describe(member(entity, i), path) + ";";
      text += " }";
      break;
    default:
      break;
    }
    path.erase(entity);
    return text;
  }

  cl_program program_;
};

} // namespace cltest
