// What the examples share: error checking, platform/device selection through
// the ICD loader, program building with the build log on failure, and a timer.
// Plain OpenCL 3.0 API, nothing Polymux-specific.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h> // CL_PLATFORM_NOT_FOUND_KHR

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace example {

/// Prints the failing call and its error code, then exits with status 1.
inline void check(cl_int status, const char *what) {
  if (status == CL_SUCCESS)
    return;
  std::fprintf(stderr, "error: %s failed with %d\n", what, status);
  std::exit(1);
}

inline std::string platformName(cl_platform_id platform) {
  size_t size = 0;
  check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size), "clGetPlatformInfo");
  std::string name(size, '\0');
  check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, name.data(), nullptr), "clGetPlatformInfo");
  name.resize(name.find('\0'));
  return name;
}

inline std::string deviceName(cl_device_id device) {
  size_t size = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, nullptr, &size), "clGetDeviceInfo");
  std::string name(size, '\0');
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, size, name.data(), nullptr), "clGetDeviceInfo");
  name.resize(name.find('\0'));
  return name;
}

/// The platform whose name is POLYMUX_EXAMPLE_PLATFORM (default "Polymux"),
/// and its default device. Exits when there is none.
struct Selection {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platformName;
  std::string deviceName;
};

inline Selection selectDevice() {
  const char *wanted = std::getenv("POLYMUX_EXAMPLE_PLATFORM");
  std::string wantedName = wanted && *wanted ? wanted : "Polymux";

  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || count == 0) {
    std::fprintf(stderr, "error: no OpenCL platform found (is OCL_ICD_VENDORS set to <build>/icd?)\n");
    std::exit(1);
  }
  check(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");

  std::string seen;
  for (cl_platform_id platform : platforms) {
    std::string name = platformName(platform);
    seen += (seen.empty() ? "" : ", ") + ("\"" + name + "\"");
    if (name != wantedName)
      continue;
    Selection selection{platform, nullptr, name, {}};
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &selection.device, nullptr), "clGetDeviceIDs");
    selection.deviceName = deviceName(selection.device);
    return selection;
  }
  std::fprintf(stderr, "error: no platform named \"%s\" (found %s)\n", wantedName.c_str(), seen.c_str());
  std::exit(1);
}

/// Whether `device` lists `extension` in CL_DEVICE_EXTENSIONS.
inline bool hasExtension(cl_device_id device, const char *extension) {
  size_t size = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size), "clGetDeviceInfo");
  std::string extensions(size, '\0');
  check(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr), "clGetDeviceInfo");
  extensions.resize(extensions.find('\0'));
  return (" " + extensions + " ").find(std::string(" ") + extension + " ") != std::string::npos;
}

/// The extension function `name` of `platform`, cast to its type `Fn` from
/// the extension's header; prints an error and exits when the platform has
/// none.
template <typename Fn> Fn extensionFunction(cl_platform_id platform, const char *name) {
  auto function = reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(platform, name));
  if (!function) {
    std::fprintf(stderr, "error: the platform has no %s\n", name);
    std::exit(1);
  }
  return function;
}

/// Builds `source` for `device`; prints the build log and exits on failure.
inline cl_program buildProgram(cl_context context, cl_device_id device, const char *source) {
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  check(status, "clCreateProgramWithSource");
  status = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    std::fprintf(stderr, "build log:\n%s\n", log.c_str());
    check(status, "clBuildProgram");
  }
  return program;
}

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace example
