// Queue ordering: semaphores, fences, waitAll, and dispatches that become
// ready out of order.
#include "mux_test.h"

#include <atomic>
#include <mutex>
#include <thread>

namespace muxtest {
namespace {

using namespace std::chrono_literals;

class QueueTest : public MuxTest {
protected:
  std::unique_ptr<mux::Semaphore> makeSemaphore() {
    auto semaphore = device().createSemaphore();
    if (!semaphore) {
      ADD_FAILURE() << llvm::toString(semaphore.takeError());
      return nullptr;
    }
    return std::move(*semaphore);
  }
  std::unique_ptr<mux::Fence> makeFence() {
    auto fence = device().createFence();
    if (!fence) {
      ADD_FAILURE() << llvm::toString(fence.takeError());
      return nullptr;
    }
    return std::move(*fence);
  }
  /// A finalized command buffer whose only command appends `id` to order_.
  std::unique_ptr<mux::CommandBuffer> makeMarker(int id) {
    auto commandBuffer = makeCommandBuffer();
    if (!commandBuffer)
      return nullptr;
    EXPECT_EQ(statusOf(commandBuffer->userCallback([this, id](mux::Status) {
                std::lock_guard lock(mutex_);
                order_.push_back(id);
              })),
              mux::Status::Success);
    EXPECT_EQ(statusOf(commandBuffer->finalize()), mux::Status::Success);
    return commandBuffer;
  }
  std::vector<int> order() {
    std::lock_guard lock(mutex_);
    return order_;
  }

  std::mutex mutex_;
  std::vector<int> order_;
};

TEST_P(QueueTest, SemaphoreChainsTwoDispatches) {
  BoundBuffer bound = makeBuffer(1 << 20);
  ASSERT_TRUE(bound.buffer);
  auto semaphore = makeSemaphore();
  auto fence = makeFence();
  ASSERT_TRUE(semaphore && fence);
  std::vector<uint8_t> host(1 << 20, 0);
  uint32_t pattern = 0xCAFEF00D;
  auto first = makeCommandBuffer(), second = makeCommandBuffer();
  MUX_ASSERT_OK(first->fillBuffer(*bound.buffer, 0, 1 << 20, &pattern, 4));
  MUX_ASSERT_OK(first->finalize());
  recordRead(*second, *bound.buffer, 0, host.data(), 1 << 20);
  MUX_ASSERT_OK(second->finalize());
  mux::Semaphore *link = semaphore.get();
  MUX_ASSERT_OK(device().queue().dispatch(*first, {}, {&link, 1}, nullptr, nullptr));
  MUX_ASSERT_OK(device().queue().dispatch(*second, {&link, 1}, {}, fence.get(), nullptr));
  ASSERT_EQ(fence->wait(kLongWait), mux::Status::Success);
  finishReads();
  for (size_t i = 0; i < host.size(); i += 4)
    ASSERT_EQ(*reinterpret_cast<uint32_t *>(&host[i]), pattern) << i;
}

TEST_P(QueueTest, ReadyDispatchOvertakesWaitingOne) {
  auto gate = makeSemaphore();
  auto waiting = makeMarker(1), ready = makeMarker(2), release = makeMarker(3);
  ASSERT_TRUE(gate && waiting && ready && release);
  mux::Semaphore *gatePtr = gate.get();
  MUX_ASSERT_OK(device().queue().dispatch(*waiting, {&gatePtr, 1}, {}, nullptr, nullptr));
  MUX_ASSERT_OK(device().queue().dispatch(*ready, {}, {}, nullptr, nullptr));
  // The waiting dispatch cannot run, the ready one must not be stuck behind it.
  for (int i = 0; i < 2000 && order().empty(); ++i)
    std::this_thread::sleep_for(1ms);
  EXPECT_EQ(order(), std::vector<int>{2});
  MUX_ASSERT_OK(device().queue().dispatch(*release, {}, {&gatePtr, 1}, nullptr, nullptr));
  device().queue().waitAll();
  EXPECT_EQ(order(), (std::vector<int>{2, 3, 1}));
}

TEST_P(QueueTest, FenceTimesOutThenIsReleasedByAnotherDispatch) {
  auto gate = makeSemaphore();
  auto fence = makeFence();
  auto blocked = makeMarker(1), opener = makeMarker(2);
  ASSERT_TRUE(gate && fence && blocked && opener);
  mux::Semaphore *gatePtr = gate.get();
  MUX_ASSERT_OK(device().queue().dispatch(*blocked, {&gatePtr, 1}, {}, fence.get(), nullptr));
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(fence->wait(20ms), mux::Status::Timeout);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 20ms);
  EXPECT_EQ(fence->wait(0ns), mux::Status::Timeout);
  EXPECT_TRUE(order().empty());
  MUX_ASSERT_OK(device().queue().dispatch(*opener, {}, {&gatePtr, 1}, nullptr, nullptr));
  EXPECT_EQ(fence->wait(kLongWait), mux::Status::Success);
  EXPECT_EQ(order(), (std::vector<int>{2, 1}));
  // Stays signalled until reset.
  EXPECT_EQ(fence->wait(0ns), mux::Status::Success);
  fence->reset();
  EXPECT_EQ(fence->wait(1ms), mux::Status::Timeout);
}

TEST_P(QueueTest, DispatchWaitsForEverySemaphore) {
  auto a = makeSemaphore(), b = makeSemaphore();
  auto joined = makeMarker(3), first = makeMarker(1), second = makeMarker(2);
  ASSERT_TRUE(a && b && joined && first && second);
  mux::Semaphore *both[] = {a.get(), b.get()};
  MUX_ASSERT_OK(device().queue().dispatch(*joined, both, {}, nullptr, nullptr));
  MUX_ASSERT_OK(device().queue().dispatch(*first, {}, {&both[0], 1}, nullptr, nullptr));
  for (int i = 0; i < 2000 && order().empty(); ++i)
    std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(order(), std::vector<int>{1}); // still waiting for b
  MUX_ASSERT_OK(device().queue().dispatch(*second, {}, {&both[1], 1}, nullptr, nullptr));
  device().queue().waitAll();
  EXPECT_EQ(order(), (std::vector<int>{1, 2, 3}));
}

TEST_P(QueueTest, SignalledSemaphoreStaysSignalledUntilReset) {
  auto semaphore = makeSemaphore();
  auto signaller = makeMarker(1), waiter = makeMarker(2), late = makeMarker(3), opener = makeMarker(4);
  ASSERT_TRUE(semaphore && signaller && waiter && late && opener);
  mux::Semaphore *ptr = semaphore.get();
  MUX_ASSERT_OK(device().queue().dispatch(*signaller, {}, {&ptr, 1}, nullptr, nullptr));
  device().queue().waitAll();
  MUX_ASSERT_OK(device().queue().dispatch(*waiter, {&ptr, 1}, {}, nullptr, nullptr));
  device().queue().waitAll();
  EXPECT_EQ(order(), (std::vector<int>{1, 2}));
  semaphore->reset();
  auto fence = makeFence();
  MUX_ASSERT_OK(device().queue().dispatch(*late, {&ptr, 1}, {}, fence.get(), nullptr));
  EXPECT_EQ(fence->wait(10ms), mux::Status::Timeout);
  MUX_ASSERT_OK(device().queue().dispatch(*opener, {}, {&ptr, 1}, nullptr, nullptr));
  EXPECT_EQ(fence->wait(kLongWait), mux::Status::Success);
  EXPECT_EQ(order(), (std::vector<int>{1, 2, 4, 3}));
}

TEST_P(QueueTest, WaitAllWaitsForEveryDispatch) {
  BoundBuffer bound = makeBuffer(4 << 20);
  ASSERT_TRUE(bound.buffer);
  std::atomic<int> completed{0};
  auto commandBuffer = makeCommandBuffer();
  uint8_t value = 3;
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, 0, 4 << 20, &value, 1));
  MUX_ASSERT_OK(commandBuffer->finalize());
  for (int i = 0; i < 20; ++i)
    MUX_ASSERT_OK(
        device().queue().dispatch(*commandBuffer, {}, {}, nullptr, [&](mux::Status) { completed.fetch_add(1); }));
  device().queue().waitAll();
  EXPECT_EQ(completed.load(), 20);
}

TEST_P(QueueTest, ConcurrentDispatchesFromManyThreads) {
  std::atomic<int> completed{0};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status) { completed.fetch_add(1); }));
  MUX_ASSERT_OK(commandBuffer->finalize());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 250; ++i)
        EXPECT_EQ(statusOf(device().queue().dispatch(*commandBuffer, {}, {}, nullptr, nullptr)), mux::Status::Success);
    });
  for (std::thread &thread : threads)
    thread.join();
  device().queue().waitAll();
  EXPECT_EQ(completed.load(), 1000);
}

TEST_P(QueueTest, NullSemaphoreIsRejected) {
  auto marker = makeMarker(1);
  ASSERT_TRUE(marker);
  mux::Semaphore *null = nullptr;
  EXPECT_EQ(statusOf(device().queue().dispatch(*marker, {&null, 1}, {}, nullptr, nullptr)),
            mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().queue().dispatch(*marker, {}, {&null, 1}, nullptr, nullptr)),
            mux::Status::InvalidArgument);
  device().queue().waitAll();
  EXPECT_TRUE(order().empty());
}

INSTANTIATE_MUX_TEST(QueueTest);

// Destroying a device finishes what can run and abandons dispatches whose
// semaphores nobody will signal, without hanging.
TEST(QueueTeardownTest, DestroyingTargetsWithBlockedDispatchesDoesNotHang) {
  std::atomic<int> ran{0};
  std::vector<std::unique_ptr<mux::CommandBuffer>> commandBuffers;
  std::vector<std::unique_ptr<mux::Semaphore>> semaphores;
  {
    std::vector<std::unique_ptr<mux::Target>> targets = mux::createRegisteredTargets();
    for (auto &target : targets) {
      for (mux::Device *device : target->devices()) {
        auto never = device->createSemaphore();
        ASSERT_TRUE(!!never);
        auto blocked = device->createCommandBuffer(), ready = device->createCommandBuffer();
        ASSERT_TRUE(blocked && ready);
        for (auto *commandBuffer : {blocked->get(), ready->get()}) {
          MUX_ASSERT_OK(commandBuffer->userCallback([&](mux::Status) { ran.fetch_add(1); }));
          MUX_ASSERT_OK(commandBuffer->finalize());
        }
        mux::Semaphore *wait = never->get();
        MUX_ASSERT_OK(device->queue().dispatch(**blocked, {&wait, 1}, {}, nullptr, nullptr));
        MUX_ASSERT_OK(device->queue().dispatch(**ready, {}, {}, nullptr, nullptr));
        commandBuffers.push_back(std::move(*blocked));
        commandBuffers.push_back(std::move(*ready));
        semaphores.push_back(std::move(*never));
      }
    }
    // Targets (and their queues) are destroyed here.
  }
  EXPECT_EQ(ran.load(), int(semaphores.size())); // only the ready dispatches ran
}

} // namespace
} // namespace muxtest
