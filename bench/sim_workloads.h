// Simulated devices (cl_polymux_instruction_counters): how many guest
// instructions per second the simulator retires, on a compute-bound and a
// memory-bound kernel, measured with the device's own instruction counts.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

namespace bench {

/// Whether `device` reports cl_polymux_instruction_counters.
bool countsInstructions(cl_device_id device);

struct SimulatorRates {
  Figure compute; ///< M instructions/s, whole device
  Figure memory;  ///< M instructions/s, whole device
  cl_uint computeUnits = 0;
};

/// Runs both kernels (results checked) and divides the instructions the
/// device retired by the kernel time (the best of `runs`).
SimulatorRates simulatorRates(const DeviceSession &session, size_t runs);

} // namespace bench
