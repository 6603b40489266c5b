// Host-side texel encoding: the bytes clEnqueueFillImage writes for a fill
// colour (OpenCL 3.0 §5.3.4: float4 for normalized, half and float formats,
// int4 / uint4 for integer ones), converted as write_image* converts.
#pragma once

#include <CL/cl.h>

#include <cstddef>

namespace polymux::cl::image_pixel {

/// Writes image_format::elementSize(format) bytes of `color` to `out`.
void encode(const cl_image_format &format, const void *color, std::byte *out);

/// IEEE 754 binary16 bits nearest to `value` (ties to even).
uint16_t floatToHalf(float value);

} // namespace polymux::cl::image_pixel
