// Holds back a device's dispatches while an integrity check of
// cl_polymux_device_status runs on it (doc/extensions/
// cl_polymux_device_status.md): the batches the OpenCL queues would hand to
// the device's mux::Queue wait here, in order, until the check has ended.
// Shared by every target, since every batch passes through dispatchBatch().
#pragma once

#include <functional>
#include <mutex>
#include <vector>

namespace mux {
class Device;
}

namespace polymux::cl {

class SchedulerGuard;

class DispatchGate {
public:
  /// The gate of `device` (made on first use; lives as long as the process).
  static DispatchGate &of(mux::Device &device);

  using HeldDispatch = std::function<void(SchedulerGuard &)>;
  /// Caller holds the scheduler lock. False when the gate is open (the
  /// caller dispatches now); true when `dispatch` was held for open().
  bool hold(HeldDispatch &dispatch);
  /// From now on dispatches are held.
  void close();
  /// Dispatches what was held, in the order it came, under `guard`, and
  /// lets later dispatches through.
  void open(SchedulerGuard &guard);

private:
  std::mutex mutex_;
  bool closed_ = false;
  std::vector<HeldDispatch> held_;
};

} // namespace polymux::cl
