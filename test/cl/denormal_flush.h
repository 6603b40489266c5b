// What the builtin tests accept from a device that flushes float denormals.
//
// A device whose CL_DEVICE_SINGLE_FP_CONFIG lacks CL_FP_DENORM may flush
// float denormals to zero. OpenCL C 3.0 7.5.3 ("Edge Case Behavior in Flush
// To Zero Mode") then allows, for a function, any result that conforms for
// its exact operands, or for its operands with the denormal ones flushed to
// zero; and either of those, when it is a denormal, may itself come back as
// a zero. The CTS judges such devices the same way: it retries a failing
// result against the reference computed with every denormal operand
// replaced by a zero of its sign, and accepts a zero where the reference is
// denormal.
//
// The tests apply these allowances only to float and only when the device
// lacks CL_FP_DENORM; with it (and for double, which cl_khr_fp64 requires
// to keep denormals) every check stays as strict as without them.
#pragma once

#include "cl_test.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace cltest {

/// True when `device` may flush float denormals (no CL_FP_DENORM).
inline bool flushesFloatDenormals(cl_device_id device) {
  return !(deviceInfo<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM);
}

/// Whether `x` is a denormal of its own type.
template <class T> bool isDenormal(T x) { return std::fpclassify(x) == FP_SUBNORMAL; }

/// Whether an exact value (held in a wider type) lies in T's denormal range,
/// below T's smallest normal: a result a flushing device may return as zero.
template <class T, class Exact> bool inDenormalRange(Exact exact) {
  return exact != 0 && std::fabs(exact) < std::numeric_limits<T>::min();
}

/// `x` as a flushing device may read it: a denormal becomes a zero of its sign.
template <class T> T flushDenormal(T x) { return isDenormal(x) ? std::copysign(T(0), x) : x; }

template <class... T> bool anyDenormal(T... x) { return (isDenormal(x) || ...); }

/// Whether `accepts(inputs...)` holds, or, on a device that may flush
/// (`flushing`), `accepts` of the inputs with every denormal flushed.
template <class Accepts, class... T> bool acceptedWithFlushedInputs(bool flushing, Accepts &&accepts, T... inputs) {
  return accepts(inputs...) || (flushing && anyDenormal(inputs...) && accepts(flushDenormal(inputs)...));
}

/// The result flushes of a bit-exact check (to try after the exact match
/// failed): a denormal `want` also accepts a zero of either sign (7.5.3
/// leaves the sign of a flushed zero undefined), and a denormal `got` counts
/// as the zero of its sign.
template <class T> bool matchesAfterResultFlush(T want, T got) {
  using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  return (isDenormal(want) && got == 0) ||
         (isDenormal(got) && std::bit_cast<Bits>(flushDenormal(got)) == std::bit_cast<Bits>(want));
}

} // namespace cltest
