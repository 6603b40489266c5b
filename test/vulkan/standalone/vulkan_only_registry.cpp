// The registry of the stand-alone vulkan_tests (build.sh): the vulkan target only.
#include "mux/registry.h"
std::unique_ptr<mux::Target> polymux_create_target_vulkan();
namespace mux {
std::vector<std::unique_ptr<Target>> createRegisteredTargets() {
  std::vector<std::unique_ptr<Target>> targets;
  targets.push_back(polymux_create_target_vulkan());
  return targets;
}
} // namespace mux
