#include "dispatch_gate.h"

#include <map>
#include <memory>

namespace polymux::cl {

DispatchGate &DispatchGate::of(mux::Device &device) {
  static std::mutex mutex;
  static std::map<const mux::Device *, std::unique_ptr<DispatchGate>> gates;
  std::lock_guard lock(mutex);
  auto &gate = gates[&device];
  if (!gate)
    gate = std::make_unique<DispatchGate>();
  return *gate;
}

bool DispatchGate::hold(HeldDispatch &dispatch) {
  std::lock_guard lock(mutex_);
  if (!closed_)
    return false;
  held_.push_back(std::move(dispatch));
  return true;
}

void DispatchGate::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void DispatchGate::open(SchedulerGuard &guard) {
  std::vector<HeldDispatch> held;
  {
    std::lock_guard lock(mutex_);
    closed_ = false;
    held.swap(held_);
  }
  // Under the scheduler lock: no new dispatch can overtake these.
  for (HeldDispatch &dispatch : held)
    dispatch(guard);
}

} // namespace polymux::cl
