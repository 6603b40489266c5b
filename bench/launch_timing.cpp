#include "launch_timing.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace bench {

TimingPlan timingPlan(const DeviceFacts &facts, bool quick) {
  TimingPlan plan;
  switch (facts.kind) {
  case DeviceFacts::Kind::Gpu:
    plan.batches = quick ? 3 : 5;
    plan.batchSeconds = quick ? 0.02 : 0.1;
    plan.budgetSeconds = quick ? 1 : 5;
    break;
  case DeviceFacts::Kind::Cpu:
    plan.batches = quick ? 1 : 3;
    plan.batchSeconds = quick ? 0.02 : 0.05;
    plan.budgetSeconds = quick ? 0.3 : 2;
    break;
  case DeviceFacts::Kind::Simulated:
    // Every guest instruction costs host time: one timed launch is the figure.
    plan.batches = 0;
    plan.budgetSeconds = 0;
    break;
  }
  return plan;
}

namespace {

double timeBatch(const DeviceSession &session, const std::function<void()> &enqueue, size_t count) {
  auto start = Clock::now();
  for (size_t i = 0; i < count; ++i)
    enqueue();
  check(clFinish(session.queue()), "clFinish");
  return secondsSince(start);
}

} // namespace

double secondsPerCall(const DeviceSession &session, const std::function<void()> &enqueue, const TimingPlan &plan) {
  if (plan.warmUp)
    timeBatch(session, enqueue, 1);
  const double first = timeBatch(session, enqueue, 1);
  double best = first, measured = first;
  // Sized from the first launch, which includes the host's round trip: a
  // batch may come out somewhat shorter than batchSeconds, never longer.
  const size_t batch = std::clamp<size_t>(static_cast<size_t>(std::ceil(plan.batchSeconds / first)), 1, 1000);
  for (size_t i = 0; i < plan.batches && measured < plan.budgetSeconds; ++i) {
    const double seconds = timeBatch(session, enqueue, batch);
    measured += seconds;
    best = std::min(best, seconds / static_cast<double>(batch));
  }
  return best;
}

double secondsPerLaunch(const DeviceSession &session, cl_kernel kernel, size_t items, const TimingPlan &plan) {
  Launch launch;
  launch.kernel = kernel;
  launch.global[0] = items;
  launch.driverChoosesLocal = true;
  return secondsPerLaunch(session, launch, plan);
}

double secondsPerLaunch(const DeviceSession &session, const Launch &launch, const TimingPlan &plan) {
  return secondsPerCall(
      session,
      [&] {
        check(clEnqueueNDRangeKernel(session.queue(), launch.kernel, launch.dims, nullptr, launch.global.data(),
                                     launch.driverChoosesLocal ? nullptr : launch.local.data(), 0, nullptr, nullptr),
              "clEnqueueNDRangeKernel");
      },
      plan);
}

} // namespace bench
