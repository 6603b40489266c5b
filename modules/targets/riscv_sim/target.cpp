// The riscv_sim target: one simulated RISC-V accelerator per process, built
// from its device description.
#include "device.h"

#include "mux/support/log.h"
#include "mux/target.h"

#include <memory>

namespace riscv_sim {
namespace {

class Target final : public mux::Target {
public:
  Target() {
    // Without address space for its DRAM window the target has no device.
    auto device = Device::create(defaultDeviceDescription());
    if (device) {
      device_ = std::move(*device);
      devices_.push_back(device_.get());
    } else {
      missing_.push_back(llvm::toString(device.takeError()));
      mux::support::log(mux::support::LogLevel::Info, "riscv_sim", "no device: " + missing_.back());
    }
  }
  std::string_view name() const override { return "riscv_sim"; }
  std::span<mux::Device *const> devices() override { return devices_; }
  std::span<const std::string> missingDevices() const override { return missing_; }

private:
  std::unique_ptr<Device> device_;
  std::vector<mux::Device *> devices_;
  std::vector<std::string> missing_;
};

} // namespace
} // namespace riscv_sim

std::unique_ptr<mux::Target> polymux_create_target_riscv_sim() { return std::make_unique<riscv_sim::Target>(); }
