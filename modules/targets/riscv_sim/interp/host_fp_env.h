// The host's floating-point environment while a hart runs: guest arithmetic
// runs on the host's SSE unit in the guest's rounding mode, and the SSE
// exception flags, which are sticky exactly like RISC-V's fflags and detect
// tininess after rounding as RISC-V does, accumulate the guest's flags. They
// are read only when the guest reads fflags and when run() returns.
#pragma once

#include "rv_interp/decoder.h"

#include <xmmintrin.h>

#include <cstdint>

namespace riscv_sim {

/// RISC-V fflags bits.
inline constexpr uint32_t NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16;

class HostFpEnvironment {
public:
  /// Saves the host's state and starts with no flags, every exception
  /// masked, no flush-to-zero, rounding `mode` (RNE for RMM, which SSE lacks:
  /// such operations are finished in software).
  explicit HostFpEnvironment(uint8_t mode) : saved_(_mm_getcsr()) { set(mode, 0); }
  ~HostFpEnvironment() { _mm_setcsr(saved_); }
  HostFpEnvironment(const HostFpEnvironment &) = delete;
  HostFpEnvironment &operator=(const HostFpEnvironment &) = delete;

  uint8_t mode() const { return mode_; }
  /// Changes the rounding mode, keeping the flags.
  void setMode(uint8_t mode) {
    if (mode != mode_)
      set(mode, _mm_getcsr() & 0x3f);
  }
  /// The RISC-V flags raised since the last take, which clears them.
  uint32_t takeFlags() {
    uint32_t csr = _mm_getcsr();
    if ((csr & 0x3d) == 0)
      return 0;
    _mm_setcsr(csr & ~0x3fu);
    return (csr & 0x01 ? NV : 0) | (csr & 0x04 ? DZ : 0) | (csr & 0x08 ? OF : 0) | (csr & 0x10 ? UF : 0) |
           (csr & 0x20 ? NX : 0);
  }

private:
  void set(uint8_t mode, uint32_t flags) {
    static constexpr uint32_t kRounding[5] = {0u << 13, 3u << 13, 1u << 13, 2u << 13, 0u << 13};
    mode_ = mode;
    _mm_setcsr(0x1f80u | kRounding[mode <= RMM ? mode : RNE] | flags);
  }

  uint32_t saved_;
  uint8_t mode_ = RNE;
};

} // namespace riscv_sim
