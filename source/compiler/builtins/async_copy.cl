// Async copies between global and local memory (OpenCL C 3.0 6.15.12):
// async_work_group_copy and async_work_group_strided_copy in both
// directions for every gentype, and wait_group_events.
//
// Every work-item of the group calls a copy with the same arguments; each
// copies the elements i = local linear id, + local size, ... (a strided
// share, so consecutive work-items touch consecutive elements), synchronously.
// The copy is therefore complete in each work-item when the call returns,
// and wait_group_events makes it visible to the whole group with a barrier.
// The event returned is the one passed in (0 when none is), as the spec
// allows. Everything here reads work-item state or synchronises the group,
// so it is always inlined into the kernel before the barrier lowering.
#include "pmx_builtins.h"

static inline __attribute__((always_inline)) size_t __pmx_group_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

// The contiguous copies are the strided ones with a stride of 1 (inlined,
// so the multiplication folds away).
#define PMX_ASYNC_COPY_(T)                                                                                             \
  PMX_INLINE event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t count,                \
                                                   size_t srcStride, event_t event) {                                  \
    size_t step = __pmx_group_size();                                                                                  \
    for (size_t i = get_local_linear_id(); i < count; i += step)                                                       \
      dst[i] = src[i * srcStride];                                                                                     \
    return event;                                                                                                      \
  }                                                                                                                    \
  PMX_INLINE event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t count,                \
                                                   size_t dstStride, event_t event) {                                  \
    size_t step = __pmx_group_size();                                                                                  \
    for (size_t i = get_local_linear_id(); i < count; i += step)                                                       \
      dst[i * dstStride] = src[i];                                                                                     \
    return event;                                                                                                      \
  }                                                                                                                    \
  PMX_INLINE event_t async_work_group_copy(__local T *dst, const __global T *src, size_t count, event_t event) {       \
    return async_work_group_strided_copy(dst, src, count, 1, event);                                                   \
  }                                                                                                                    \
  PMX_INLINE event_t async_work_group_copy(__global T *dst, const __local T *src, size_t count, event_t event) {       \
    return async_work_group_strided_copy(dst, src, count, 1, event);                                                   \
  }

#define PMX_ASYNC_COPY_WIDTH_(N, T) PMX_ASYNC_COPY_(T##N)
#define PMX_ASYNC_COPY(T) PMX_ASYNC_COPY_(T) PMX_FOR_WIDTHS(PMX_ASYNC_COPY_WIDTH_, T)

PMX_ASYNC_COPY(char)
PMX_ASYNC_COPY(uchar)
PMX_ASYNC_COPY(short)
PMX_ASYNC_COPY(ushort)
PMX_ASYNC_COPY(int)
PMX_ASYNC_COPY(uint)
PMX_ASYNC_COPY(long)
PMX_ASYNC_COPY(ulong)
PMX_ASYNC_COPY(float)
PMX_ASYNC_COPY(double)
PMX_ASYNC_COPY(half)

// The events are those of the group's copies, which each work-item has
// finished: one barrier makes every copy visible to the whole group.
PMX_INLINE void wait_group_events(int count, __private event_t *events) {
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
PMX_INLINE void wait_group_events(int count, __generic event_t *events) {
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
