// Moving device timestamps onto the host clock (timestamp_window.h) with a
// simulated device clock that drifts: the conversion must stay within the
// samples' error however far the clock has drifted since any calibration.
#include "timestamp_window.h"

#include <gtest/gtest.h>

#include <cmath>

namespace vulkantest {
namespace {

using vulkan_target::ClockSample;
using vulkan_target::timestampToHostNs;
using vulkan_target::TimestampWindow;

/// A device clock 1.25 ns per tick nominally, really 60 ppm fast, started
/// at an arbitrary point: ticks at host time `hostNs`.
uint64_t deviceTicks(uint64_t hostNs) {
  return 7'000'000'000ull + static_cast<uint64_t>(std::llround((hostNs - 1'000'000'000.0) * (1 + 60e-6) / 1.25));
}

/// The window of work submitted at `submitted` and seen complete at
/// `completed`, with clock samples at both ends.
TimestampWindow sampledWindow(uint64_t submitted, uint64_t completed) {
  TimestampWindow window;
  window.submittedNs = submitted;
  window.completedNs = completed;
  window.before = ClockSample{deviceTicks(submitted + 1000), submitted + 1000};
  window.after = ClockSample{deviceTicks(completed - 1000), completed - 1000};
  return window;
}

TEST(TimestampWindowTest, SamplesAroundTheWorkCancelAnyDrift) {
  // An offset measured at the start is 60 µs off one second later (the
  // H100's failure); interpolation between fresh samples is not.
  const double period = 1.25;
  const int64_t startOffset = 1'000'000'000 - static_cast<int64_t>(std::llround(deviceTicks(1'000'000'000) * period));
  for (uint64_t truth : {1'000'200'000ull, 2'000'000'000ull, 60'000'000'000ull}) {
    TimestampWindow window = sampledWindow(truth - 150'000, truth + 900'000);
    const uint64_t ticks = deviceTicks(truth);
    EXPECT_NEAR(double(timestampToHostNs(ticks, window, period, startOffset)), double(truth), 2.0) << truth;
  }
  const uint64_t late = 60'000'000'000ull;
  EXPECT_GT(std::abs(double(deviceTicks(late)) * period + startOffset - double(late)), 1e6);
}

TEST(TimestampWindowTest, WithoutSamplesTheOffsetIsKeptInsideTheWindow) {
  TimestampWindow window;
  window.submittedNs = 5'000'000;
  window.completedNs = 5'400'000;
  // A drifted offset puts the work before its submission: held at it.
  EXPECT_EQ(timestampToHostNs(4'000'000, window, 1.0, 0), 5'000'000u);
  EXPECT_EQ(timestampToHostNs(4'000'000, window, 1.0, 1'200'000), 5'200'000u);
  EXPECT_EQ(timestampToHostNs(4'000'000, window, 1.0, 3'000'000), 5'400'000u);
  EXPECT_EQ(timestampToHostNs(100, window, 40.0, 5'100'000), 5'104'000u);
}

TEST(TimestampWindowTest, TimestampsOutsideTheSamplesAreHeldAtTheNearerOne) {
  TimestampWindow window;
  window.submittedNs = 1000;
  window.completedNs = 9000;
  window.before = ClockSample{500, 2000};
  window.after = ClockSample{1500, 8000};
  EXPECT_EQ(timestampToHostNs(400, window, 1.0, 0), 2000u);
  EXPECT_EQ(timestampToHostNs(1000, window, 1.0, 0), 5000u);
  EXPECT_EQ(timestampToHostNs(1600, window, 1.0, 0), 8000u);
  // One tick for the whole window (a coarse clock): the later sample.
  window.after = ClockSample{500, 8000};
  EXPECT_EQ(timestampToHostNs(500, window, 1.0, 0), 8000u);
}

TEST(TimestampWindowTest, AClockThatWrappedFallsBackToTheOffset) {
  TimestampWindow window;
  window.submittedNs = 1000;
  window.completedNs = 9000;
  window.before = ClockSample{(uint64_t(1) << 36) - 10, 2000};
  window.after = ClockSample{50, 8000};
  EXPECT_EQ(timestampToHostNs(20, window, 1.0, 4000), 4020u);
  // Only one sample, from before the clock wrapped: the offset, in the window.
  window.after.reset();
  EXPECT_EQ(timestampToHostNs(20, window, 1.0, 10'000), 9000u);
}

TEST(TimestampWindowTest, OneRecentSampleIsExtrapolatedAtTheNominalPeriod) {
  // The sample a submission reuses was taken 3 ms before it (device_clock.h
  // takes one at most every 5 ms): 60 ppm of drift since is 0.2 µs.
  const double period = 1.25;
  const uint64_t sampledAt = 10'000'000'000ull;
  TimestampWindow window;
  window.before = ClockSample{deviceTicks(sampledAt), sampledAt};
  window.submittedNs = sampledAt + 3'000'000;
  window.completedNs = sampledAt + 3'500'000;
  const int64_t staleOffset = 0; // would put the work outside its window
  for (uint64_t truth : {sampledAt + 3'000'500ull, sampledAt + 3'200'000ull, sampledAt + 3'499'000ull})
    EXPECT_NEAR(double(timestampToHostNs(deviceTicks(truth), window, period, staleOffset)), double(truth), 300.0)
        << truth;
  // A sample taken after the work (the other side) serves the same way.
  window.completedNs = sampledAt + 3'700'000;
  window.after = ClockSample{deviceTicks(sampledAt + 3'600'000), sampledAt + 3'600'000};
  window.before.reset();
  EXPECT_NEAR(double(timestampToHostNs(deviceTicks(sampledAt + 3'200'000), window, period, staleOffset)),
              double(sampledAt + 3'200'000), 300.0);
}

} // namespace
} // namespace vulkantest
