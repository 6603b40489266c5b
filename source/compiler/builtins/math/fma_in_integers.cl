// A correctly rounded double fma computed in 64-bit integer arithmetic, for
// devices whose own double fma rounds twice (Vulkan lets GLSL.std.450 Fma do
// so; lavapipe's does), and PMX_FMA_EXACT's function (pmx_math.h). Neither
// is an OpenCL builtin: on such a device the compiler calls the first in
// place of the kernels' own double fmas and of the second's
// (compiler/spirv's EmulateDoubleFmaPass).
//
// Method: the operands' integer mantissas give the exact 106-bit product as a
// 128-bit integer; it and the addend are placed in 128 bits with their
// lowest bits zero, the one of smaller magnitude scale shifted right with the
// bits it loses "jammed" into bit 0 (a sticky bit: the jammed value lies
// strictly between the same two even integers as the exact one, so rounding
// at any bit above bit 1 is unchanged), then added or subtracted. Massive
// cancellation only happens when the scales are within a few bits, where
// nothing was shifted out, so the difference is exact. The sum is then
// rounded once to nearest even, to a normal or a subnormal double.
// Operands that are zero, infinite or NaN give results the hardware computes
// exactly (a*b + c or a*b), with IEEE 754's signs.
//
// Written without branches (every candidate computed, then selected; shifts
// whose counts OpenCL C takes modulo 64; & and | rather than && and ||, which
// would branch): a GPU runs both sides of a divergent branch anyway, and the
// function is inlined wherever a kernel needs an exact fma, so the fewer
// instructions the better.
#include "pmx_misc.h"

/// Where the library needs an exact fma (pmx_math.h): the device's, which the
/// compiler replaces where it rounds twice.
#define PMX_FMA_EXACT_DEFINE_(N, unused)                                                                               \
  PMX_OVERLOAD double##N __pmx_fma_exact(double##N a, double##N b, double##N c) {                                      \
    return __builtin_elementwise_fma(a, b, c);                                                                         \
  }
// clang-format off
PMX_FMA_EXACT_DEFINE_(, )
PMX_FOR_WIDTHS(PMX_FMA_EXACT_DEFINE_, )
// clang-format on

typedef struct {
  ulong hi, lo;
} __pmx_u128;

/// x << s, 0 <= s < 128.
static inline __pmx_u128 __pmx_u128_shl(__pmx_u128 x, uint s) {
  uint t = s & 63;
  ulong whole = -(ulong)(s >= 64); // all ones when a whole word moves up
  ulong lowUp = x.lo << t, highUp = (x.hi << t) | ((x.lo >> 1) >> (63 - t));
  __pmx_u128 r = {(lowUp & whole) | (highUp & ~whole), lowUp & ~whole};
  return r;
}

/// x >> s for any s, with bit 0 set when a 1 bit was shifted out.
static inline __pmx_u128 __pmx_u128_shr_jam(__pmx_u128 x, uint s) {
  uint t = s & 63;
  ulong below = ~(~0UL << t); // the t bits a shift by t loses
  // All ones when a whole word (or everything) moves out.
  ulong whole = -(ulong)(s >= 64), all = -(ulong)(s >= 128);
  ulong highDown = x.hi >> t, lowDown = (x.lo >> t) | ((x.hi << 1) << (63 - t));
  ulong lost = (x.lo & (below | whole)) | (x.hi & ((below & whole) | all));
  ulong low = ((highDown & whole) | (lowDown & ~whole)) & ~all;
  __pmx_u128 r = {highDown & ~whole, low | (lost != 0)};
  return r;
}

double __pmx_fma_f64_in_integers(double a, double b, double c) {
  ulong ua = as_ulong(a), ub = as_ulong(b), uc = as_ulong(c);
  const ulong magnitude = 0x7fffffffffffffffUL, infinity = 0x7ff0000000000000UL;
  int ea, eb, ec; // |a| = ma 2^ea, ...
  ulong ma = __pmx_int_mantissa(a, &ea), mb = __pmx_int_mantissa(b, &eb), mc = __pmx_int_mantissa(c, &ec);
  // The exact product ma * mb < 2^106 from 32-bit halves.
  ulong a0 = ma & 0xffffffffUL, a1 = ma >> 32, b0 = mb & 0xffffffffUL, b1 = mb >> 32;
  ulong low = a0 * b0, middle = a0 * b1 + a1 * b0; // middle < 2^54
  __pmx_u128 product;
  product.lo = low + (middle << 32);
  product.hi = a1 * b1 + (middle >> 32) + (product.lo < low);
  // Both below 2^126 with their low 20 bits zero; value = X * 2^scale.
  product = __pmx_u128_shl(product, 20);
  int productScale = ea + eb - 20;
  __pmx_u128 addend = {mc << 9, 0}; // mc << 73
  int addendScale = ec - 73;
  // The one of smaller scale moves down (the other by 0, which is no move).
  int scale = max(productScale, addendScale);
  addend = __pmx_u128_shr_jam(addend, (uint)(scale - addendScale));
  product = __pmx_u128_shr_jam(product, (uint)(scale - productScale));

  ulong productSign = (ua ^ ub) & ~magnitude, addendSign = uc & ~magnitude;
  bool subtract = productSign != addendSign;
  bool productLarger = (product.hi > addend.hi) | ((product.hi == addend.hi) & (product.lo >= addend.lo));
  __pmx_u128 large = productLarger ? product : addend, small = productLarger ? addend : product;
  ulong differenceLow = large.lo - small.lo, sumLow = large.lo + small.lo;
  ulong differenceHigh = large.hi - small.hi - (large.lo < small.lo);
  ulong sumHigh = large.hi + small.hi + (sumLow < large.lo);
  __pmx_u128 sum = {subtract ? differenceHigh : sumHigh, subtract ? differenceLow : sumLow};
  ulong sign = productLarger ? productSign : addendSign;

  // Normalise to [2^127, 2^128): the result is 1.f * 2^(127 + scale).
  uint highZeros = (uint)clz(sum.hi), lowZeros = (uint)clz(sum.lo);
  uint leading = sum.hi != 0 ? highZeros : 64 + lowZeros;
  sum = __pmx_u128_shl(sum, leading & 127);
  int field = 127 + scale - (int)leading + 1023; // the biased exponent
  // Subnormal: only the bits at and above 2^-1074 are kept.
  sum = __pmx_u128_shr_jam(sum, (uint)(field < 1 ? 1 - field : 0));
  // The 53 (subnormal: fewer) kept bits are 127..75, the rounding bit 74.
  ulong kept = sum.hi >> 11;
  bool roundUp = ((sum.hi >> 10) & 1) & (((sum.hi & 0x3ff) != 0) | (sum.lo != 0) | (kept & 1));
  // Adding the kept bits (with their leading 1) to (field - 1) << 52 encodes
  // the double; a carry from rounding moves into the exponent, to infinity
  // at the top and to the smallest normal from the largest subnormal.
  ulong bits = (field >= 1 ? (ulong)(field - 1) << 52 : 0) + kept + roundUp;
  bits = field >= 2047 ? infinity : bits;
  double fused = as_double(sign | bits);

  // A zero, infinite or NaN factor: the product is exact (or NaN), so one
  // rounding of the sum is all there is. An infinite or NaN addend is the
  // result of a finite product; a zero addend leaves the product's
  // rounding, sign included; an exact zero sum is +0.
  bool specialFactor = ((ua & magnitude) == 0) | ((ub & magnitude) == 0) | ((ua & magnitude) >= infinity) |
                       ((ub & magnitude) >= infinity);
  double product64 = a * b;
  double result = (sum.hi | sum.lo) == 0 ? 0.0 : fused;
  result = (uc & magnitude) == 0 ? product64 : result;
  result = (uc & magnitude) >= infinity ? c : result;
  return specialFactor ? product64 + c : result;
}
