// What the throughput workloads (peak compute, global bandwidth, SGEMM) need
// to know about a device to size themselves: a GPU gets sizes that fill an
// H100, a CPU (host, PoCL, lavapipe) sizes that finish in seconds, and a
// simulated device sizes whose instruction counts finish in about a second.
#pragma once

#include "bench_cl.h"

#include <cstddef>

namespace bench {

struct DeviceFacts {
  /// Cpu stands for every device that is not a GPU and not simulated: host
  /// CPUs, CPU rasterisers such as lavapipe, accelerators.
  enum class Kind { Gpu, Cpu, Simulated };
  Kind kind = Kind::Cpu;
  cl_uint computeUnits = 1;
  cl_ulong maxAlloc = 0;  ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE
  cl_ulong globalMem = 0; ///< CL_DEVICE_GLOBAL_MEM_SIZE
  size_t maxWorkGroup = 1;

  /// A workload's size for this device: `gpu`, `cpu` or `simulated`, by kind.
  size_t byKind(size_t gpu, size_t cpu, size_t simulated) const {
    switch (kind) {
    case Kind::Gpu:
      return gpu;
    case Kind::Cpu:
      return cpu;
    case Kind::Simulated:
      return simulated;
    }
    return cpu;
  }
};

DeviceFacts deviceFacts(cl_device_id device);

/// The largest power of two no larger than `limit` and `cap` (at least 1):
/// a work-group size every device accepts.
size_t powerOfTwoAtMost(size_t limit, size_t cap);

} // namespace bench
