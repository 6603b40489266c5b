// The targets compiled into this build (generated from POLYMUX_TARGETS).
#pragma once

#include "mux/target.h"

#include <memory>
#include <vector>

namespace mux {

/// Creates one instance of every registered target, in registration order.
std::vector<std::unique_ptr<Target>> createRegisteredTargets();

} // namespace mux
