// Shared definitions for the OpenCL C builtins library.
//
// The library is compiled for every target triple with clang's builtin
// declarations (-fdeclare-opencl-builtins), so each definition here must
// match the declaration a kernel calls: same name, same OpenCL types, same
// pointer address space. Mangled names then match by construction.
//
// Conventions:
//  - Every overload is written once for scalars; vector widths come from the
//    PMX_LANEWISE_* macros, which apply the scalar function lane by lane.
//  - Functions with pointer arguments exist once per address space a kernel
//    may pass: PMX_FOR_POINTER_SPACES gives __private, __global, __local and
//    __generic (OpenCL C 1.2 kernels call the first three, 2.0+ the last).
//  - Helpers that are not builtins start with __pmx_ and are static inline
//    or internal to one file.
#ifndef POLYMUX_BUILTINS_H
#define POLYMUX_BUILTINS_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define PMX_OVERLOAD __attribute__((overloadable))
/// For builtins that must be inlined into the kernel before the barrier
/// lowering (they synchronise the work-group or read work-item state).
#define PMX_INLINE __attribute__((overloadable, always_inline))

#define PMX_FOR_WIDTHS(M, ...)                                                                                         \
  M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

#define PMX_FOR_POINTER_SPACES(M, ...) M(__private, __VA_ARGS__) M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__generic, __VA_ARGS__)

// R##N F(A##N x): r[i] = F(x[i])
#define PMX_LANEWISE_1_(N, R, F, A)                                                                                    \
  PMX_OVERLOAD R##N F(A##N x) {                                                                                        \
    R##N r = (R##N)(0);                                                                                                \
    for (int i = 0; i < N; ++i)                                                                                        \
      r[i] = F(x[i]);                                                                                                  \
    return r;                                                                                                          \
  }
#define PMX_LANEWISE_1(R, F, A) PMX_FOR_WIDTHS(PMX_LANEWISE_1_, R, F, A)

// R##N F(A##N x, B##N y): r[i] = F(x[i], y[i])
#define PMX_LANEWISE_2_(N, R, F, A, B)                                                                                 \
  PMX_OVERLOAD R##N F(A##N x, B##N y) {                                                                                \
    R##N r = (R##N)(0);                                                                                                \
    for (int i = 0; i < N; ++i)                                                                                        \
      r[i] = F(x[i], y[i]);                                                                                            \
    return r;                                                                                                          \
  }
#define PMX_LANEWISE_2(R, F, A, B) PMX_FOR_WIDTHS(PMX_LANEWISE_2_, R, F, A, B)

// R##N F(A##N x, B y) with a scalar second argument: r[i] = F(x[i], y)
#define PMX_LANEWISE_2S_(N, R, F, A, B)                                                                                \
  PMX_OVERLOAD R##N F(A##N x, B y) {                                                                                   \
    R##N r = (R##N)(0);                                                                                                \
    for (int i = 0; i < N; ++i)                                                                                        \
      r[i] = F(x[i], y);                                                                                               \
    return r;                                                                                                          \
  }
#define PMX_LANEWISE_2S(R, F, A, B) PMX_FOR_WIDTHS(PMX_LANEWISE_2S_, R, F, A, B)

// R##N F(A##N x, B##N y, C##N z): r[i] = F(x[i], y[i], z[i])
#define PMX_LANEWISE_3_(N, R, F, A, B, C)                                                                              \
  PMX_OVERLOAD R##N F(A##N x, B##N y, C##N z) {                                                                        \
    R##N r = (R##N)(0);                                                                                                \
    for (int i = 0; i < N; ++i)                                                                                        \
      r[i] = F(x[i], y[i], z[i]);                                                                                      \
    return r;                                                                                                          \
  }
#define PMX_LANEWISE_3(R, F, A, B, C) PMX_FOR_WIDTHS(PMX_LANEWISE_3_, R, F, A, B, C)

// R##N F(A##N x, AS P##N *p): r[i] = F(x[i], &p_i), *p = (p_0, p_1, ...)
#define PMX_LANEWISE_1P_SPACE_(AS, N, R, F, A, P)                                                                      \
  PMX_OVERLOAD R##N F(A##N x, AS P##N *p) {                                                                            \
    R##N r = (R##N)(0);                                                                                                \
    P##N out = (P##N)(0);                                                                                              \
    for (int i = 0; i < N; ++i) {                                                                                      \
      P lane;                                                                                                          \
      r[i] = F(x[i], &lane);                                                                                           \
      out[i] = lane;                                                                                                   \
    }                                                                                                                  \
    *p = out;                                                                                                          \
    return r;                                                                                                          \
  }
#define PMX_LANEWISE_1P_(N, R, F, A, P) PMX_FOR_POINTER_SPACES(PMX_LANEWISE_1P_SPACE_, N, R, F, A, P)
#define PMX_LANEWISE_1P(R, F, A, P) PMX_FOR_WIDTHS(PMX_LANEWISE_1P_, R, F, A, P)

// R##N F(A##N x, B##N y, AS P##N *p): r[i] = F(x[i], y[i], &p_i)
#define PMX_LANEWISE_2P_SPACE_(AS, N, R, F, A, B, P)                                                                   \
  PMX_OVERLOAD R##N F(A##N x, B##N y, AS P##N *p) {                                                                    \
    R##N r = (R##N)(0);                                                                                                \
    P##N out = (P##N)(0);                                                                                              \
    for (int i = 0; i < N; ++i) {                                                                                      \
      P lane;                                                                                                          \
      r[i] = F(x[i], y[i], &lane);                                                                                     \
      out[i] = lane;                                                                                                   \
    }                                                                                                                  \
    *p = out;                                                                                                          \
    return r;                                                                                                          \
  }
#define PMX_LANEWISE_2P_(N, R, F, A, B, P) PMX_FOR_POINTER_SPACES(PMX_LANEWISE_2P_SPACE_, N, R, F, A, B, P)
#define PMX_LANEWISE_2P(R, F, A, B, P) PMX_FOR_WIDTHS(PMX_LANEWISE_2P_, R, F, A, B, P)

// Scalar pointer-argument overloads for the four address spaces from one
// __generic implementation: F(A x, AS P *p) forwards to F(x, (__generic P *)p).
#define PMX_FORWARD_1P_SPACE_(AS, R, F, A, P)                                                                          \
  PMX_OVERLOAD R F(A x, AS P *p) { return F(x, (__generic P *)p); }
#define PMX_FORWARD_1P(R, F, A, P)                                                                                     \
  PMX_FORWARD_1P_SPACE_(__private, R, F, A, P)                                                                         \
  PMX_FORWARD_1P_SPACE_(__global, R, F, A, P) PMX_FORWARD_1P_SPACE_(__local, R, F, A, P)
#define PMX_FORWARD_2P_SPACE_(AS, R, F, A, B, P)                                                                       \
  PMX_OVERLOAD R F(A x, B y, AS P *p) { return F(x, y, (__generic P *)p); }
#define PMX_FORWARD_2P(R, F, A, B, P)                                                                                  \
  PMX_FORWARD_2P_SPACE_(__private, R, F, A, B, P)                                                                      \
  PMX_FORWARD_2P_SPACE_(__global, R, F, A, B, P) PMX_FORWARD_2P_SPACE_(__local, R, F, A, B, P)

#endif // POLYMUX_BUILTINS_H
