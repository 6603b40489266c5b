// A Mux target: one kind of hardware and the devices of that kind present.
#pragma once

#include "mux/device.h"

#include <span>
#include <string_view>

namespace mux {

class Target {
public:
  virtual ~Target() = default;
  virtual std::string_view name() const = 0;
  /// The devices found at start-up (may be empty, e.g. no GPU present).
  virtual std::span<Device *const> devices() = 0;
};

} // namespace mux
