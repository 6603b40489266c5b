// Relational functions (OpenCL C 3.0, 6.15.7): isequal, isnotequal,
// isgreater, isgreaterequal, isless, islessequal, islessgreater, isfinite,
// isinf, isnan, isnormal, isordered, isunordered, signbit (float, double and
// half), any and all (signed integers), bitselect and select (every integer
// and floating-point type), scalars and every vector width.
//
// Method: exact, one vector operation per function. OpenCL C comparisons
// already return what the spec asks for: int 0/1 for scalars, and -1/0 in
// the signed integer type of the element size for vectors (float -> int,
// double -> long, half -> short). The comparisons here are IEEE ones (the
// library is never built with finite-math flags), so a NaN operand makes
// every ordered comparison false. Classification (isinf, isnan, isfinite,
// isnormal, signbit) looks at the bits, which also stays correct whatever
// floating-point flags a kernel was compiled with.
#include "pmx_builtins.h"

#define PMX_SCALAR_AND_WIDTHS(M, ...)                                                                                  \
  M(, __VA_ARGS__) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

// ---- comparisons and classification --------------------------------------------------
// F: the floating type; R: the result type of its vectors (scalars give int);
// B: the unsigned type of its bits; SIGN, EXP, MANT: masks of its fields.
#define PMX_RESULT_(R) int
#define PMX_RESULT_2(R) R##2
#define PMX_RESULT_3(R) R##3
#define PMX_RESULT_4(R) R##4
#define PMX_RESULT_8(R) R##8
#define PMX_RESULT_16(R) R##16

#define PMX_RELATIONAL_(N, F, R, B, SIGN, EXP, MANT)                                                                   \
  PMX_OVERLOAD PMX_RESULT_##N(R) isequal(F##N x, F##N y) { return x == y; }                                            \
  PMX_OVERLOAD PMX_RESULT_##N(R) isnotequal(F##N x, F##N y) { return x != y; }                                         \
  PMX_OVERLOAD PMX_RESULT_##N(R) isgreater(F##N x, F##N y) { return x > y; }                                           \
  PMX_OVERLOAD PMX_RESULT_##N(R) isgreaterequal(F##N x, F##N y) { return x >= y; }                                     \
  PMX_OVERLOAD PMX_RESULT_##N(R) isless(F##N x, F##N y) { return x < y; }                                              \
  PMX_OVERLOAD PMX_RESULT_##N(R) islessequal(F##N x, F##N y) { return x <= y; }                                        \
  PMX_OVERLOAD PMX_RESULT_##N(R) islessgreater(F##N x, F##N y) { return x < y || x > y; }                              \
  PMX_OVERLOAD PMX_RESULT_##N(R) isordered(F##N x, F##N y) { return x == x && y == y; }                                \
  PMX_OVERLOAD PMX_RESULT_##N(R) isunordered(F##N x, F##N y) { return x != x || y != y; }                              \
  PMX_OVERLOAD PMX_RESULT_##N(R) isfinite(F##N x) { return (as_##B##N(x) & (B)(EXP)) != (B)(EXP); }                    \
  PMX_OVERLOAD PMX_RESULT_##N(R) isinf(F##N x) { return (as_##B##N(x) & (B)(EXP | MANT)) == (B)(EXP); }                \
  PMX_OVERLOAD PMX_RESULT_##N(R) isnan(F##N x) { return (as_##B##N(x) & (B)(EXP | MANT)) > (B)(EXP); }                 \
  PMX_OVERLOAD PMX_RESULT_##N(R) isnormal(F##N x) {                                                                    \
    B##N e = as_##B##N(x) & (B)(EXP);                                                                                  \
    return e != (B)(0) && e != (B)(EXP);                                                                               \
  }                                                                                                                    \
  PMX_OVERLOAD PMX_RESULT_##N(R) signbit(F##N x) { return (as_##B##N(x) & (B)(SIGN)) != (B)(0); }

#define PMX_RELATIONAL(F, R, B, SIGN, EXP, MANT) PMX_SCALAR_AND_WIDTHS(PMX_RELATIONAL_, F, R, B, SIGN, EXP, MANT)
PMX_RELATIONAL(float, int, uint, 0x80000000u, 0x7f800000u, 0x007fffffu)
PMX_RELATIONAL(double, long, ulong, 0x8000000000000000ul, 0x7ff0000000000000ul, 0x000ffffffffffffful)
PMX_RELATIONAL(half, short, ushort, 0x8000u, 0x7c00u, 0x03ffu)

// ---- any, all: the most significant bit of any / every component --------------------------
#define PMX_ANY_ALL_V_(N, T)                                                                                           \
  PMX_OVERLOAD int any(T##N x) { return __builtin_reduce_or(x) < (T)(0); }                                             \
  PMX_OVERLOAD int all(T##N x) { return __builtin_reduce_and(x) < (T)(0); }
#define PMX_ANY_ALL(T)                                                                                                 \
  PMX_OVERLOAD int any(T x) { return x < (T)(0); }                                                                     \
  PMX_OVERLOAD int all(T x) { return x < (T)(0); }                                                                     \
  PMX_FOR_WIDTHS(PMX_ANY_ALL_V_, T)
PMX_ANY_ALL(char)
PMX_ANY_ALL(short)
PMX_ANY_ALL(int)
PMX_ANY_ALL(long)

// ---- bitselect: each bit from b where c has a 1, else from a ----------------------------------
#define PMX_BITSELECT_INT_(N, T)                                                                                       \
  PMX_OVERLOAD T##N bitselect(T##N a, T##N b, T##N c) { return (a & ~c) | (b & c); }
#define PMX_BITSELECT_FP_(N, F, B)                                                                                     \
  PMX_OVERLOAD F##N bitselect(F##N a, F##N b, F##N c) {                                                                \
    B##N m = as_##B##N(c);                                                                                             \
    B##N r = (as_##B##N(a) & ~m) | (as_##B##N(b) & m);                                                                 \
    return as_##F##N(r);                                                                                               \
  }
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, char)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, uchar)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, short)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, ushort)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, int)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, uint)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, long)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_INT_, ulong)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_FP_, float, uint)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_FP_, double, ulong)
PMX_SCALAR_AND_WIDTHS(PMX_BITSELECT_FP_, half, ushort)

// ---- select: b where c is set, else a ----------------------------------------------------------
// Scalars test c != 0; vectors test the most significant bit of each lane
// of c, which is signed (S) or unsigned (U) of the element's size.
#define PMX_SELECT_SCALAR_(T, C)                                                                                       \
  PMX_OVERLOAD T select(T a, T b, C c) { return c != (C)(0) ? b : a; }
#define PMX_SELECT_VECTOR_(N, T, S, C)                                                                                 \
  PMX_OVERLOAD T##N select(T##N a, T##N b, C##N c) { return as_##S##N(c) < (S##N)(0) ? b : a; }
#define PMX_SELECT(T, S, U)                                                                                            \
  PMX_SELECT_SCALAR_(T, S)                                                                                             \
  PMX_SELECT_SCALAR_(T, U)                                                                                             \
  PMX_FOR_WIDTHS(PMX_SELECT_VECTOR_, T, S, S)                                                                          \
  PMX_FOR_WIDTHS(PMX_SELECT_VECTOR_, T, S, U)
PMX_SELECT(char, char, uchar)
PMX_SELECT(uchar, char, uchar)
PMX_SELECT(short, short, ushort)
PMX_SELECT(ushort, short, ushort)
PMX_SELECT(int, int, uint)
PMX_SELECT(uint, int, uint)
PMX_SELECT(long, long, ulong)
PMX_SELECT(ulong, long, ulong)
PMX_SELECT(float, int, uint)
PMX_SELECT(double, long, ulong)
PMX_SELECT(half, short, ushort)
