// One RV64IMAFDC hart (user level) executing over an AddressSpace.
#pragma once

#include "riscv_sim/address_space.h"
#include "riscv_sim/run_result.h"

#include <cstdint>
#include <memory>

namespace riscv_sim::sim {

struct HartState {
  uint64_t x[32] = {};
  /// Single-precision values are NaN-boxed (upper 32 bits all ones).
  uint64_t f[32] = {};
  uint64_t pc = 0;
  /// frm in bits 7:5, fflags (NV DZ OF UF NX) in bits 4:0.
  uint32_t fcsr = 0;
  /// Instructions retired over all run calls; cycle, time and instret read it.
  uint64_t instret = 0;
};

class Hart {
public:
  /// The address space must outlive the hart.
  explicit Hart(AddressSpace &memory);
  ~Hart();
  Hart(const Hart &) = delete;
  Hart &operator=(const Hart &) = delete;

  HartState &state() { return state_; }
  const HartState &state() const { return state_; }
  AddressSpace &memory() { return memory_; }

  /// Executes from state().pc until a jump or branch targets
  /// `returnAddress`, an ecall, a trap, or `instructionLimit` instructions
  /// have retired in this call. The state reflects every retired
  /// instruction; call run again to go on after an ecall or the limit.
  RunResult run(uint64_t returnAddress, uint64_t instructionLimit);

  /// Drops the LR reservation (e.g. when the caller rewrites memory).
  void clearReservation();

  /// The dispatch loop's per-hart state (registers, FP unit, data caches,
  /// reservation); defined with the loop.
  struct Execution;

private:
  AddressSpace &memory_;
  HartState state_;
  std::unique_ptr<Execution> execution_;
};

} // namespace riscv_sim::sim
