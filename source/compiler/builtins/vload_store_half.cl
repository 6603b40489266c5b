// Half-precision loads and stores (OpenCL C 3.0 6.15.11): vload_half[N],
// vloada_halfN, vstore_half[N][_rte|_rtz|_rtp|_rtn] and
// vstorea_halfN[_rte|_rtz|_rtp|_rtn], from float and from double, for every
// address space a kernel may pass (loads also from __constant).
//
// Values move as binary16 bit patterns (ushort) converted on the bits
// (pmx_half.h): half -> float is exact, float/double -> half rounds once in
// the mode named by the suffix (round to nearest even without one). The
// vload_half/vstore_half forms need only element (2-byte) alignment; the
// vloada/vstorea forms read and write a halfN aligned to its size, with
// half3 at a stride of 4 elements.
#include "pmx_half.h"

// ---- Loads -----------------------------------------------------------------

#define PMX_VLOAD_HALF_SCALAR_(AS, F)                                                                                  \
  PMX_OVERLOAD float F(size_t offset, const AS half *p) {                                                              \
    return __pmx_half_bits_to_float(((const AS ushort *)p)[offset]);                                                   \
  }

// STRIDE is the element distance between consecutive offsets.
#define PMX_VLOAD_HALF_VECTOR_(AS, N, F, STRIDE)                                                                       \
  PMX_OVERLOAD float##N F##N(size_t offset, const AS half *p) {                                                        \
    const AS ushort *q = (const AS ushort *)p + offset * (STRIDE);                                                     \
    float##N r;                                                                                                        \
    for (int i = 0; i < N; ++i)                                                                                        \
      r[i] = __pmx_half_bits_to_float(q[i]);                                                                           \
    return r;                                                                                                          \
  }

// PMX_FOR_WIDTHS passes the width first, then the address space.
#define PMX_VLOAD_HALF_WIDTH_(N, AS)                                                                                   \
  PMX_VLOAD_HALF_VECTOR_(AS, N, vload_half, N)                                                                         \
  PMX_VLOAD_HALF_VECTOR_(AS, N, vloada_half, (N == 3 ? 4 : N))
#define PMX_VLOAD_HALF_SPACE_(AS, _)                                                                                   \
  PMX_VLOAD_HALF_SCALAR_(AS, vload_half)                                                                               \
  PMX_VLOAD_HALF_SCALAR_(AS, vloada_half)                                                                              \
  PMX_FOR_WIDTHS(PMX_VLOAD_HALF_WIDTH_, AS)

PMX_FOR_POINTER_SPACES(PMX_VLOAD_HALF_SPACE_, _)
PMX_VLOAD_HALF_SPACE_(__constant, _)

// ---- Stores ----------------------------------------------------------------

#define PMX_VSTORE_HALF_SCALAR_(AS, F, MODE, T)                                                                        \
  PMX_OVERLOAD void F(T data, size_t offset, AS half *p) {                                                             \
    ((AS ushort *)p)[offset] = __pmx_double_to_half_bits((double)data, MODE);                                          \
  }

#define PMX_VSTORE_HALF_VECTOR_(AS, N, F, SUFFIX, MODE, T, STRIDE)                                                     \
  PMX_OVERLOAD void F##N##SUFFIX(T##N data, size_t offset, AS half *p) {                                               \
    AS ushort *q = (AS ushort *)p + offset * (STRIDE);                                                                 \
    for (int i = 0; i < N; ++i)                                                                                        \
      q[i] = __pmx_double_to_half_bits((double)data[i], MODE);                                                         \
  }

#define PMX_VSTORE_HALF_WIDTH_(N, AS, SUFFIX, MODE, T)                                                                 \
  PMX_VSTORE_HALF_VECTOR_(AS, N, vstore_half, SUFFIX, MODE, T, N)                                                      \
  PMX_VSTORE_HALF_VECTOR_(AS, N, vstorea_half, SUFFIX, MODE, T, (N == 3 ? 4 : N))

#define PMX_VSTORE_HALF_MODE_(AS, SUFFIX, MODE, T)                                                                     \
  PMX_VSTORE_HALF_SCALAR_(AS, vstore_half##SUFFIX, MODE, T)                                                            \
  PMX_VSTORE_HALF_SCALAR_(AS, vstorea_half##SUFFIX, MODE, T)                                                           \
  PMX_FOR_WIDTHS(PMX_VSTORE_HALF_WIDTH_, AS, SUFFIX, MODE, T)

#define PMX_VSTORE_HALF_SPACE_(AS, T)                                                                                  \
  PMX_VSTORE_HALF_MODE_(AS, , PMX_RTE, T)                                                                              \
  PMX_VSTORE_HALF_MODE_(AS, _rte, PMX_RTE, T)                                                                          \
  PMX_VSTORE_HALF_MODE_(AS, _rtz, PMX_RTZ, T)                                                                          \
  PMX_VSTORE_HALF_MODE_(AS, _rtp, PMX_RTP, T)                                                                          \
  PMX_VSTORE_HALF_MODE_(AS, _rtn, PMX_RTN, T)

PMX_FOR_POINTER_SPACES(PMX_VSTORE_HALF_SPACE_, float)
PMX_FOR_POINTER_SPACES(PMX_VSTORE_HALF_SPACE_, double)
