#include "mux/support/discrete_memory.h"

#include <cstdlib>
#include <string_view>

namespace mux::support {

bool discreteMemoryEmulated() {
  static const bool emulated = [] {
    const char *value = std::getenv("POLYMUX_DISCRETE_MEMORY");
    return value && std::string_view(value) == "1";
  }();
  return emulated;
}

} // namespace mux::support
