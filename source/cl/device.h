// An OpenCL device: a thin wrapper over one mux::Device. Root devices live as
// long as the platform; retain/release on them are no-ops as the spec allows.
#pragma once

#include "object.h"

#include "mux/device.h"

namespace polymux::cl {

class Platform;

class Device final : public Object<_cl_device_id, ObjectKind::Device> {
public:
  Device(Platform &platform, mux::Device &device) : platform_(platform), mux_(device) {}
  static Device *fromHandle(cl_device_id handle) { return Object::fromHandle<Device>(handle); }

  Platform &platform() const { return platform_; }
  mux::Device &mux() const { return mux_; }
  const mux::DeviceInfo &info() const { return mux_.info(); }
  cl_device_type type() const;

private:
  Platform &platform_;
  mux::Device &mux_;
};

} // namespace polymux::cl
