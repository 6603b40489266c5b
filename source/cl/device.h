// An OpenCL device: a thin wrapper over one mux::Device. Root devices live as
// long as the platform; retain/release on them are no-ops as the spec allows.
#pragma once

#include "object.h"

#include "mux/device.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::cl {

class Platform;

class Device final : public Object<_cl_device_id, ObjectKind::Device> {
public:
  /// `uuid` is the device's CL_DEVICE_UUID_KHR: the target's, unless
  /// another device of the platform reported the same one.
  Device(Platform &platform, mux::Device &device, const std::array<uint8_t, 16> &uuid);
  static Device *fromHandle(cl_device_id handle) { return Object::fromHandle<Device>(handle); }

  Platform &platform() const { return platform_; }
  mux::Device &mux() const { return mux_; }
  const mux::DeviceInfo &info() const { return mux_.info(); }
  const std::array<uint8_t, 16> &uuid() const { return uuid_; }
  /// The device's own type (one CL_DEVICE_TYPE_* bit, without DEFAULT).
  cl_device_type type() const;
  /// True for the platform's CL_DEVICE_TYPE_DEFAULT device.
  bool isDefault() const;

  /// The extensions reported (CL_DEVICE_EXTENSIONS), with their versions.
  const std::vector<cl_name_version> &extensions() const { return extensions_; }
  bool hasExtension(std::string_view name) const;
  /// CL_DEVICE_IL_VERSION ("" when the device reads no IL) and
  /// CL_DEVICE_ILS_WITH_VERSION.
  const std::string &ilVersion() const { return ilVersion_; }
  const std::vector<cl_name_version> &ils() const { return ils_; }
  bool readsIL() const { return !ils_.empty(); }
  /// Whether the device supports sub-groups (OpenCL 3.0 optional feature):
  /// CL_DEVICE_MAX_NUM_SUB_GROUPS is then non-zero. Sub-group queries on a
  /// device without them fail with CL_INVALID_OPERATION.
  bool supportsSubGroups() const { return !info().subGroupSizes.empty() && info().maxNumSubGroups != 0; }

private:
  Platform &platform_;
  mux::Device &mux_;
  std::array<uint8_t, 16> uuid_;
  std::vector<cl_name_version> extensions_;
  std::string ilVersion_;
  std::vector<cl_name_version> ils_;
};

} // namespace polymux::cl
