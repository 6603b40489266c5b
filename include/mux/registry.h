// The targets compiled into this build (generated from POLYMUX_TARGETS).
#pragma once

#include "mux/target.h"

#include <memory>
#include <span>
#include <vector>

namespace mux {

/// A target compiled into this build, not yet created: its name (what its
/// Target::name() returns) and its factory.
struct RegisteredTarget {
  const char *name;
  std::unique_ptr<Target> (*create)();
};

/// Every registered target, in registration order. Creating a target starts
/// its driver (a Vulkan instance and devices, say), so callers that need only
/// some create only those.
std::span<const RegisteredTarget> registeredTargets();

/// Creates one instance of every registered target, in registration order.
std::vector<std::unique_ptr<Target>> createRegisteredTargets();

} // namespace mux
