#include "device_facts.h"

#include "sim_workloads.h"

#include <algorithm>

namespace bench {

DeviceFacts deviceFacts(cl_device_id device) {
  DeviceFacts facts;
  cl_device_type type = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr), "clGetDeviceInfo(TYPE)");
  check(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof facts.computeUnits, &facts.computeUnits, nullptr),
        "clGetDeviceInfo(MAX_COMPUTE_UNITS)");
  check(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof facts.maxAlloc, &facts.maxAlloc, nullptr),
        "clGetDeviceInfo(MAX_MEM_ALLOC_SIZE)");
  check(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof facts.globalMem, &facts.globalMem, nullptr),
        "clGetDeviceInfo(GLOBAL_MEM_SIZE)");
  check(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof facts.maxWorkGroup, &facts.maxWorkGroup, nullptr),
        "clGetDeviceInfo(MAX_WORK_GROUP_SIZE)");
  facts.computeUnits = std::max<cl_uint>(facts.computeUnits, 1);
  if (countsInstructions(device))
    facts.kind = DeviceFacts::Kind::Simulated;
  else if (type & CL_DEVICE_TYPE_GPU)
    facts.kind = DeviceFacts::Kind::Gpu;
  return facts;
}

size_t powerOfTwoAtMost(size_t limit, size_t cap) {
  size_t size = 1;
  while (size * 2 <= std::min(limit, cap))
    size *= 2;
  return size;
}

} // namespace bench
