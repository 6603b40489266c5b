#include "command_type_name.h"

#include <array>
#include <cstdio>
#include <string_view>

namespace polymux::cl {

std::string commandTypeName(cl_command_type type) {
  // CL_COMMAND_NDRANGE_KERNEL (0x11F0) to CL_COMMAND_SVM_MIGRATE_MEM
  // (0x120E) are consecutive.
  static constexpr std::array<std::string_view, 31> kNames = {
      "NDRANGE_KERNEL",
      "TASK",
      "NATIVE_KERNEL",
      "READ_BUFFER",
      "WRITE_BUFFER",
      "COPY_BUFFER",
      "READ_IMAGE",
      "WRITE_IMAGE",
      "COPY_IMAGE",
      "COPY_IMAGE_TO_BUFFER",
      "COPY_BUFFER_TO_IMAGE",
      "MAP_BUFFER",
      "MAP_IMAGE",
      "UNMAP_MEM_OBJECT",
      "MARKER",
      "ACQUIRE_GL_OBJECTS",
      "RELEASE_GL_OBJECTS",
      "READ_BUFFER_RECT",
      "WRITE_BUFFER_RECT",
      "COPY_BUFFER_RECT",
      "USER",
      "BARRIER",
      "MIGRATE_MEM_OBJECTS",
      "FILL_BUFFER",
      "FILL_IMAGE",
      "SVM_FREE",
      "SVM_MEMCPY",
      "SVM_MEMFILL",
      "SVM_MAP",
      "SVM_UNMAP",
      "SVM_MIGRATE_MEM",
  };
  if (type >= CL_COMMAND_NDRANGE_KERNEL && type - CL_COMMAND_NDRANGE_KERNEL < kNames.size())
    return std::string(kNames[type - CL_COMMAND_NDRANGE_KERNEL]);
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%X", static_cast<unsigned>(type));
  return hex;
}

} // namespace polymux::cl
