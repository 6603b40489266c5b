// What the host device reports: read from the machine it runs on.
#pragma once

#include "mux/device_info.h"
#include "work_item_vector_bits.h"

namespace host {

/// Worker threads for kernels: POLYMUX_HOST_THREADS when set to a positive
/// number, else the CPUs this process may run on.
unsigned hostThreadCount();

/// Describes this machine's CPU as a Mux device with `threads` compute units.
mux::DeviceInfo queryHostDeviceInfo(unsigned threads);

} // namespace host
