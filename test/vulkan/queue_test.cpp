// Markers, user callbacks, semaphores and timestamps on the vulkan queue:
// markers run after their work without splitting the Vulkan command
// buffer; a user callback splits it and later work waits for it.
#include "vulkan_test.h"

#include "command_buffer.h"

#include <atomic>
#include <mutex>
#include <thread>

std::unique_ptr<mux::Target> polymux_create_target_vulkan();

namespace vulkantest {
namespace {

using VulkanQueueTest = VulkanTest;

size_t segmentsOf(mux::CommandBuffer &commandBuffer) {
  return dynamic_cast<vulkan_target::CommandBuffer &>(commandBuffer).segmentCount();
}

TEST_P(VulkanQueueTest, MarkersRunInOrderAfterTheirWorkWithoutSplitting) {
  HostBuffer a = makeHostBuffer(4096), b = makeHostBuffer(4096);
  ASSERT_TRUE(a.buffer && b.buffer);
  b.write(std::vector<uint8_t>(4096, 0));
  std::vector<int> order;
  std::vector<uint8_t> seenAtEnd;
  std::vector<mux::Status> completion;
  uint8_t seven = 7;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->markCommandStart([&](mux::Status status) { order.push_back(1); }));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*a.buffer, 0, 4096, &seven, 1));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](mux::Status status) {
    EXPECT_EQ(status, mux::Status::Success);
    order.push_back(2);
  }));
  MUX_ASSERT_OK(commandBuffer->markCommandStart([&](mux::Status) { order.push_back(3); }));
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*a.buffer, 0, *b.buffer, 0, 4096));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](mux::Status) {
    order.push_back(4);
    seenAtEnd = b.read<uint8_t>(4096); // the copy has completed
  }));
  EXPECT_EQ(segmentsOf(*commandBuffer), 1u);
  MUX_ASSERT_OK(commandBuffer->finalize());
  auto fence = device().createFence();
  ASSERT_TRUE(!!fence);
  MUX_ASSERT_OK(
      device().queue().dispatch(*commandBuffer, {}, {}, fence->get(), [&](mux::Status status) { order.push_back(5); }));
  ASSERT_EQ((*fence)->wait(std::chrono::seconds(60)), mux::Status::Success);
  device().queue().waitAll();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(seenAtEnd, std::vector<uint8_t>(4096, 7));
}

TEST_P(VulkanQueueTest, UserCallbackSplitsAndLaterWorkWaitsForIt) {
  HostBuffer a = makeHostBuffer(256), b = makeHostBuffer(256);
  ASSERT_TRUE(a.buffer && b.buffer);
  uint8_t one = 1;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*a.buffer, 0, 256, &one, 1));
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status status) {
    EXPECT_EQ(a.read<uint8_t>(256), std::vector<uint8_t>(256, 1)); // the fill is done
    a.write(std::vector<uint8_t>(256, 5));                         // seen by the copy below
  }));
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*a.buffer, 0, *b.buffer, 0, 256));
  EXPECT_EQ(segmentsOf(*commandBuffer), 2u);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(b.read<uint8_t>(256), std::vector<uint8_t>(256, 5));
}

TEST_P(VulkanQueueTest, SemaphoreOrdersASplitDispatchBeforeItsWaiter) {
  HostBuffer a = makeHostBuffer(1 << 16), b = makeHostBuffer(1 << 16), c = makeHostBuffer(1 << 16);
  ASSERT_TRUE(a.buffer && b.buffer && c.buffer);
  auto semaphore = device().createSemaphore();
  ASSERT_TRUE(!!semaphore);
  uint32_t pattern = 0x01020304;
  auto first = makeCommandBuffer(), second = makeCommandBuffer();
  MUX_ASSERT_OK(first->fillBuffer(*a.buffer, 0, 1 << 16, &pattern, 4));
  MUX_ASSERT_OK(first->userCallback([&](mux::Status) { a.write(std::vector<uint32_t>(1 << 14, 0xabcdef01)); }));
  MUX_ASSERT_OK(first->copyBuffer(*a.buffer, 0, *b.buffer, 0, 1 << 16));
  MUX_ASSERT_OK(first->finalize());
  MUX_ASSERT_OK(second->copyBuffer(*b.buffer, 0, *c.buffer, 0, 1 << 16));
  MUX_ASSERT_OK(second->finalize());
  mux::Semaphore *link = semaphore->get();
  auto fence = device().createFence();
  ASSERT_TRUE(!!fence);
  // The waiter is dispatched first: it must not run before the signal.
  MUX_ASSERT_OK(device().queue().dispatch(*second, {&link, 1}, {}, fence->get(), nullptr));
  MUX_ASSERT_OK(device().queue().dispatch(*first, {}, {&link, 1}, nullptr, nullptr));
  ASSERT_EQ((*fence)->wait(std::chrono::seconds(60)), mux::Status::Success);
  EXPECT_EQ(c.read<uint32_t>(1 << 14), std::vector<uint32_t>(1 << 14, 0xabcdef01));
}

// Semaphores released as soon as their chain's fence signalled, many times
// over, with the queue kept busy: lavapipe 22.3's queue thread still touched
// destroyed VkSemaphores after the fence, which crashed the process within a
// few hundred rounds while each mux semaphore had one (now they are values
// of the queue's one timeline semaphore, sync.h).
TEST_P(VulkanQueueTest, SemaphoresReleasedRightAfterTheirFenceAreSafe) {
  HostBuffer a = makeHostBuffer(4096), b = makeHostBuffer(4096);
  ASSERT_TRUE(a.buffer && b.buffer);
  auto first = makeCommandBuffer(), second = makeCommandBuffer();
  uint32_t pattern = 0;
  MUX_ASSERT_OK(first->fillBuffer(*a.buffer, 0, 4096, &pattern, 4));
  MUX_ASSERT_OK(first->finalize());
  MUX_ASSERT_OK(second->copyBuffer(*a.buffer, 0, *b.buffer, 0, 4096));
  MUX_ASSERT_OK(second->finalize());
  for (int round = 0; round < 400; ++round) {
    auto link = device().createSemaphore(), done = device().createSemaphore();
    ASSERT_TRUE(link && done);
    mux::Semaphore *linkHandle = link->get(), *doneHandle = done->get();
    auto fence = device().createFence();
    ASSERT_TRUE(!!fence);
    MUX_ASSERT_OK(device().queue().dispatch(*first, {}, {&linkHandle, 1}, nullptr, nullptr));
    MUX_ASSERT_OK(device().queue().dispatch(*second, {&linkHandle, 1}, {&doneHandle, 1}, fence->get(), nullptr));
    ASSERT_EQ((*fence)->wait(std::chrono::seconds(60)), mux::Status::Success);
  }
  device().queue().waitAll();
  EXPECT_EQ(b.read<uint32_t>(1024), std::vector<uint32_t>(1024, 0));
}

TEST_P(VulkanQueueTest, TimestampsBracketTheWorkOnTheHostClock) {
  auto pool = device().createQueryPool(3);
  if (!pool && mux::takeStatus(pool.takeError()) == mux::Status::Unsupported)
    GTEST_SKIP() << "no timestamps on this queue";
  ASSERT_TRUE(!!pool);
  HostBuffer bound = makeHostBuffer(8 << 20);
  ASSERT_TRUE(bound.buffer);
  uint8_t value = 9;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(**pool, 0));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 8 << 20, &value, 1));
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(**pool, 1));
  EXPECT_EQ((*pool)->timestampNs(2), 0u); // never written
  uint64_t before = device().timestampNs();
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  uint64_t after = device().timestampNs();
  EXPECT_LE(before, (*pool)->timestampNs(0));
  EXPECT_LT((*pool)->timestampNs(0), (*pool)->timestampNs(1));
  EXPECT_LE((*pool)->timestampNs(1), after);
  EXPECT_EQ((*pool)->timestampNs(2), 0u);
}

// Each dispatch's timestamps are moved onto the host clock when it
// completes, before its markers and callbacks run; a dispatch again
// rewrites them, later than the ones before (one queue runs in order).
TEST_P(VulkanQueueTest, EachDispatchBracketsItsOwnTimestampsBeforeItsCallbacks) {
  auto pool = device().createQueryPool(3);
  if (!pool && mux::takeStatus(pool.takeError()) == mux::Status::Unsupported)
    GTEST_SKIP() << "no timestamps on this queue";
  ASSERT_TRUE(!!pool);
  HostBuffer bound = makeHostBuffer(1 << 20);
  ASSERT_TRUE(bound.buffer);
  uint8_t value = 3;
  uint64_t seenByMarker = 0, seenByCallback = 0;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(**pool, 0));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 1 << 20, &value, 1));
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(**pool, 1));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](mux::Status) { seenByMarker = (*pool)->timestampNs(1); }));
  // A second segment: its timestamp resolves only after the callback.
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status) { seenByCallback = (*pool)->timestampNs(1); }));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 1 << 20, &value, 1));
  MUX_ASSERT_OK(commandBuffer->writeTimestamp(**pool, 2));
  MUX_ASSERT_OK(commandBuffer->finalize());
  uint64_t previousEnd = 0;
  for (int run = 0; run < 4; ++run) {
    MUX_ASSERT_VALUE(fence, device().createFence());
    uint64_t before = device().timestampNs();
    MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, fence.get(), nullptr));
    ASSERT_EQ(fence->wait(muxtest::kLongWait), mux::Status::Success);
    uint64_t after = device().timestampNs();
    const uint64_t start = (*pool)->timestampNs(0), middle = (*pool)->timestampNs(1), end = (*pool)->timestampNs(2);
    EXPECT_LE(before, start) << run;
    EXPECT_LE(previousEnd, start) << run;
    EXPECT_LT(start, middle) << run;
    EXPECT_LE(middle, end) << run;
    EXPECT_LE(end, after) << run;
    EXPECT_EQ(seenByMarker, middle) << run;
    EXPECT_EQ(seenByCallback, middle) << run;
    previousEnd = end;
  }
}

TEST_P(VulkanQueueTest, RepeatedDispatchRunsMarkersEachTime) {
  std::mutex mutex;
  std::vector<int> order;
  HostBuffer bound = makeHostBuffer(64);
  ASSERT_TRUE(bound.buffer);
  uint8_t value = 1;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->markCommandStart([&](mux::Status) {
    std::lock_guard lock(mutex);
    order.push_back(0);
  }));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 64, &value, 1));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](mux::Status) {
    std::lock_guard lock(mutex);
    order.push_back(1);
  }));
  MUX_ASSERT_OK(commandBuffer->finalize());
  for (int i = 0; i < 8; ++i)
    MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, nullptr, nullptr));
  device().queue().waitAll();
  std::lock_guard lock(mutex);
  std::vector<int> expected;
  for (int i = 0; i < 8; ++i) {
    expected.push_back(0);
    expected.push_back(1);
  }
  EXPECT_EQ(order, expected);
}

// Several threads each dispatch a chain of command buffers, every one
// waiting on the previous one's semaphore (as the OpenCL layer chains an
// in-order queue's batches) and adding to the chain's buffer; the chains
// interleave on the one Vulkan queue.
TEST_P(VulkanQueueTest, ChainsFromManyThreadsKeepTheirOrder) {
  constexpr int kThreads = 4, kLinks = 40;
  struct Chain {
    HostBuffer counter;
    std::vector<std::unique_ptr<mux::CommandBuffer>> commandBuffers;
    std::vector<std::unique_ptr<mux::Semaphore>> semaphores;
    std::vector<int> seen;
  };
  std::vector<Chain> chains(kThreads);
  for (Chain &chain : chains) {
    chain.counter = makeHostBuffer(4);
    ASSERT_TRUE(chain.counter.buffer);
    chain.counter.write(std::vector<uint32_t>{0});
    for (int link = 0; link < kLinks; ++link) {
      auto semaphore = device().createSemaphore();
      ASSERT_TRUE(!!semaphore);
      chain.semaphores.push_back(std::move(*semaphore));
      auto commandBuffer = makeCommandBuffer();
      ASSERT_TRUE(commandBuffer);
      // Each link reads the counter on the host, checks it and bumps it
      // on the device with a fill of the next value.
      Chain *self = &chain;
      MUX_ASSERT_OK(commandBuffer->userCallback(
          [self, link](mux::Status) { self->seen.push_back(int(self->counter.read<uint32_t>(1)[0]) - link); }));
      uint32_t next = uint32_t(link + 1);
      MUX_ASSERT_OK(commandBuffer->fillBuffer(*chain.counter.buffer, 0, 4, &next, 4));
      MUX_ASSERT_OK(commandBuffer->finalize());
      chain.commandBuffers.push_back(std::move(commandBuffer));
    }
  }
  std::vector<std::thread> threads;
  std::atomic<int> errors{0};
  for (Chain &chain : chains)
    threads.emplace_back([&] {
      for (int link = 0; link < kLinks; ++link) {
        mux::Semaphore *wait = link ? chain.semaphores[link - 1].get() : nullptr;
        mux::Semaphore *signal = chain.semaphores[link].get();
        std::span<mux::Semaphore *const> waits =
            wait ? std::span<mux::Semaphore *const>(&wait, 1) : std::span<mux::Semaphore *const>();
        if (llvm::Error error =
                device().queue().dispatch(*chain.commandBuffers[link], waits, {&signal, 1}, nullptr, nullptr)) {
          llvm::consumeError(std::move(error));
          ++errors;
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  device().queue().waitAll();
  EXPECT_EQ(errors.load(), 0);
  for (Chain &chain : chains) {
    EXPECT_EQ(chain.seen, std::vector<int>(kLinks, 0)); // each link saw its predecessor's value
    EXPECT_EQ(chain.counter.read<uint32_t>(1)[0], uint32_t(kLinks));
  }
}

TEST_P(VulkanQueueTest, ObjectsOfAnotherDeviceAreRejected) {
  // A second target makes a second VkDevice on the same hardware.
  std::unique_ptr<mux::Target> other = polymux_create_target_vulkan();
  ASSERT_FALSE(other->devices().empty());
  mux::Device &otherDevice = *other->devices().front();
  auto foreignSemaphore = otherDevice.createSemaphore();
  auto foreignCommandBuffer = otherDevice.createCommandBuffer();
  ASSERT_TRUE(foreignSemaphore && foreignCommandBuffer);
  MUX_ASSERT_OK((*foreignCommandBuffer)->finalize());
  auto own = makeCommandBuffer();
  MUX_ASSERT_OK(own->finalize());
  mux::Semaphore *semaphore = foreignSemaphore->get();
  EXPECT_EQ(statusOf(device().queue().dispatch(**foreignCommandBuffer, {}, {}, nullptr, nullptr)),
            mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().queue().dispatch(*own, {&semaphore, 1}, {}, nullptr, nullptr)),
            mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().queue().dispatch(*own, {}, {&semaphore, 1}, nullptr, nullptr)),
            mux::Status::InvalidArgument);
}

INSTANTIATE_VULKAN_TEST(VulkanQueueTest);

} // namespace
} // namespace vulkantest
