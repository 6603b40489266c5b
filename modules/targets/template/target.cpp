// The registry entry point: polymux_add_target(template ...) makes the
// generated registry call polymux_create_target_template(). VENDOR: rename
// it with your target, and create one Device per unit you find at start-up
// (none is fine: the target then contributes no devices).
#include "device.h"

#include "mux/target.h"

#include <memory>
#include <vector>

namespace template_target {
namespace {

class Target final : public mux::Target {
public:
  Target() {
    devices_.push_back(std::make_unique<Device>());
    for (auto &device : devices_)
      pointers_.push_back(device.get());
  }
  std::string_view name() const override { return "template"; }
  std::span<mux::Device *const> devices() override { return pointers_; }

private:
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<mux::Device *> pointers_;
};

} // namespace
} // namespace template_target

std::unique_ptr<mux::Target> polymux_create_target_template() { return std::make_unique<template_target::Target>(); }
