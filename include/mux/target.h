// A Mux target: one kind of hardware and the devices of that kind present.
#pragma once

#include "mux/device.h"

#include <span>
#include <string>
#include <string_view>

namespace mux {

class Target {
public:
  virtual ~Target() = default;
  virtual std::string_view name() const = 0;
  /// The devices found at start-up (may be empty, e.g. no GPU present).
  virtual std::span<Device *const> devices() = 0;
  /// Why devices the target looked for are not among devices(): one
  /// sentence each (no Vulkan loader, a GPU that lacks a feature Polymux
  /// needs). Empty when nothing was left out, or the target cannot say.
  virtual std::span<const std::string> missingDevices() const { return {}; }
};

} // namespace mux
