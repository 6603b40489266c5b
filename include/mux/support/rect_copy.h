// Rectangular (3-D, pitched) copies between linearly laid out regions, as
// clEnqueue{Read,Write,Copy}BufferRect describe them.
#pragma once

#include "mux/command_buffer.h"

#include <cstddef>
#include <cstdint>

namespace mux::support {

/// Fills in the OpenCL defaults for zero pitches (row pitch = region[0],
/// slice pitch = region[1] * row pitch) and checks the pitches are large
/// enough. InvalidArgument on a zero region or too-small pitches.
llvm::Expected<RectRegion> normalizeRect(const RectRegion &rect);

/// Bytes from the start of a region's base to one past its last byte, for a
/// normalised rect. Checked against the buffer size by recorders.
uint64_t rectSrcExtent(const RectRegion &rect);
uint64_t rectDstExtent(const RectRegion &rect);

/// Copies the normalised `rect` from `src` to `dst` (bases of the two linear
/// regions). Rows are moved with memmove, so overlapping rows are safe.
void copyRect(std::byte *dst, const std::byte *src, const RectRegion &rect);

} // namespace mux::support
