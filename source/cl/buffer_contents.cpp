// BufferContents: see buffer_contents.h.
#include "buffer_contents.h"

#include <algorithm>
#include <cassert>

namespace polymux::cl {

BufferContents::BufferContents(uint64_t size, size_t deviceCount) {
  Extent whole;
  whole.begin = 0;
  whole.end = size;
  whole.copies.resize(deviceCount);
  extents_.push_back(std::move(whole));
}

size_t BufferContents::splitAt(uint64_t offset) {
  auto it = std::partition_point(extents_.begin(), extents_.end(), [&](const Extent &e) { return e.end <= offset; });
  if (it == extents_.end())
    return extents_.size(); // offset is the end of the buffer
  const size_t index = it - extents_.begin();
  if (it->begin == offset)
    return index;
  Extent tail = *it;
  tail.begin = offset;
  it->end = offset;
  extents_.insert(extents_.begin() + index + 1, std::move(tail));
  return index + 1;
}

std::span<BufferContents::Extent> BufferContents::extents(uint64_t begin, uint64_t end) {
  assert(begin < end && end <= extents_.back().end && "range outside the buffer");
  const size_t first = splitAt(begin);
  const size_t last = splitAt(end);
  return std::span<Extent>(extents_).subspan(first, last - first);
}

void BufferContents::coalesce() {
  size_t kept = 0;
  for (size_t i = 1; i < extents_.size(); ++i) {
    if (extents_[i].copies == extents_[kept].copies) {
      extents_[kept].end = extents_[i].end;
      continue;
    }
    if (++kept != i)
      extents_[kept] = std::move(extents_[i]);
  }
  extents_.resize(kept + 1);
}

} // namespace polymux::cl
