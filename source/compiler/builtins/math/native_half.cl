// native_* and half_* math builtins (OpenCL C 3.0, 6.15.2), float scalars
// and vectors. Their accuracy is implementation-defined (native_*) or 8192
// ulp on restricted ranges (half_*), so each forwards to the full-precision
// builtin, which is within every one of those bounds; division, reciprocal
// and square root are single IEEE operations.
#include "pmx_builtins.h"

// Scalars forward; vectors go lane by lane through the scalars (a call to a
// vector overload across files would pass wide vectors by an ABI that
// depends on the target's features).
#define PMX_NH_UNARY_1(NAME, FULL)                                                                                     \
  PMX_OVERLOAD float NAME(float x) { return FULL(x); }                                                                 \
  PMX_LANEWISE_1(float, NAME, float)
#define PMX_NH_BINARY_1(NAME, FULL)                                                                                    \
  PMX_OVERLOAD float NAME(float x, float y) { return FULL(x, y); }                                                     \
  PMX_LANEWISE_2(float, NAME, float, float)
#define PMX_NH_UNARY(NAME, FULL) PMX_NH_UNARY_1(native_##NAME, FULL) PMX_NH_UNARY_1(half_##NAME, FULL)
#define PMX_NH_BINARY(NAME, FULL) PMX_NH_BINARY_1(native_##NAME, FULL) PMX_NH_BINARY_1(half_##NAME, FULL)

#define PMX_DIVIDE(x, y) ((x) / (y))
#define PMX_RECIP(x) (1.0f / (x))

PMX_NH_UNARY(cos, cos)
PMX_NH_UNARY(sin, sin)
PMX_NH_UNARY(tan, tan)
PMX_NH_UNARY(exp, exp)
PMX_NH_UNARY(exp2, exp2)
PMX_NH_UNARY(exp10, exp10)
PMX_NH_UNARY(log, log)
PMX_NH_UNARY(log2, log2)
PMX_NH_UNARY(log10, log10)
PMX_NH_UNARY(rsqrt, rsqrt)
PMX_NH_UNARY(sqrt, sqrt)
PMX_NH_UNARY(recip, PMX_RECIP)
PMX_NH_BINARY(divide, PMX_DIVIDE)
PMX_NH_BINARY(powr, powr)
