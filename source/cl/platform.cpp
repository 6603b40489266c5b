// The Polymux platform object and the platform entry points.
#include "platform.h"

#include "device.h"
#include "info.h"

#include "mux/registry.h"
#include "mux/support/log.h"
#include "mux/support/name_uuid.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#ifndef POLYMUX_VERSION
#define POLYMUX_VERSION "0.0.0"
#endif

namespace polymux::cl {
namespace {

/// Target names listed in POLYMUX_DEVICES (comma-separated), or empty when
/// the variable is unset or blank, meaning every target.
llvm::SmallVector<std::string, 4> enabledTargetNames() {
  llvm::SmallVector<std::string, 4> names;
  const char *value = std::getenv("POLYMUX_DEVICES");
  if (!value)
    return names;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(value).split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts)
    if (llvm::StringRef name = part.trim(); !name.empty())
      names.push_back(name.str());
  return names;
}

constexpr cl_version platformVersion = CL_MAKE_VERSION(3, 0, 0);
constexpr const char *platformVersionString = "OpenCL 3.0 Polymux " POLYMUX_VERSION;

/// Extensions implemented by the platform layer itself.
constexpr std::array<cl_name_version, 1> platformExtensions{{{CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"}}};

std::string platformExtensionString() {
  std::string names;
  for (const cl_name_version &extension : platformExtensions) {
    if (!names.empty())
      names += ' ';
    names += extension.name;
  }
  return names;
}

} // namespace

Platform::Platform() {
  llvm::SmallVector<std::string, 4> enabled = enabledTargetNames();
  std::vector<mux::Device *> muxDevices;
  for (const mux::RegisteredTarget &registered : mux::registeredTargets()) {
    const std::string name(registered.name);
    // A target left out is never created, so its driver is never loaded.
    if (!enabled.empty() && std::find(enabled.begin(), enabled.end(), name) == enabled.end()) {
      mux::support::log(mux::support::LogLevel::Info, name, "left out: not named in POLYMUX_DEVICES");
      continue;
    }
    const std::unique_ptr<mux::Target> &target = targets_.emplace_back(registered.create());
    if (!target)
      continue;
    size_t count = 0;
    for (mux::Device *device : target->devices())
      if (device) {
        muxDevices.push_back(device);
        mux::support::log(mux::support::LogLevel::Info, name, "device '" + device->info().name + "'");
        ++count;
      }
    if (count == 0)
      mux::support::log(mux::support::LogLevel::Info, name, "no device");
  }
  std::vector<std::array<uint8_t, 16>> uuids;
  for (mux::Device *device : muxDevices)
    uuids.push_back(device->info().uuid);
  mux::support::makeUuidsDistinct(uuids);
  for (size_t i = 0; i < muxDevices.size(); ++i) {
    devices_.push_back(std::make_unique<Device>(*this, *muxDevices[i], uuids[i]));
    devicePointers_.push_back(devices_.back().get());
  }
}

Platform &Platform::get() {
  // Deliberately never destroyed: applications may call OpenCL from atexit
  // handlers or from threads still running during static destruction, and
  // the targets own worker threads that must not be torn down under them.
  static Platform *platform = new Platform();
  return *platform;
}

Device *Platform::defaultDevice() const {
  for (Device *device : devicePointers_)
    if (device->type() != CL_DEVICE_TYPE_CUSTOM)
      return device;
  return nullptr;
}

bool Platform::isValidDeviceType(cl_device_type type) {
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  return type == CL_DEVICE_TYPE_ALL || (type != 0 && (type & ~known) == 0);
}

llvm::SmallVector<Device *, 4> Platform::devicesOfType(cl_device_type type) const {
  llvm::SmallVector<Device *, 4> matches;
  Device *defaultDev = defaultDevice();
  for (Device *device : devicePointers_) {
    bool match;
    if (type == CL_DEVICE_TYPE_ALL)
      match = device->type() != CL_DEVICE_TYPE_CUSTOM;
    else
      match = (device->type() & type) || ((type & CL_DEVICE_TYPE_DEFAULT) && device == defaultDev);
    if (match)
      matches.push_back(device);
  }
  return matches;
}

uint64_t hostTimerNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return uint64_t(now.tv_sec) * 1'000'000'000u + uint64_t(now.tv_nsec);
}

uint64_t hostTimerResolutionNs() {
  timespec resolution{};
  if (clock_getres(CLOCK_MONOTONIC, &resolution) != 0)
    return 1;
  uint64_t ns = uint64_t(resolution.tv_sec) * 1'000'000'000u + uint64_t(resolution.tv_nsec);
  return std::max<uint64_t>(ns, 1);
}

/// clGetPlatformIDs and clIcdGetPlatformIDsKHR share these rules.
cl_int getPlatformIDs(cl_uint numEntries, cl_platform_id *platforms, cl_uint *numPlatforms) {
  if ((numEntries == 0 && platforms) || (!platforms && !numPlatforms))
    return CL_INVALID_VALUE;
  if (platforms)
    platforms[0] = Platform::get().handle();
  if (numPlatforms)
    *numPlatforms = 1;
  return CL_SUCCESS;
}

} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  return getPlatformIDs(num_entries, platforms, num_platforms);
}

POLYMUX_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                    size_t param_value_size, void *param_value,
                                                    size_t *param_value_size_ret) {
  if (!Platform::fromHandleOrDefault(platform))
    return CL_INVALID_PLATFORM;
  auto string = [&](std::string_view value) {
    return writeInfoString(param_value_size, param_value, param_value_size_ret, value);
  };
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    return string("FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return string(platformVersionString);
  case CL_PLATFORM_NUMERIC_VERSION:
    return writeInfo(param_value_size, param_value, param_value_size_ret, platformVersion);
  case CL_PLATFORM_NAME:
    return string("Polymux");
  case CL_PLATFORM_VENDOR:
    return string("Polymux");
  case CL_PLATFORM_EXTENSIONS:
    return string(platformExtensionString());
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return writeInfoArray(param_value_size, param_value, param_value_size_ret,
                          std::span<const cl_name_version>(platformExtensions));
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return writeInfo(param_value_size, param_value, param_value_size_ret, cl_ulong(hostTimerResolutionNs()));
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return string("POLYMUX");
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
