// mux::DeviceActivity's launch progress: counts a target pushes, counts a
// target's device keeps (read through a reader), and launches that overlap.
#include "mux/device_activity.h"

#include <gtest/gtest.h>

#include <atomic>

namespace {

TEST(DeviceActivityTest, PushedGroupsGiveTheShareDoneAndHundredOnlyAtTheEnd) {
  mux::DeviceActivity activity;
  EXPECT_EQ(activity.launchProgress(), 100u);
  activity.launchStarted(8);
  EXPECT_EQ(activity.launchProgress(), 0u);
  activity.workGroupsDone(3);
  EXPECT_EQ(activity.launchProgress(), 37u); // 3/8, rounded down
  activity.workGroupsDone(5);
  EXPECT_EQ(activity.launchProgress(), 99u);
  activity.launchEnded();
  EXPECT_EQ(activity.launchProgress(), 100u);
}

TEST(DeviceActivityTest, AReaderGivesTheDeviceCountUntilItsLaunchEnds) {
  mux::DeviceActivity activity;
  std::atomic<uint64_t> done{0};
  std::atomic<int> calls{0};
  uint64_t token = activity.launchStarted(200, [&] {
    ++calls;
    return done.load();
  });
  EXPECT_EQ(activity.launchProgress(), 0u);
  done = 50;
  EXPECT_EQ(activity.launchProgress(), 25u);
  done = 200;
  EXPECT_EQ(activity.launchProgress(), 99u);
  activity.launchEnded(token);
  const int callsAtEnd = calls.load();
  EXPECT_EQ(activity.launchProgress(), 100u);
  EXPECT_EQ(calls.load(), callsAtEnd); // never called after its launch ended
}

TEST(DeviceActivityTest, OverlappingLaunchesReportTheLastStarted) {
  mux::DeviceActivity activity;
  uint64_t first = activity.launchStarted(100, [] { return uint64_t(10); });
  uint64_t second = activity.launchStarted(100, [] { return uint64_t(60); });
  EXPECT_NE(first, second);
  EXPECT_EQ(activity.launchProgress(), 60u);
  // The first ending leaves the second's reader in place.
  activity.launchEnded(first);
  EXPECT_EQ(activity.launchProgress(), 60u);
  activity.launchEnded(second);
  EXPECT_EQ(activity.launchProgress(), 100u);
}

TEST(DeviceActivityTest, ZeroUnitsStayAtZeroUntilTheEnd) {
  mux::DeviceActivity activity;
  uint64_t token = activity.launchStarted(0, [] { return uint64_t(5); });
  EXPECT_EQ(activity.launchProgress(), 0u);
  activity.launchEnded(token);
  EXPECT_EQ(activity.launchProgress(), 100u);
}

} // namespace
