// Integer functions (OpenCL C 3.0, 6.15.4) that no LLVM intrinsic gives
// exactly: abs_diff, add_sat, sub_sat, hadd, rhadd, mad_hi, mad_sat, mad24,
// mul24 and upsample, for char..ulong scalars and every vector width.
// (min/max/clamp/abs/popcount/clz/ctz/rotate/mul_hi come from
// LowerExactBuiltinsPass.)
//
// Method: every result is exact. Most bodies are written once with vector
// arithmetic that is also valid for scalars, so a vector overload is one
// operation per lane-group rather than a loop. hadd/rhadd avoid the overflow
// of x + y by halving first and adding back the carry of the low bits.
// mad_sat widens char/short/int to the next type; for long/ulong it forms the
// 128-bit product from mul_hi and the low product and saturates on that.
#include "pmx_builtins.h"

// M(T, N) for the scalar (N empty) and every vector width.
#define PMX_SCALAR_AND_WIDTHS(M, ...)                                                                                  \
  M(, __VA_ARGS__) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

// Signed type S and its unsigned twin U.
#define PMX_INT_PAIRS(M) M(char, uchar) M(short, ushort) M(int, uint) M(long, ulong)

// ---- abs_diff: |x - y| without overflow, as the unsigned type ---------------
#define PMX_ABS_DIFF_(N, T, U)                                                                                         \
  PMX_OVERLOAD U##N abs_diff(T##N x, T##N y) {                                                                         \
    U##N ux = as_##U##N(x), uy = as_##U##N(y);                                                                         \
    return x > y ? ux - uy : uy - ux;                                                                                  \
  }
#define PMX_ABS_DIFF(S, U)                                                                                             \
  PMX_SCALAR_AND_WIDTHS(PMX_ABS_DIFF_, S, U)                                                                           \
  PMX_SCALAR_AND_WIDTHS(PMX_ABS_DIFF_, U, U)
PMX_INT_PAIRS(PMX_ABS_DIFF)

// ---- add_sat, sub_sat: llvm.[us]{add,sub}.sat ---------------------------------
#define PMX_SAT_(N, T)                                                                                                 \
  PMX_OVERLOAD T##N add_sat(T##N x, T##N y) { return __builtin_elementwise_add_sat(x, y); }                            \
  PMX_OVERLOAD T##N sub_sat(T##N x, T##N y) { return __builtin_elementwise_sub_sat(x, y); }
#define PMX_SAT(S, U) PMX_SCALAR_AND_WIDTHS(PMX_SAT_, S) PMX_SCALAR_AND_WIDTHS(PMX_SAT_, U)
PMX_INT_PAIRS(PMX_SAT)

// ---- hadd: floor((x + y) / 2), rhadd: floor((x + y + 1) / 2) --------------------
// x >> 1 is floor(x / 2) for signed types too (arithmetic shift); the low
// bits contribute one more when both (hadd) or either (rhadd) are set.
#define PMX_HADD_(N, T)                                                                                                \
  PMX_OVERLOAD T##N hadd(T##N x, T##N y) { return (x >> 1) + (y >> 1) + (x & y & (T)1); }                              \
  PMX_OVERLOAD T##N rhadd(T##N x, T##N y) { return (x >> 1) + (y >> 1) + ((x | y) & (T)1); }
#define PMX_HADD(S, U) PMX_SCALAR_AND_WIDTHS(PMX_HADD_, S) PMX_SCALAR_AND_WIDTHS(PMX_HADD_, U)
PMX_INT_PAIRS(PMX_HADD)

// ---- mad_hi: mul_hi(a, b) + c, wrapping ------------------------------------------
#define PMX_MAD_HI_(N, T)                                                                                              \
  PMX_OVERLOAD T##N mad_hi(T##N a, T##N b, T##N c) { return mul_hi(a, b) + c; }
#define PMX_MAD_HI(S, U) PMX_SCALAR_AND_WIDTHS(PMX_MAD_HI_, S) PMX_SCALAR_AND_WIDTHS(PMX_MAD_HI_, U)
PMX_INT_PAIRS(PMX_MAD_HI)

// ---- mad_sat: a * b + c saturated -------------------------------------------------
// char/short/int: exact in the type twice as wide (|a*b| + |c| fits), then
// clamped to the range of T.
#define PMX_MAD_SAT_WIDE_(N, T, W, LO, HI)                                                                             \
  PMX_OVERLOAD T##N mad_sat(T##N a, T##N b, T##N c) {                                                                  \
    W##N r = convert_##W##N(a) * convert_##W##N(b) + convert_##W##N(c);                                                \
    return convert_##T##N(clamp(r, (W##N)(LO), (W##N)(HI)));                                                           \
  }
PMX_SCALAR_AND_WIDTHS(PMX_MAD_SAT_WIDE_, char, int, CHAR_MIN, CHAR_MAX)
PMX_SCALAR_AND_WIDTHS(PMX_MAD_SAT_WIDE_, uchar, uint, 0, UCHAR_MAX)
PMX_SCALAR_AND_WIDTHS(PMX_MAD_SAT_WIDE_, short, int, SHRT_MIN, SHRT_MAX)
PMX_SCALAR_AND_WIDTHS(PMX_MAD_SAT_WIDE_, ushort, uint, 0, USHRT_MAX)
PMX_SCALAR_AND_WIDTHS(PMX_MAD_SAT_WIDE_, int, long, INT_MIN, INT_MAX)
PMX_SCALAR_AND_WIDTHS(PMX_MAD_SAT_WIDE_, uint, ulong, 0, UINT_MAX)

// ulong: the product overflows exactly when its high half is nonzero.
PMX_OVERLOAD ulong mad_sat(ulong a, ulong b, ulong c) {
  if (mul_hi(a, b) != 0)
    return ULONG_MAX;
  return __builtin_elementwise_add_sat(a * b, c);
}

// long: the 128-bit value hi:lo = a * b + c (it cannot overflow 128 bits:
// |a * b| <= 2^126) fits in a long exactly when hi is the sign extension of lo.
PMX_OVERLOAD long mad_sat(long a, long b, long c) {
  long hi = mul_hi(a, b);
  ulong lo = (ulong)a * (ulong)b;
  ulong sum = lo + (ulong)c;
  hi += (c >> 63) + (sum < lo ? 1 : 0);
  if (hi != ((long)sum >> 63))
    return hi < 0 ? LONG_MIN : LONG_MAX;
  return (long)sum;
}
PMX_LANEWISE_3(ulong, mad_sat, ulong, ulong, ulong)
PMX_LANEWISE_3(long, mad_sat, long, long, long)

// ---- mul24, mad24: products of 24-bit operands --------------------------------------
// For operands in the 24-bit range the 32-bit product is the result; outside
// it the result is implementation-defined (OpenCL C 6.15.4), and Polymux
// returns the 32-bit product there too: a plain multiply, as fast as `*`,
// where masking both operands to 24 bits first added two operations each.
// The arithmetic is unsigned, where it wraps: a signed overflow would be
// undefined behaviour, not an implementation's choice.
#define PMX_MUL24_(N, T)                                                                                               \
  PMX_OVERLOAD T##N mul24(T##N x, T##N y) { return as_##T##N(as_uint##N(x) * as_uint##N(y)); }                         \
  PMX_OVERLOAD T##N mad24(T##N x, T##N y, T##N z) {                                                                    \
    return as_##T##N(as_uint##N(x) * as_uint##N(y) + as_uint##N(z));                                                  \
  }
PMX_SCALAR_AND_WIDTHS(PMX_MUL24_, int)
PMX_SCALAR_AND_WIDTHS(PMX_MUL24_, uint)

// ---- upsample: (hi << bits(lo)) | lo in the type twice as wide ------------------------
#define PMX_UPSAMPLE_(N, H, L, R, BITS)                                                                                \
  PMX_OVERLOAD R##N upsample(H##N hi, L##N lo) { return (convert_##R##N(hi) << BITS) | convert_##R##N(lo); }
PMX_SCALAR_AND_WIDTHS(PMX_UPSAMPLE_, char, uchar, short, 8)
PMX_SCALAR_AND_WIDTHS(PMX_UPSAMPLE_, uchar, uchar, ushort, 8)
PMX_SCALAR_AND_WIDTHS(PMX_UPSAMPLE_, short, ushort, int, 16)
PMX_SCALAR_AND_WIDTHS(PMX_UPSAMPLE_, ushort, ushort, uint, 16)
PMX_SCALAR_AND_WIDTHS(PMX_UPSAMPLE_, int, uint, long, 32)
PMX_SCALAR_AND_WIDTHS(PMX_UPSAMPLE_, uint, uint, ulong, 32)
