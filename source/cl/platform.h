// The single Polymux platform: every device of every registered Mux target.
#pragma once

#include "object.h"

#include "mux/target.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

/// Marks the few entry points the ICD loader looks up by name (exports.map
/// lists them); everything else is hidden and reached through the dispatch
/// table.
#define POLYMUX_EXPORT __attribute__((visibility("default")))

namespace polymux::cl {

class Device;

class Platform final : public Object<_cl_platform_id, ObjectKind::Platform> {
public:
  /// The process-wide platform, created on first use.
  static Platform &get();
  static Platform *fromHandle(cl_platform_id handle) { return Object::fromHandle<Platform>(handle); }
  /// Resolves the platform argument of an entry point: null means ours (the
  /// specification leaves a null platform implementation-defined).
  static Platform *fromHandleOrDefault(cl_platform_id handle) { return handle ? fromHandle(handle) : &get(); }

  /// Devices exposed after POLYMUX_DEVICES filtering, in target order.
  std::span<Device *const> devices() const { return devicePointers_; }

  /// The CL_DEVICE_TYPE_DEFAULT device: the first exposed non-custom device.
  Device *defaultDevice() const;
  /// True when `type` is CL_DEVICE_TYPE_ALL or a non-empty combination of
  /// the defined device-type bits.
  static bool isValidDeviceType(cl_device_type type);
  /// The devices matching a (valid) device-type selector, in platform order,
  /// with the clGetDeviceIDs rules (ALL excludes custom devices, DEFAULT
  /// selects defaultDevice()).
  llvm::SmallVector<Device *, 4> devicesOfType(cl_device_type type) const;

private:
  Platform();
  std::vector<std::unique_ptr<mux::Target>> targets_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Device *> devicePointers_;
};

/// clGetPlatformIDs and clIcdGetPlatformIDsKHR (same rules, same answer).
cl_int getPlatformIDs(cl_uint numEntries, cl_platform_id *platforms, cl_uint *numPlatforms);

/// The host clock of clGetHostTimer / clGetDeviceAndHostTimer, in ns.
uint64_t hostTimerNs();
/// Its resolution in ns (CL_PLATFORM_HOST_TIMER_RESOLUTION).
uint64_t hostTimerResolutionNs();

} // namespace polymux::cl
