// Kernel metadata the front end extracts; the OpenCL layer answers
// clGetKernelInfo / clGetKernelArgInfo and validates clSetKernelArg from it.
#pragma once

#include "compiler/type_entity.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace compiler {

enum class AddressSpace { Private, Global, Constant, Local, Generic };
enum class AccessQualifier { None, ReadOnly, WriteOnly, ReadWrite };

/// Type qualifier bits (as cl_kernel_arg_type_qualifier).
enum TypeQualifier : uint32_t {
  QualConst = 1u << 0,
  QualRestrict = 1u << 1,
  QualVolatile = 1u << 2,
  QualPipe = 1u << 3,
};

struct KernelArgInfo {
  enum class Kind { GlobalPointer, ConstantPointer, LocalPointer, Value, Image, Sampler };
  Kind kind = Kind::Value;
  /// Bytes clSetKernelArg must be given: the host-side size of the type for
  /// values (float3 is 16), sizeof(cl_mem) for buffers.
  uint32_t size = 0;
  /// ABI alignment of a by-value argument on the device.
  uint32_t alignment = 1;
  std::string name;     ///< as written in the source
  std::string typeName; ///< e.g. "float*", "int4", "struct S"
  AddressSpace addressSpace = AddressSpace::Private;
  AccessQualifier access = AccessQualifier::None;
  uint32_t typeQualifiers = 0; ///< TypeQualifier bits
  /// The argument's type in KernelInfo::entities, named after the parameter;
  /// kNoEntity when the front end recorded none.
  EntityIndex entity = kNoEntity;
};

struct KernelInfo {
  std::string name;
  std::vector<KernelArgInfo> args;
  std::array<size_t, 3> reqdWorkGroupSize{0, 0, 0}; ///< zeros when absent
  std::array<size_t, 3> workGroupSizeHint{0, 0, 0};
  std::string vecTypeHint;
  std::string attributes; ///< CL_KERNEL_ATTRIBUTES text
  /// The types of the arguments as the device lays them out (type_entity.h).
  std::vector<TypeEntity> entities;
};

} // namespace compiler
