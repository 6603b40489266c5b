// VENDOR: fill this from your hardware (or its description file). The OpenCL
// layer answers clGetDeviceInfo from these fields only; test/mux
// (DeviceInfoTest) checks them against the OpenCL 3.0 minimums.
#include "device.h"

namespace template_target {

mux::DeviceInfo describeDevice() {
  mux::DeviceInfo info;
  info.name = "Polymux template device";
  info.vendor = "Polymux";
  info.vendorId = 0; // your PCI vendor ID, or a Khronos-assigned one
  info.driverVersion = "0.1.0";
  info.targetName = "template";
  // CUSTOM: a device that does not run OpenCL C programs (no compiler yet).
  info.type = mux::DeviceType::Custom;
  info.uuid = {'p', 'o', 'l', 'y', 'm', 'u', 'x', '-', 't', 'e', 'm', 'p', 'l', 'a', 't', 'e'};

  info.computeUnits = 1;
  info.maxClockMHz = 0;
  info.maxWorkItemDimensions = 3;
  info.maxWorkItemSizes = {1, 1, 1};
  info.maxWorkGroupSize = 1;

  constexpr uint64_t kMiB = 1024 * 1024;
  info.globalMemSize = 256 * kMiB;
  info.maxMemAllocSize = 128 * kMiB;
  info.globalMemCacheSize = 0;
  info.globalMemCachelineSize = 64;
  info.localMemSize = 32 * 1024; // the OpenCL minimum
  info.localMemDedicated = false;
  info.maxConstantBufferSize = 64 * 1024;
  info.maxConstantArgs = 8;
  info.maxParameterSize = 1024;
  info.memBaseAddrAlign = 128;   // bytes; sizeof(long16) at least
  info.hostUnifiedMemory = true; // buffers live in host RAM here

  info.singleFp.roundToNearest = true;
  info.singleFp.infNan = true;
  info.fp64 = false;
  info.fp16 = false;
  info.preferredVectorWidth = {1, 1, 1, 1, 1, 0, 0};
  info.nativeVectorWidth = {1, 1, 1, 1, 1, 0, 0};
  info.profilingTimerResolutionNs = 1;
  info.extensions = {};
  // VENDOR: widen these (with the matching __opencl_c_atomic_* features in
  // openclCFeatures) when your compiler implements more orders and scopes.
  info.atomicMemoryCapabilities = mux::atomic_capability::MinimumMemory;
  info.atomicFenceCapabilities = mux::atomic_capability::MinimumFence;
  return info;
}

} // namespace template_target
