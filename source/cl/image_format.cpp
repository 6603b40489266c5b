#include "image_format.h"

#include <algorithm>
#include <array>

namespace polymux::cl::image_format {
namespace {

constexpr cl_channel_type kAllTypes[] = {
    CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SNORM_INT8,     CL_SNORM_INT16,    CL_SIGNED_INT8, CL_SIGNED_INT16,
    CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,  CL_FLOAT,
};

/// OpenCL 3.0 §5.3.2.1, the minimum list of a full-profile device with
/// images (read-only, write-only and read-write): R, RG and RGBA with every
/// unpacked type, BGRA with UNORM_INT8; and sRGBA UNORM_INT8 for images
/// kernels only read. The builtins library implements a few orders more
/// (A, RA, ARGB, ABGR, INTENSITY, LUMINANCE) that are not listed.
constexpr auto kWritable = [] {
  std::array<cl_image_format, 3 * std::size(kAllTypes) + 1> list{};
  size_t n = 0;
  for (cl_channel_order order : {CL_R, CL_RG, CL_RGBA})
    for (cl_channel_type type : kAllTypes)
      list[n++] = {order, type};
  list[n++] = {CL_BGRA, CL_UNORM_INT8};
  return list;
}();

constexpr auto kReadOnly = [] {
  std::array<cl_image_format, kWritable.size() + 1> list{};
  std::copy(kWritable.begin(), kWritable.end(), list.begin());
  list.back() = {CL_sRGBA, CL_UNORM_INT8};
  return list;
}();

bool isNormalized(cl_channel_type type) {
  return type == CL_UNORM_INT8 || type == CL_UNORM_INT16 || type == CL_SNORM_INT8 || type == CL_SNORM_INT16;
}

} // namespace

unsigned channelCount(cl_channel_order order) {
  switch (order) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_Rx:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return 2;
  case CL_RGB:
  case CL_RGBx:
  case CL_sRGB:
  case CL_sRGBx:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_sRGBA:
  case CL_sBGRA:
    return 4;
  default:
    return 0;
  }
}

unsigned channelSize(cl_channel_type type) {
  switch (type) {
  case CL_UNORM_INT8:
  case CL_SNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_UNORM_INT16:
  case CL_SNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}

bool wellFormed(const cl_image_format &format) {
  const cl_channel_order order = format.image_channel_order;
  const cl_channel_type type = format.image_channel_data_type;
  const bool packed = type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010 ||
                      type == CL_UNORM_INT_101010_2 || type == CL_UNORM_INT24;
  if (channelCount(order) == 0 || (channelSize(type) == 0 && !packed))
    return false;
  // §5.3.1.1: the orders that restrict their channel types.
  switch (order) {
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return isNormalized(type) || type == CL_HALF_FLOAT || type == CL_FLOAT;
  case CL_RGB:
  case CL_RGBx:
    return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010;
  case CL_ARGB:
  case CL_BGRA:
  case CL_ABGR:
    return channelSize(type) == 1;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return type == CL_UNORM_INT8;
  case CL_DEPTH:
    return type == CL_UNORM_INT16 || type == CL_FLOAT;
  default:
    return !packed || type == CL_UNORM_INT_101010_2;
  }
}

std::span<const cl_image_format> supportedList(cl_mem_flags flags) {
  const bool kernelWrites = !(flags & CL_MEM_READ_ONLY) || (flags & CL_MEM_KERNEL_READ_AND_WRITE);
  if (kernelWrites)
    return kWritable;
  return kReadOnly;
}

bool supported(const cl_image_format &format, cl_mem_flags flags) {
  for (const cl_image_format &candidate : supportedList(flags))
    if (candidate.image_channel_order == format.image_channel_order &&
        candidate.image_channel_data_type == format.image_channel_data_type)
      return true;
  return false;
}

size_t elementSize(const cl_image_format &format) {
  return size_t{channelCount(format.image_channel_order)} * channelSize(format.image_channel_data_type);
}

} // namespace polymux::cl::image_format
