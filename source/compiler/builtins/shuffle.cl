// Miscellaneous vector functions (OpenCL C 3.0, 6.15.13): shuffle and
// shuffle2 for every element type (char..ulong, float, double, half), every
// input width M and every mask/result width N in {2, 4, 8, 16}.
//
// Method: exact lane moves. Only the low bits of each mask element select a
// lane: log2(M) bits for shuffle, log2(2M) for shuffle2 (whose bit M picks y
// over x), as the spec says; the other bits are ignored.
#include "pmx_builtins.h"

#define PMX_SHUFFLE_(N, M, T, U)                                                                                       \
  PMX_OVERLOAD T##N shuffle(T##M x, U##N mask) {                                                                       \
    T##N r = (T##N)(0);                                                                                                \
    for (int i = 0; i < N; ++i)                                                                                        \
      r[i] = x[mask[i] & (U)(M - 1)];                                                                                  \
    return r;                                                                                                          \
  }                                                                                                                    \
  PMX_OVERLOAD T##N shuffle2(T##M x, T##M y, U##N mask) {                                                              \
    T##N r = (T##N)(0);                                                                                                \
    for (int i = 0; i < N; ++i) {                                                                                      \
      U lane = mask[i] & (U)(M - 1);                                                                                   \
      r[i] = (mask[i] & (U)(M)) ? y[lane] : x[lane];                                                                   \
    }                                                                                                                  \
    return r;                                                                                                          \
  }
#define PMX_SHUFFLE_RESULTS_(M, T, U)                                                                                  \
  PMX_SHUFFLE_(2, M, T, U) PMX_SHUFFLE_(4, M, T, U) PMX_SHUFFLE_(8, M, T, U) PMX_SHUFFLE_(16, M, T, U)
#define PMX_SHUFFLE(T, U)                                                                                              \
  PMX_SHUFFLE_RESULTS_(2, T, U)                                                                                        \
  PMX_SHUFFLE_RESULTS_(4, T, U) PMX_SHUFFLE_RESULTS_(8, T, U) PMX_SHUFFLE_RESULTS_(16, T, U)

PMX_SHUFFLE(char, uchar)
PMX_SHUFFLE(uchar, uchar)
PMX_SHUFFLE(short, ushort)
PMX_SHUFFLE(ushort, ushort)
PMX_SHUFFLE(int, uint)
PMX_SHUFFLE(uint, uint)
PMX_SHUFFLE(long, ulong)
PMX_SHUFFLE(ulong, ulong)
PMX_SHUFFLE(float, uint)
PMX_SHUFFLE(double, ulong)
PMX_SHUFFLE(half, ushort)
