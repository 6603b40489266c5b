// A command buffer recorded again with the same commands submits the Vulkan
// command buffers of its last recording (command_tape.h): the work runs
// again on the data of the time, host work (callbacks) runs again, and a
// recording that differs, or names an object destroyed since, is recorded
// anew.
#include "command_buffer.h"
#include "vulkan_test.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace vulkantest {
namespace {

constexpr const char *kSource = R"(
kernel void scale(global uint *out, global const uint *in, uint factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}
)";

constexpr size_t kElements = 256;
constexpr uint64_t kBytes = kElements * sizeof(uint32_t);

class CommandReuseTest : public VulkanTest {
protected:
  void recordScale(mux::CommandBuffer &commandBuffer, mux::Kernel &kernel, HostBuffer &out, HostBuffer &in,
                   uint32_t factor) {
    mux::NDRange range;
    range.dimensions = 1;
    range.globalSize = {kElements, 1, 1};
    range.localSize = {64, 1, 1};
    std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get()), bufferArg(in.buffer.get()), valueArg(factor)};
    MUX_ASSERT_OK(commandBuffer.ndrange(kernel, args, range));
  }
  static std::vector<uint32_t> counting(uint32_t first) {
    std::vector<uint32_t> values(kElements);
    for (size_t i = 0; i < kElements; ++i)
      values[i] = first + static_cast<uint32_t>(i);
    return values;
  }
  static void expectScaled(HostBuffer &out, const std::vector<uint32_t> &in, uint32_t factor) {
    std::vector<uint32_t> result = out.read<uint32_t>(kElements);
    for (size_t i = 0; i < kElements; ++i)
      ASSERT_EQ(result[i], in[i] * factor) << i;
  }
  static bool reused(mux::CommandBuffer &commandBuffer) {
    return static_cast<vulkan_target::CommandBuffer &>(commandBuffer).reusedRecording();
  }
};

TEST_P(CommandReuseTest, TheSameLaunchAgainRunsOnTheNewData) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "scale");
  HostBuffer in = makeHostBuffer(kBytes), out = makeHostBuffer(kBytes);
  auto commandBuffer = makeCommandBuffer();
  std::vector<uint32_t> first = counting(1);
  in.write(first);
  recordScale(*commandBuffer, *compiled->kernel, out, in, 3);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_FALSE(reused(*commandBuffer));
  expectScaled(out, first, 3);

  std::vector<uint32_t> second = counting(1000);
  in.write(second);
  commandBuffer->reset();
  recordScale(*commandBuffer, *compiled->kernel, out, in, 3);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_TRUE(reused(*commandBuffer));
  expectScaled(out, second, 3);
}

TEST_P(CommandReuseTest, AnotherArgumentIsRecordedAnew) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "scale");
  HostBuffer in = makeHostBuffer(kBytes), out = makeHostBuffer(kBytes);
  std::vector<uint32_t> values = counting(7);
  in.write(values);
  auto commandBuffer = makeCommandBuffer();
  recordScale(*commandBuffer, *compiled->kernel, out, in, 3);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  // Only a launch that repeats the one before it reuses its recording.
  const std::vector<std::pair<uint32_t, bool>> launches = {{5, false}, {5, true}, {3, false}, {3, true}};
  for (auto [factor, repeats] : launches) {
    commandBuffer->reset();
    recordScale(*commandBuffer, *compiled->kernel, out, in, factor);
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    EXPECT_EQ(reused(*commandBuffer), repeats) << factor;
    expectScaled(out, values, factor);
  }
}

TEST_P(CommandReuseTest, ARecordingThatNamedADestroyedBufferIsRecordedAnew) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "scale");
  HostBuffer in = makeHostBuffer(kBytes);
  std::vector<uint32_t> values = counting(11);
  in.write(values);
  auto commandBuffer = makeCommandBuffer();
  {
    HostBuffer out = makeHostBuffer(kBytes);
    recordScale(*commandBuffer, *compiled->kernel, out, in, 2);
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    expectScaled(out, values, 2);
  }
  // A new buffer may get the destroyed one's handle and device address:
  // the tape would then be the same, the recorded commands stale.
  HostBuffer out = makeHostBuffer(kBytes);
  out.write(std::vector<uint32_t>(kElements, 0));
  commandBuffer->reset();
  recordScale(*commandBuffer, *compiled->kernel, out, in, 2);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_FALSE(reused(*commandBuffer));
  expectScaled(out, values, 2);
}

TEST_P(CommandReuseTest, SegmentsAndTheirCallbacksRunAgain) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "scale");
  HostBuffer in = makeHostBuffer(kBytes), middle = makeHostBuffer(kBytes), out = makeHostBuffer(kBytes);
  auto commandBuffer = makeCommandBuffer();
  int callbacks = 0;
  std::vector<uint32_t> seenByCallback;
  for (uint32_t round = 0; round < 3; ++round) {
    std::vector<uint32_t> values = counting(100 * round);
    in.write(values);
    if (round)
      commandBuffer->reset();
    // in * 2 -> middle; the callback reads middle between the segments;
    // middle * 3 -> out.
    recordScale(*commandBuffer, *compiled->kernel, middle, in, 2);
    MUX_ASSERT_OK(commandBuffer->userCallback([&](const mux::Outcome &outcome) {
      EXPECT_EQ(outcome.status, mux::Status::Success);
      ++callbacks;
      seenByCallback = middle.read<uint32_t>(kElements);
    }));
    recordScale(*commandBuffer, *compiled->kernel, out, middle, 3);
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    EXPECT_EQ(reused(*commandBuffer), round > 0) << round;
    EXPECT_EQ(callbacks, static_cast<int>(round) + 1);
    ASSERT_EQ(seenByCallback.size(), kElements);
    for (size_t i = 0; i < kElements; ++i)
      ASSERT_EQ(seenByCallback[i], values[i] * 2) << round << " " << i;
    expectScaled(out, values, 6);
  }
}

INSTANTIATE_VULKAN_TEST(CommandReuseTest);

} // namespace
} // namespace vulkantest
