// The image limits of every device that supports images (all of them CPU
// targets so far): OpenCL 3.0's full-profile minimums, a little raised.
#pragma once

#include <cstddef>

namespace polymux::cl::image_limits {

constexpr size_t kImage2DMaxWidth = 16384;
constexpr size_t kImage2DMaxHeight = 16384;
constexpr size_t kImage3DMaxSize = 2048;           ///< width, height and depth
constexpr size_t kMaxBufferSize = size_t{1} << 20; ///< texels of a 1D buffer image
constexpr size_t kMaxArraySize = 2048;
constexpr unsigned kMaxReadImageArgs = 128;
constexpr unsigned kMaxWriteImageArgs = 64;
constexpr unsigned kMaxReadWriteImageArgs = 64;
constexpr unsigned kMaxSamplers = 16;

} // namespace polymux::cl::image_limits
