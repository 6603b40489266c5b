// cl_polymux_device_status (doc/extensions/cl_polymux_device_status.md):
// clGetDeviceStatusInfoPOLYMUX, and the integrity checks it issues. A check
// runs on a thread of its own: it closes the device's DispatchGate, waits
// for what the device was already given, runs (integrity_check.h), records
// its result and opens the gate again.
#include "batch.h"
#include "device.h"
#include "dispatch_gate.h"
#include "info.h"
#include "integrity_check.h"

#include "CL/cl_ext_polymux.h"

#include <map>
#include <memory>
#include <mutex>
#include <thread>

using namespace polymux::cl;

namespace polymux::cl {
namespace {

class DeviceStatus {
public:
  explicit DeviceStatus(Device &device) : device_(device), checker_(device.mux()) {}
  ~DeviceStatus() {
    if (thread_.joinable())
      thread_.join();
  }

  static DeviceStatus &of(Device &device) {
    static std::mutex mutex;
    static std::map<Device *, std::unique_ptr<DeviceStatus>> statuses;
    std::lock_guard lock(mutex);
    auto &status = statuses[&device];
    if (!status)
      status = std::make_unique<DeviceStatus>(device);
    return *status;
  }

  /// CL_INVALID_OPERATION while a check runs.
  cl_int issue(IntegrityCheckKind kind) {
    std::lock_guard lock(mutex_);
    if (running_)
      return CL_INVALID_OPERATION;
    if (thread_.joinable())
      thread_.join(); // the previous check, which has ended
    running_ = true;
    issued_ = true;
    progress_.store(0, std::memory_order_relaxed);
    // Closed before returning: nothing enqueued after this call reaches the
    // device before the check has run.
    DispatchGate::of(device_.mux()).close();
    thread_ = std::thread([this, kind] { runCheck(kind); });
    return CL_SUCCESS;
  }

  /// The spec's COMMAND_PROGRESS: the running check's, else the running
  /// kernel launch's.
  cl_uint progress() const {
    {
      std::lock_guard lock(mutex_);
      if (running_)
        return progress_.load(std::memory_order_relaxed);
    }
    return device_.mux().activity().launchProgress();
  }
  bool complete() const {
    std::lock_guard lock(mutex_);
    return !running_;
  }
  /// nullopt while a check runs or before the first one.
  std::optional<IntegrityCheckResult> result() const {
    std::lock_guard lock(mutex_);
    if (running_ || !issued_)
      return std::nullopt;
    return result_;
  }

private:
  void runCheck(IntegrityCheckKind kind) {
    // The dispatches made before the gate closed run first.
    device_.mux().queue().waitAll();
    IntegrityCheckResult result = checker_.run(kind, progress_);
    {
      std::lock_guard lock(mutex_);
      result_ = std::move(result);
      running_ = false;
    }
    SchedulerGuard guard;
    DispatchGate::of(device_.mux()).open(guard);
  }

  Device &device_;
  IntegrityChecker checker_; ///< used only by the check thread
  mutable std::mutex mutex_;
  bool running_ = false; ///< guarded by mutex_
  bool issued_ = false;  ///< guarded by mutex_
  IntegrityCheckResult result_;
  std::atomic<uint32_t> progress_{0};
  std::thread thread_;
};

} // namespace
} // namespace polymux::cl

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceStatusInfoPOLYMUX(cl_device_id device,
                                                             cl_device_status_info_POLYMUX param_name,
                                                             size_t param_value_size, void *param_value,
                                                             size_t *param_value_size_ret) {
  Device *d = Device::fromHandle(device);
  if (!d)
    return CL_INVALID_DEVICE;
  const mux::DeviceActivity &activity = d->mux().activity();
  auto write = [&](const auto &value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  switch (param_name) {
  case CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX:
    return write(DeviceStatus::of(*d).progress());
  case CL_DEVICE_STATUS_COMMAND_COMPLETE_POLYMUX:
    return write(cl_bool(DeviceStatus::of(*d).complete() ? CL_TRUE : CL_FALSE));
  case CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX:
    return write(cl_ulong(d->mux().memoryAvailable()));
  case CL_DEVICE_STATUS_ALU_UTILIZATION_POLYMUX:
    return write(cl_uint(activity.utilization(mux::DeviceActivity::Work::Kernel, mux::DeviceActivity::steadyNs())));
  case CL_DEVICE_STATUS_MEMORY_UTILIZATION_POLYMUX:
    return write(cl_uint(activity.utilization(mux::DeviceActivity::Work::Transfer, mux::DeviceActivity::steadyNs())));
  case CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX:
  case CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX: {
    // Size errors first: a call that fails issues nothing.
    if (param_value && param_value_size < sizeof(cl_int))
      return CL_INVALID_VALUE;
    cl_int issued =
        DeviceStatus::of(*d).issue(param_name == CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX ? IntegrityCheckKind::Memory
                                                                                            : IntegrityCheckKind::Alu);
    if (issued != CL_SUCCESS)
      return issued;
    return write(cl_int(CL_SUCCESS));
  }
  case CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX: {
    auto result = DeviceStatus::of(*d).result();
    if (!result)
      return CL_INVALID_OPERATION;
    return write(cl_bool(result->passed ? CL_TRUE : CL_FALSE));
  }
  case CL_DEVICE_STATUS_COMMAND_MESSAGE_POLYMUX: {
    auto result = DeviceStatus::of(*d).result();
    if (!result)
      return CL_INVALID_OPERATION;
    return writeInfoString(param_value_size, param_value, param_value_size_ret, result->message);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
