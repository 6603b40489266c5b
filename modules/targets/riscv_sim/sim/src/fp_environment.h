// The host floating-point environment while a hart runs: the host rounding
// mode follows the rounding mode of the guest operation, and the host's
// sticky exception flags accumulate the guest's flags, which are read
// lazily (when fflags/fcsr is read or the run ends) instead of after every
// operation.
#pragma once

#include <cfenv>
#include <cstdint>

namespace riscv_sim::sim::fp {

class Environment {
public:
  /// Flags accrued outside the host flags (set by software checks).
  void raise(uint32_t flags) { softFlags_ |= flags; }

  /// Saves the caller's host environment and installs the guest's: host
  /// flags cleared, rounding mode `rm` (0..3).
  void enter(unsigned rm);
  /// Moves the host flags into the accrued flags and restores the caller's
  /// environment.
  void leave();

  /// The accrued flags (moving the host flags into them).
  uint32_t flags();
  /// Replaces the accrued flags.
  void setFlags(uint32_t flags);

  /// Host rounding mode for RNE, RTZ, RDN or RUP.
  void setRounding(unsigned rm);
  unsigned rounding() const { return hostRounding_; }

  /// Whether the host raised inexact since the last clearHostFlags; moves
  /// the other host flags into the accrued ones.
  void clearHostFlags();
  bool hostInexact() const;

private:
  uint32_t hostFlags() const;
  std::fenv_t saved_{};
  uint32_t softFlags_ = 0;
  unsigned hostRounding_ = 0;
};

} // namespace riscv_sim::sim::fp
