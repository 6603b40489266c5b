// Vector data load and store (OpenCL C 3.0 6.15.11): vloadN and vstoreN,
// N = 2, 3, 4, 8, 16, for every scalar element type, from and to every
// address space a kernel may pass (vload also reads __constant).
//
// The address is p + offset * N elements and need only be aligned to the
// element: the vector is accessed through a vector type of element
// alignment (one unaligned vector load or store). 3-element vectors occupy
// 4 elements in memory, so they are moved element by element instead: a
// vload3 or vstore3 touches exactly 3 elements.
#include "pmx_builtins.h"

#define PMX_VLOAD_(AS, N, T)                                                                                           \
  PMX_OVERLOAD T##N vload##N(size_t offset, const AS T *p) {                                                           \
    return *(const AS __pmx_unaligned_##T##N *)(p + offset * N);                                                       \
  }

#define PMX_VSTORE_(AS, N, T)                                                                                          \
  PMX_OVERLOAD void vstore##N(T##N data, size_t offset, AS T *p) {                                                     \
    *(AS __pmx_unaligned_##T##N *)(p + offset * N) = data;                                                             \
  }

#define PMX_VLOAD3_(AS, T)                                                                                             \
  PMX_OVERLOAD T##3 vload3(size_t offset, const AS T *p) {                                                             \
    const AS T *q = p + offset * 3;                                                                                    \
    return (T##3)(q[0], q[1], q[2]);                                                                                   \
  }

#define PMX_VSTORE3_(AS, T)                                                                                            \
  PMX_OVERLOAD void vstore3(T##3 data, size_t offset, AS T *p) {                                                       \
    AS T *q = p + offset * 3;                                                                                          \
    q[0] = data.s0;                                                                                                    \
    q[1] = data.s1;                                                                                                    \
    q[2] = data.s2;                                                                                                    \
  }

#define PMX_VLOAD_STORE_WIDTH_(N, T)                                                                                   \
  PMX_FOR_POINTER_SPACES(PMX_VLOAD_, N, T)                                                                             \
  PMX_VLOAD_(__constant, N, T)                                                                                         \
  PMX_FOR_POINTER_SPACES(PMX_VSTORE_, N, T)
// T##N with the alignment of T.
#define PMX_UNALIGNED_TYPE_(N, T)                                                                                      \
  typedef T __pmx_unaligned_##T##N __attribute__((ext_vector_type(N), aligned(sizeof(T))));
#define PMX_VLOAD_STORE(T)                                                                                             \
  PMX_UNALIGNED_TYPE_(2, T)                                                                                            \
  PMX_UNALIGNED_TYPE_(4, T)                                                                                            \
  PMX_UNALIGNED_TYPE_(8, T)                                                                                            \
  PMX_UNALIGNED_TYPE_(16, T)                                                                                           \
  PMX_VLOAD_STORE_WIDTH_(2, T)                                                                                         \
  PMX_VLOAD_STORE_WIDTH_(4, T)                                                                                         \
  PMX_VLOAD_STORE_WIDTH_(8, T)                                                                                         \
  PMX_VLOAD_STORE_WIDTH_(16, T)                                                                                        \
  PMX_FOR_POINTER_SPACES(PMX_VLOAD3_, T)                                                                               \
  PMX_VLOAD3_(__constant, T)                                                                                           \
  PMX_FOR_POINTER_SPACES(PMX_VSTORE3_, T)

PMX_VLOAD_STORE(char)
PMX_VLOAD_STORE(uchar)
PMX_VLOAD_STORE(short)
PMX_VLOAD_STORE(ushort)
PMX_VLOAD_STORE(int)
PMX_VLOAD_STORE(uint)
PMX_VLOAD_STORE(long)
PMX_VLOAD_STORE(ulong)
PMX_VLOAD_STORE(float)
PMX_VLOAD_STORE(double)
// halfN vloadN/vstoreN (cl_khr_fp16): the elements are only copied.
PMX_VLOAD_STORE(half)
