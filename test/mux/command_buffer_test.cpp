// Command buffer life cycle, user callbacks and timestamps.
#include "mux_test.h"

#include <mutex>

namespace muxtest {
namespace {

using CommandBufferTest = MuxTest;

TEST_P(CommandBufferTest, CallbacksRunInOrderWithTransfers) {
  BoundBuffer bound = makeBuffer(64);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> host(64, 9), seen;
  std::vector<int> order;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status status) {
    EXPECT_EQ(status, mux::Status::Success);
    order.push_back(1);
  }));
  recordWrite(*commandBuffer, *bound.buffer, 0, host.data(), 64);
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status status) {
    order.push_back(2);
    // The write before this callback has completed.
    host.assign(64, 0);
  }));
  recordRead(*commandBuffer, *bound.buffer, 0, host.data(), 64);
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status) {
    order.push_back(3);
    finishReads(); // the read before this callback has completed
    seen = host;
  }));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(seen, std::vector<uint8_t>(64, 9));
}

TEST_P(CommandBufferTest, EmptyCallbackIsRejected) {
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->userCallback(nullptr)), mux::Status::InvalidArgument);
}

TEST_P(CommandBufferTest, RecordingAfterFinalizeFailsUntilReset) {
  BoundBuffer bound = makeBuffer(64);
  ASSERT_TRUE(bound.buffer);
  upload(*bound.buffer, 0, std::vector<uint8_t>(64, 0));
  uint8_t value = 1;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 64, &value, 1));
  MUX_ASSERT_OK(commandBuffer->finalize());
  EXPECT_EQ(statusOf(commandBuffer->fillBuffer(*bound.buffer, 0, 64, &value, 1)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->userCallback([](mux::Status) {})), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->finalize()), mux::Status::InvalidArgument);

  commandBuffer->reset();
  int calls = 0;
  value = 2;
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 32, &value, 1));
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status) { ++calls; }));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(calls, 1);
  // Only the commands recorded after reset() ran.
  std::vector<uint8_t> expected(64, 0);
  std::fill(expected.begin(), expected.begin() + 32, 2);
  EXPECT_EQ(download(*bound.buffer, 0, 64), expected);
}

TEST_P(CommandBufferTest, FinalizedBufferCanBeDispatchedRepeatedly) {
  BoundBuffer counter = makeBuffer(4);
  ASSERT_TRUE(counter.buffer);
  std::vector<uint8_t> host(4, 0);
  int calls = 0;
  auto commandBuffer = makeCommandBuffer();
  recordRead(*commandBuffer, *counter.buffer, 0, host.data(), 4);
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status) { ++calls; }));
  MUX_ASSERT_OK(commandBuffer->finalize());
  for (int i = 0; i < 10; ++i)
    MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, nullptr, nullptr));
  device().queue().waitAll();
  EXPECT_EQ(calls, 10);
}

TEST_P(CommandBufferTest, UnfinalizedBufferCannotBeDispatched) {
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(device().queue().dispatch(*commandBuffer, {}, {}, nullptr, nullptr)),
            mux::Status::InvalidArgument);
}

TEST_P(CommandBufferTest, TimestampsAreMonotonicAndOnTheDeviceClock) {
  MUX_ASSERT_VALUE(pool, device().createQueryPool(4));
  EXPECT_EQ(pool->count(), 4u);
  BoundBuffer bound = makeBuffer(1 << 20);
  ASSERT_TRUE(bound.buffer);
  uint32_t pattern = 0x12345678;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(*pool, 0));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 1 << 20, &pattern, 4));
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(*pool, 1));
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(*pool, 2));
  uint64_t before = device().timestampNs();
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  uint64_t after = device().timestampNs();
  EXPECT_LE(before, pool->timestampNs(0));
  EXPECT_LT(pool->timestampNs(0), pool->timestampNs(1)); // a 1 MiB fill takes more than a nanosecond
  EXPECT_LE(pool->timestampNs(1), pool->timestampNs(2));
  EXPECT_LE(pool->timestampNs(2), after);
}

TEST_P(CommandBufferTest, TimestampIndexIsChecked) {
  MUX_ASSERT_VALUE(pool, device().createQueryPool(2));
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->writeTimestamp(*pool, 2)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().createQueryPool(0)), mux::Status::InvalidArgument);
}

TEST_P(CommandBufferTest, CompletionCallbackGetsSuccess) {
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->finalize());
  std::mutex mutex;
  std::vector<mux::Status> statuses;
  for (int i = 0; i < 3; ++i)
    MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, nullptr, [&](mux::Status status) {
      std::lock_guard lock(mutex);
      statuses.push_back(status);
    }));
  device().queue().waitAll();
  std::lock_guard lock(mutex);
  EXPECT_EQ(statuses, std::vector<mux::Status>(3, mux::Status::Success));
}

INSTANTIATE_MUX_TEST(CommandBufferTest);

} // namespace
} // namespace muxtest
