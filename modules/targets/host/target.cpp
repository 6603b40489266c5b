// The host target: the CPU this process runs on, as one Mux device.
#include "device.h"
#include "device_info.h"

#include "mux/target.h"

#include <memory>

namespace host {
namespace {

class Target final : public mux::Target {
public:
  Target() {
    unsigned threads = hostThreadCount();
    device_ = std::make_unique<Device>(queryHostDeviceInfo(threads), threads);
    devices_[0] = device_.get();
  }
  std::string_view name() const override { return "host"; }
  std::span<mux::Device *const> devices() override { return devices_; }

private:
  std::unique_ptr<Device> device_;
  mux::Device *devices_[1];
};

} // namespace
} // namespace host

std::unique_ptr<mux::Target> polymux_create_target_host() { return std::make_unique<host::Target>(); }
