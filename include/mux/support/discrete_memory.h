// POLYMUX_DISCRETE_MEMORY=1: devices built on the host-memory helpers
// (host, riscv_sim, template) behave like a discrete GPU towards the OpenCL
// layer. Memory allocated without MemoryHostVisible is device-local only
// (map() fails) and their commands refuse host pointers
// (DeviceInfo::commandsAccessHostMemory false), so the upload, staging and
// map-staging paths a GPU target needs run in CI on every machine.
#pragma once

namespace mux::support {

/// Read once per process.
bool discreteMemoryEmulated();

} // namespace mux::support
