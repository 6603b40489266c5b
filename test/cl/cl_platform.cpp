#include "cl_platform.h"

#include <algorithm>
#include <cstdlib>

namespace cltest {

std::string platformNameUnderTest() {
  const char *name = std::getenv("POLYMUX_TEST_PLATFORM");
  return name && *name ? name : "Polymux";
}

std::string platformString(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string value(size, '\0');
  if (clGetPlatformInfo(platform, param, size, value.data(), nullptr) != CL_SUCCESS)
    return {};
  value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
  return value;
}

cl_platform_id platformUnderTest() {
  static const cl_platform_id platform = []() -> cl_platform_id {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
      return nullptr;
    std::vector<cl_platform_id> platforms(count);
    if (clGetPlatformIDs(count, platforms.data(), nullptr) != CL_SUCCESS)
      return nullptr;
    const std::string wanted = platformNameUnderTest();
    for (cl_platform_id p : platforms)
      if (platformString(p, CL_PLATFORM_NAME) == wanted)
        return p;
    return nullptr;
  }();
  return platform;
}

const std::vector<cl_device_id> &devicesUnderTest() {
  static const std::vector<cl_device_id> devices = [] {
    std::vector<cl_device_id> result;
    cl_platform_id platform = platformUnderTest();
    cl_uint count = 0;
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS)
      return result;
    result.resize(count);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, result.data(), nullptr) != CL_SUCCESS)
      result.clear();
    return result;
  }();
  return devices;
}

std::string deviceString(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string value(size, '\0');
  if (clGetDeviceInfo(device, param, size, value.data(), nullptr) != CL_SUCCESS)
    return {};
  value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
  return value;
}

std::string programBuildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS)
    return {};
  log.resize(log.find('\0') == std::string::npos ? size : log.find('\0'));
  return log;
}

std::vector<std::string> split(std::string_view text, std::string_view separators) {
  std::vector<std::string> pieces;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(separators, start);
    if (end == std::string_view::npos)
      end = text.size();
    if (end > start)
      pieces.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return pieces;
}

bool deviceHasExtension(cl_device_id device, std::string_view name) {
  auto extensions = split(deviceString(device, CL_DEVICE_EXTENSIONS), " ");
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

} // namespace cltest
