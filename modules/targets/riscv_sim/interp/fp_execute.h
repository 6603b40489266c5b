// Execution of the F and D instructions other than loads and stores.
#pragma once

#include "host_fp_env.h"
#include "rv_interp/decoder.h"

#include <cstdint>

namespace riscv_sim {

/// Executes `d` (an F/D computational instruction) on the registers; flags
/// the host does not raise itself go to `fflags`. False when the
/// instruction is illegal (a dynamic rounding mode while frm is invalid).
bool executeFloatingPoint(const Decoded &d, uint64_t *x, uint64_t *f, uint32_t &fflags, uint8_t frm,
                          HostFpEnvironment &env);

} // namespace riscv_sim
