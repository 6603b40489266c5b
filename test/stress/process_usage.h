// What the process holds: resident set (/proc/self/statm), open file
// descriptors (/proc/self/fd) and heap in use (glibc's mallinfo2, every
// arena: a steadier measure of leaks than the resident set, which the
// allocator does not give back promptly).
#pragma once

#include <cstdint>

namespace stress {

struct ProcessUsage {
  uint64_t residentBytes = 0;
  uint64_t openFiles = 0;
  uint64_t heapBytes = 0;

  static ProcessUsage now();
};

} // namespace stress
