// The OpenCL entry points of libpolymux.so for the fuzz targets, reached the
// way the ICD loader reaches them (clIcdGetPlatformIDsKHR, then the dispatch
// table every handle starts with) but without the loader: no vendor files
// to scan, no environment to set up, no second library in the way, and the
// calls go straight into the instrumented driver. The driver exports only
// the ICD entry points, so this is also the only way in without it.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>

#include <cstdlib>

extern "C" cl_int clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id *, cl_uint *);

namespace fuzz {

struct Cl {
  const cl_icd_dispatch *api = nullptr;
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr; ///< the first device: POLYMUX_DEVICES picks the target
  cl_context context = nullptr;  ///< a context on it, kept for the whole run
};

/// The driver's platform and first device; aborts when there is none (the
/// fuzz run would test nothing). The kernel cache is off so that every
/// input is compiled, and nothing is written to disk.
inline const Cl &cl() {
  static const Cl instance = [] {
    setenv("POLYMUX_CACHE", "0", 1);
    Cl c;
    cl_uint count = 0;
    if (clIcdGetPlatformIDsKHR(1, &c.platform, &count) != CL_SUCCESS || count == 0)
      std::abort();
    c.api = *reinterpret_cast<const cl_icd_dispatch *const *>(c.platform);
    if (c.api->clGetDeviceIDs(c.platform, CL_DEVICE_TYPE_ALL, 1, &c.device, nullptr) != CL_SUCCESS)
      std::abort();
    cl_int err = CL_SUCCESS;
    c.context = c.api->clCreateContext(nullptr, 1, &c.device, nullptr, nullptr, &err);
    if (!c.context)
      std::abort();
    return c;
  }();
  return instance;
}

} // namespace fuzz
