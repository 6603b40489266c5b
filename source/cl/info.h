// Helpers for the clGet*Info family: copy a value out with the size checks
// the specification requires (CL_INVALID_VALUE when the buffer is too small).
#pragma once

#include "object.h"

#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::cl {

inline cl_int writeInfoBytes(size_t paramValueSize, void *paramValue, size_t *paramValueSizeRet, const void *data,
                             size_t size) {
  if (paramValue) {
    if (paramValueSize < size)
      return CL_INVALID_VALUE;
    if (size)
      std::memcpy(paramValue, data, size);
  }
  if (paramValueSizeRet)
    *paramValueSizeRet = size;
  return CL_SUCCESS;
}

template <class T> cl_int writeInfo(size_t paramValueSize, void *paramValue, size_t *paramValueSizeRet, const T &value) {
  static_assert(std::is_trivially_copyable_v<T>);
  return writeInfoBytes(paramValueSize, paramValue, paramValueSizeRet, &value, sizeof(T));
}

/// Strings are written with their terminating NUL.
inline cl_int writeInfoString(size_t paramValueSize, void *paramValue, size_t *paramValueSizeRet,
                              std::string_view value) {
  std::string copy(value);
  return writeInfoBytes(paramValueSize, paramValue, paramValueSizeRet, copy.c_str(), copy.size() + 1);
}

template <class T>
cl_int writeInfoArray(size_t paramValueSize, void *paramValue, size_t *paramValueSizeRet, std::span<const T> values) {
  static_assert(std::is_trivially_copyable_v<T>);
  return writeInfoBytes(paramValueSize, paramValue, paramValueSizeRet, values.data(), values.size_bytes());
}

} // namespace polymux::cl
