#include "fp_environment.h"
#include "fp_bits.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace riscv_sim::sim::fp {
namespace {

#if defined(__x86_64__)
// MXCSR: exception flags in bits 5:0 (IE DE ZE OE UE PE), rounding control
// in bits 14:13 (nearest, down, up, toward zero).
constexpr unsigned mxcsrFlagMask = 0x3f;
constexpr unsigned mxcsrRoundingShift = 13;
constexpr unsigned mxcsrRounding[4] = {0, 3, 1, 2}; // indexed by RISC-V rm

uint32_t fromHostFlags(unsigned mxcsr) {
  uint32_t flags = 0;
  if (mxcsr & 0x01)
    flags |= Invalid;
  if (mxcsr & 0x04)
    flags |= DivideByZero;
  if (mxcsr & 0x08)
    flags |= Overflow;
  if (mxcsr & 0x10)
    flags |= Underflow;
  if (mxcsr & 0x20)
    flags |= Inexact;
  return flags;
}
#else
constexpr int hostRounding[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
#endif

} // namespace

void Environment::enter(unsigned rm) {
  std::fegetenv(&saved_);
#if defined(__x86_64__)
  // All exceptions masked, no flush-to-zero or denormals-are-zero.
  _mm_setcsr(0x1f80 | mxcsrRounding[rm] << mxcsrRoundingShift);
#else
  std::feclearexcept(FE_ALL_EXCEPT);
  std::fesetround(hostRounding[rm]);
#endif
  hostRounding_ = rm;
}

void Environment::leave() {
  softFlags_ |= hostFlags();
  std::fesetenv(&saved_);
}

uint32_t Environment::hostFlags() const {
#if defined(__x86_64__)
  return fromHostFlags(_mm_getcsr());
#else
  int raised = std::fetestexcept(FE_ALL_EXCEPT);
  return (raised & FE_INVALID ? Invalid : 0) | (raised & FE_DIVBYZERO ? DivideByZero : 0) |
         (raised & FE_OVERFLOW ? Overflow : 0) | (raised & FE_UNDERFLOW ? Underflow : 0) |
         (raised & FE_INEXACT ? Inexact : 0);
#endif
}

void Environment::clearHostFlags() {
  softFlags_ |= hostFlags();
#if defined(__x86_64__)
  _mm_setcsr(_mm_getcsr() & ~mxcsrFlagMask);
#else
  std::feclearexcept(FE_ALL_EXCEPT);
#endif
}

bool Environment::hostInexact() const { return hostFlags() & Inexact; }

uint32_t Environment::flags() {
  clearHostFlags();
  return softFlags_;
}

void Environment::setFlags(uint32_t flags) {
  clearHostFlags();
  softFlags_ = flags & 0x1f;
}

void Environment::setRounding(unsigned rm) {
#if defined(__x86_64__)
  _mm_setcsr((_mm_getcsr() & ~(3u << mxcsrRoundingShift)) | mxcsrRounding[rm] << mxcsrRoundingShift);
#else
  std::fesetround(hostRounding[rm]);
#endif
  hostRounding_ = rm;
}

} // namespace riscv_sim::sim::fp
