#include "device_list.h"

#include "mux/registry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace polymux::tool {

DeviceList::DeviceList() : targets_(mux::createRegisteredTargets()) {
  for (const std::unique_ptr<mux::Target> &target : targets_) {
    if (!target)
      continue;
    std::span<mux::Device *const> devices = target->devices();
    for (size_t i = 0; i < devices.size(); ++i) {
      if (!devices[i])
        continue;
      ToolDevice entry;
      entry.id = std::string(target->name()) + ":" + std::to_string(i);
      entry.fileTag = std::string(target->name()) + (devices.size() > 1 ? std::to_string(i) : "");
      entry.target = target.get();
      entry.device = devices[i];
      devices_.push_back(std::move(entry));
    }
  }
}

std::string DeviceList::whyMissing(const mux::Target &target) {
  std::span<const std::string> reasons = target.missingDevices();
  if (reasons.empty())
    return "the target found no device and does not say why";
  return llvm::join(reasons.begin(), reasons.end(), "; ");
}

llvm::Expected<std::vector<const ToolDevice *>> DeviceList::select(std::string_view spec) const {
  std::vector<const ToolDevice *> selected;
  auto add = [&](const ToolDevice &device) {
    if (std::find(selected.begin(), selected.end(), &device) == selected.end())
      selected.push_back(&device);
  };
  llvm::SmallVector<llvm::StringRef, 4> names;
  llvm::StringRef(spec.data(), spec.size()).split(names, ',', -1, /*KeepEmpty=*/false);
  if (names.empty())
    names.push_back("all");
  for (llvm::StringRef rawName : names) {
    llvm::StringRef name = rawName.trim();
    if (name == "all") {
      for (const ToolDevice &device : devices_)
        add(device);
      continue;
    }
    bool matched = false;
    for (const ToolDevice &device : devices_)
      if (device.id == name || llvm::StringRef(device.target->name()) == name) {
        add(device);
        matched = true;
      }
    if (matched)
      continue;
    auto [targetName, index] = name.split(':');
    for (const std::unique_ptr<mux::Target> &target : targets_)
      if (target && llvm::StringRef(target->name()) == targetName) {
        if (target->devices().empty())
          return llvm::createStringError("the %s target has no device: %s", targetName.str().c_str(),
                                         whyMissing(*target).c_str());
        return llvm::createStringError("the %s target has no device %s (it has %zu)", targetName.str().c_str(),
                                       index.str().c_str(), target->devices().size());
      }
    std::string known;
    for (const std::unique_ptr<mux::Target> &target : targets_)
      if (target)
        known += (known.empty() ? "" : ", ") + std::string(target->name());
    return llvm::createStringError("no device or target named '%s' (targets in this build: %s)", name.str().c_str(),
                                   known.c_str());
  }
  if (selected.empty())
    return llvm::createStringError("no device to use: no target of this build found a device");
  return selected;
}

} // namespace polymux::tool
