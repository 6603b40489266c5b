// prefetch(const __global gentype *p, size_t num_gentypes): a hint that
// the work-item will soon read that range. The cache lines it spans are
// prefetched, at most PMX_MAX_PREFETCH_LINES of them: a longer range would cost more
// instructions than the misses it avoids.
#include "pmx_builtins.h"

#define PMX_CACHE_LINE 64
#define PMX_MAX_PREFETCH_LINES 16

static inline void __pmx_prefetch_bytes(const __global char *p, size_t bytes) {
  size_t lines = (bytes + PMX_CACHE_LINE - 1) / PMX_CACHE_LINE;
  if (lines > PMX_MAX_PREFETCH_LINES)
    lines = PMX_MAX_PREFETCH_LINES;
  for (size_t line = 0; line < lines; ++line)
    __builtin_prefetch(p + line * PMX_CACHE_LINE, 0, 3);
}

#define PMX_PREFETCH_(N, T)                                                                                            \
  PMX_OVERLOAD void prefetch(const __global T##N *p, size_t count) {                                                   \
    __pmx_prefetch_bytes((const __global char *)p, count * sizeof(T##N));                                              \
  }
#define PMX_PREFETCH(T)                                                                                                \
  PMX_OVERLOAD void prefetch(const __global T *p, size_t count) {                                                      \
    __pmx_prefetch_bytes((const __global char *)p, count * sizeof(T));                                                 \
  }                                                                                                                    \
  PMX_FOR_WIDTHS(PMX_PREFETCH_, T)

PMX_PREFETCH(char)
PMX_PREFETCH(uchar)
PMX_PREFETCH(short)
PMX_PREFETCH(ushort)
PMX_PREFETCH(int)
PMX_PREFETCH(uint)
PMX_PREFETCH(long)
PMX_PREFETCH(ulong)
PMX_PREFETCH(float)
PMX_PREFETCH(double)
PMX_PREFETCH(half)
