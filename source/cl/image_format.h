// Image formats: which channel orders and types Polymux supports, and the
// size of their texels.
#pragma once

#include <CL/cl.h>

#include <span>

namespace polymux::cl::image_format {

/// Channels stored per texel of `order`, or 0 when the order is unknown.
unsigned channelCount(cl_channel_order order);
/// Bytes per channel of `type`, or 0 when the type is unknown or packed.
unsigned channelSize(cl_channel_type type);
/// Whether `format` names a known order and type that may be combined
/// (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR otherwise).
bool wellFormed(const cl_image_format &format);
/// Whether images of `format` can be created with `flags` (the formats
/// clGetSupportedImageFormats lists for them).
bool supported(const cl_image_format &format, cl_mem_flags flags);
/// Bytes per texel of a supported format.
size_t elementSize(const cl_image_format &format);
/// The formats clGetSupportedImageFormats lists for `flags`, in a fixed
/// order (the same for every image type).
std::span<const cl_image_format> supportedList(cl_mem_flags flags);

} // namespace polymux::cl::image_format
