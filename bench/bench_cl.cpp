#include "bench_cl.h"

#include <vector>

namespace bench {

std::string platformName(cl_platform_id platform) {
  size_t size = 0;
  check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size), "clGetPlatformInfo");
  std::string name(size, '\0');
  check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, name.data(), nullptr), "clGetPlatformInfo");
  name.resize(name.find('\0'));
  return name;
}

std::string deviceName(cl_device_id device) {
  size_t size = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, nullptr, &size), "clGetDeviceInfo");
  std::string name(size, '\0');
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, size, name.data(), nullptr), "clGetDeviceInfo");
  name.resize(name.find('\0'));
  return name;
}

DeviceSession::DeviceSession(cl_platform_id platform, cl_device_id device) : device_(device) {
  cl_int status = CL_SUCCESS;
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                              0};
  context_ = clCreateContext(properties, 1, &device_, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &status);
  if (status != CL_SUCCESS) {
    clReleaseContext(context_);
    throw ClError("clCreateCommandQueueWithProperties", status);
  }
}

DeviceSession::~DeviceSession() {
  clReleaseCommandQueue(queue_);
  clReleaseContext(context_);
}

cl_kernel DeviceSession::buildKernel(const char *source, const char *name, cl_program &program) const {
  cl_int status = CL_SUCCESS;
  program = clCreateProgramWithSource(context_, 1, &source, nullptr, &status);
  check(status, "clCreateProgramWithSource");
  status = clBuildProgram(program, 1, &device_, "", nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    clReleaseProgram(program);
    program = nullptr;
    throw ClError("clBuildProgram (log: " + log + ")", status);
  }
  cl_kernel kernel = clCreateKernel(program, name, &status);
  if (status != CL_SUCCESS) {
    clReleaseProgram(program);
    program = nullptr;
    throw ClError("clCreateKernel", status);
  }
  return kernel;
}

} // namespace bench
