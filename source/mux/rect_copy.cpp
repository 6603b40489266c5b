#include "mux/support/rect_copy.h"

#include <cstring>
#include <string>

namespace mux::support {

namespace {

llvm::Error normalizePitches(size_t &rowPitch, size_t &slicePitch, const std::array<size_t, 3> &region,
                             const char *side) {
  if (rowPitch == 0)
    rowPitch = region[0];
  if (rowPitch < region[0])
    return makeError(Status::InvalidArgument, std::string(side) + " row pitch " + std::to_string(rowPitch) +
                                                  " is smaller than the region width " + std::to_string(region[0]));
  if (slicePitch == 0)
    slicePitch = region[1] * rowPitch;
  if (slicePitch < region[1] * rowPitch)
    return makeError(Status::InvalidArgument, std::string(side) + " slice pitch " + std::to_string(slicePitch) +
                                                  " is smaller than region height times row pitch");
  return llvm::Error::success();
}

uint64_t extent(const std::array<size_t, 3> &origin, const std::array<size_t, 3> &region, uint64_t rowPitch,
                uint64_t slicePitch) {
  uint64_t first = origin[2] * slicePitch + origin[1] * rowPitch + origin[0];
  return first + (region[2] - 1) * slicePitch + (region[1] - 1) * rowPitch + region[0];
}

} // namespace

llvm::Expected<RectRegion> normalizeRect(const RectRegion &rect) {
  RectRegion out = rect;
  if (rect.region[0] == 0 || rect.region[1] == 0 || rect.region[2] == 0)
    return makeError(Status::InvalidArgument, "rect region has a zero dimension");
  // Keep every later product below 2^64: no real buffer comes close.
  for (size_t value : {rect.region[0], rect.region[1], rect.region[2], rect.srcRowPitch, rect.srcSlicePitch,
                       rect.dstRowPitch, rect.dstSlicePitch, rect.srcOrigin[0], rect.srcOrigin[1], rect.srcOrigin[2],
                       rect.dstOrigin[0], rect.dstOrigin[1], rect.dstOrigin[2]})
    if (value > (uint64_t(1) << 40))
      return makeError(Status::InvalidArgument, "rect origin, region or pitch is out of range");
  if (auto error = normalizePitches(out.srcRowPitch, out.srcSlicePitch, out.region, "source"))
    return error;
  if (auto error = normalizePitches(out.dstRowPitch, out.dstSlicePitch, out.region, "destination"))
    return error;
  // Pitches up to 2^40 times origins up to 2^40 could still overflow.
  if (out.srcSlicePitch > (uint64_t(1) << 40) || out.dstSlicePitch > (uint64_t(1) << 40))
    return makeError(Status::InvalidArgument, "rect slice pitch is out of range");
  return out;
}

uint64_t rectSrcExtent(const RectRegion &rect) {
  return extent(rect.srcOrigin, rect.region, rect.srcRowPitch, rect.srcSlicePitch);
}

uint64_t rectDstExtent(const RectRegion &rect) {
  return extent(rect.dstOrigin, rect.region, rect.dstRowPitch, rect.dstSlicePitch);
}

void copyRect(std::byte *dst, const std::byte *src, const RectRegion &rect) {
  const std::byte *srcBase =
      src + rect.srcOrigin[2] * rect.srcSlicePitch + rect.srcOrigin[1] * rect.srcRowPitch + rect.srcOrigin[0];
  std::byte *dstBase =
      dst + rect.dstOrigin[2] * rect.dstSlicePitch + rect.dstOrigin[1] * rect.dstRowPitch + rect.dstOrigin[0];
  const size_t width = rect.region[0];
  // Both sides dense: one move for the whole box.
  if (rect.srcRowPitch == width && rect.dstRowPitch == width && rect.srcSlicePitch == width * rect.region[1] &&
      rect.dstSlicePitch == width * rect.region[1]) {
    std::memmove(dstBase, srcBase, width * rect.region[1] * rect.region[2]);
    return;
  }
  for (size_t z = 0; z < rect.region[2]; ++z)
    for (size_t y = 0; y < rect.region[1]; ++y)
      std::memmove(dstBase + z * rect.dstSlicePitch + y * rect.dstRowPitch,
                   srcBase + z * rect.srcSlicePitch + y * rect.srcRowPitch, width);
}

} // namespace mux::support
