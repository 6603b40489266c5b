// Per-hart state of the dispatch loop, kept between run calls.
#pragma once

#include "data_access.h"
#include "fp_environment.h"
#include "riscv_sim/decoded_code.h"
#include "riscv_sim/hart.h"

#include <cstdint>

namespace riscv_sim::sim {

struct Reservation {
  bool valid = false;
  unsigned size = 0;
  uint64_t address = 0;
  uint64_t value = 0; ///< what LR read; SC succeeds if memory still holds it
};

struct Hart::Execution {
  explicit Execution(const AddressSpace &memory) : data(memory) {}

  /// x0..x31 and the sink that absorbs writes to x0.
  uint64_t x[DecodedCode::sinkRegister + 1] = {};
  fp::Environment fpu;
  uint8_t frm = 0; ///< as written, possibly an invalid mode
  DataAccess data;
  Reservation reservation;
};

/// Executes an F/D operation whose rounding mode resolved to RMM (see
/// fp_nearest_max_magnitude.h). Leaves the host rounding at RNE.
void executeNearestMaxMagnitude(const DecodedInstruction &d, const uint64_t *x, uint64_t *f, fp::Environment &env);

/// Zicsr: reads the csr's value; false for CSRs that do not exist.
bool readCsr(Hart::Execution &e, uint64_t instretBefore, uint32_t csr, uint64_t &value);
/// Writes a csr; false for CSRs that do not exist or are read-only.
bool writeCsr(Hart::Execution &e, uint32_t csr, uint64_t value);

} // namespace riscv_sim::sim
