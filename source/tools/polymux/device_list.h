// Every device of every target compiled into this build, as the tool names
// them, and the --device option that selects some of them.
#pragma once

#include "mux/target.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::tool {

struct ToolDevice {
  /// "<target>:<index>", e.g. "host:0", "vulkan:1".
  std::string id;
  /// For file names: the target's name, with the index when the target has
  /// several devices ("host", "vulkan1").
  std::string fileTag;
  mux::Target *target = nullptr;
  mux::Device *device = nullptr;
};

class DeviceList {
public:
  /// Creates every registered target (mux::createRegisteredTargets); they
  /// live as long as the list, which must outlive every object made on
  /// their devices.
  DeviceList();

  const std::vector<std::unique_ptr<mux::Target>> &targets() const { return targets_; }
  const std::vector<ToolDevice> &devices() const { return devices_; }

  /// The devices `spec` names: "all" (or empty) for every device, else a
  /// comma-separated list of target names ("host": its devices) and device
  /// ids ("vulkan:1"). Fails on a name that matches no device, saying why
  /// the target has none when it is compiled in.
  llvm::Expected<std::vector<const ToolDevice *>> select(std::string_view spec) const;

  /// Why `target` has no devices, or misses some: its own sentences
  /// (mux::Target::missingDevices), or a generic one.
  static std::string whyMissing(const mux::Target &target);

private:
  std::vector<std::unique_ptr<mux::Target>> targets_;
  std::vector<ToolDevice> devices_;
};

} // namespace polymux::tool
