// The single Polymux platform: every device of every registered Mux target.
#pragma once

#include "object.h"

#include "mux/target.h"

#include <memory>
#include <span>
#include <vector>

namespace polymux::cl {

class Device;

class Platform final : public Object<_cl_platform_id, ObjectKind::Platform> {
public:
  /// The process-wide platform, created on first use.
  static Platform &get();
  static Platform *fromHandle(cl_platform_id handle) { return Object::fromHandle<Platform>(handle); }

  /// Devices exposed after POLYMUX_DEVICES filtering, in target order.
  std::span<Device *const> devices() const { return devicePointers_; }

private:
  Platform();
  std::vector<std::unique_ptr<mux::Target>> targets_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Device *> devicePointers_;
};

} // namespace polymux::cl
