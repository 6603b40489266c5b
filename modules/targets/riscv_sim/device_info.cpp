// What the simulated device reports to clGetDeviceInfo: everything comes
// from its description and from what the shared CPU pipeline implements,
// nothing from the machine the simulator runs on.
#include "device.h"

#include "compiler/cpu_capabilities.h"
#include "mux/support/name_uuid.h"

#include <algorithm>
#include <cstring>

namespace riscv_sim {

mux::DeviceInfo describeDevice(const DeviceDescription &description) {
  mux::DeviceInfo info;
  info.name = description.name;
  info.vendor = "Polymux";
  info.vendorId = 0;
  info.driverVersion = "0.1.0";
  info.targetName = "riscv_sim";
  info.type = mux::DeviceType::Accelerator;
  // Every parameter of the simulated device names it: a device simulated
  // differently (more harts, more memory) is another device.
  info.uuid = mux::support::nameBasedUuid("riscv_sim " + description.summary());

  info.computeUnits = description.harts;
  info.maxClockMHz = description.clockMHz;
  info.maxWorkItemDimensions = 3;
  info.maxWorkGroupSize = description.maxWorkGroupSize;
  info.maxWorkItemSizes = {info.maxWorkGroupSize, info.maxWorkGroupSize, info.maxWorkGroupSize};
  info.preferredWorkGroupSizeMultiple = 1;
  // Sub-groups of 4 work-items: the float lanes of the smallest vector
  // registers of RISC-V's V extension (VLEN >= 128 in the application
  // profiles). The harts run them one work-item after the other.
  compiler::describeCpuPipelineCapabilities(info, 4);
  // Launches report the instructions the harts retired (kernel_launch.cpp).
  info.extensions.push_back("cl_polymux_instruction_counters");

  constexpr uint64_t kMiB = 1024 * 1024;
  info.addressBits = 64;
  info.littleEndian = true;
  info.globalMemSize = description.dramSize;
  info.maxMemAllocSize = std::max(info.globalMemSize / 4, 128 * kMiB);
  info.globalMemCacheSize = 0;
  info.globalMemCachelineSize = 64;
  info.globalMemCacheReadWrite = true;
  info.localMemSize = description.localMemSize;
  // __local data lives in each hart's own memory, not in DRAM.
  info.localMemDedicated = true;
  info.maxConstantBufferSize = 64 * 1024 * 16;
  info.maxConstantArgs = 16;
  info.maxParameterSize = 1024;
  info.memBaseAddrAlign = 128;
  // The device has its own address space: application memory is copied.
  info.hostUnifiedMemory = false;
  // With DRAM identity-mapped, a host pointer into it is the same guest
  // pointer, and harts read and write the host memory itself, so buffers
  // may be shared fine-grained; AMOs and LR/SC are host atomics on that
  // memory and FENCE a host fence, so SVM atomics interoperate with the
  // host's too.
  if (description.dramIdentityMapped)
    info.svmCapabilities = mux::svm_capability::CoarseGrainBuffer | mux::svm_capability::FineGrainBuffer |
                           mux::svm_capability::Atomics;
  info.printfBufferSize = 1 << 20;

  // rv64gc has no vector registers: every width is one element.
  info.preferredVectorWidth = {1, 1, 1, 1, 1, 1, 1};
  info.nativeVectorWidth = info.preferredVectorWidth;
  info.profilingTimerResolutionNs = 1;
  // Program-scope variables live in the data segment of the program window,
  // which they share with code and constants.
  info.maxGlobalVariableSize = description.programSize / 4;
  info.globalVariablePreferredTotalSize = info.maxGlobalVariableSize;
  return info;
}

} // namespace riscv_sim
