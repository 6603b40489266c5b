// Transfers on the device: fills of every pattern size at odd offsets,
// overlapping copies, rect copies, device-local memory, and the host-pointer
// commands a vulkan device refuses.
#include "vulkan_test.h"

namespace vulkantest {
namespace {

using VulkanTransferTest = VulkanTest;

TEST_P(VulkanTransferTest, FillsEveryPatternSizeAtOddOffsets) {
  constexpr size_t kSize = 64 * 1024 + 512;
  HostBuffer bound = makeHostBuffer(kSize);
  ASSERT_TRUE(bound.buffer);
  for (size_t patternSize = 1; patternSize <= 128; patternSize = patternSize < 8 ? patternSize + 1 : patternSize * 2) {
    for (uint64_t offset : {uint64_t(0), uint64_t(1), uint64_t(3), uint64_t(patternSize * 5 + 1)}) {
      // Sizes around the 4-byte words and beyond one block of the pattern.
      for (uint64_t count : {uint64_t(1), uint64_t(3), uint64_t(17), uint64_t(60000 / patternSize)}) {
        SCOPED_TRACE(testing::Message() << "pattern " << patternSize << " offset " << offset << " count " << count);
        const uint64_t size = count * patternSize;
        if (offset + size > kSize)
          continue;
        bound.write(std::vector<uint8_t>(kSize, 0xCD));
        std::vector<uint8_t> pattern = muxtest::patternBytes(patternSize, uint32_t(patternSize + offset));
        auto commandBuffer = makeCommandBuffer();
        MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, offset, size, pattern.data(), patternSize));
        std::vector<uint8_t> reference = pattern;
        std::fill(pattern.begin(), pattern.end(), 0); // copied at record time
        ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
        std::vector<uint8_t> result = bound.read<uint8_t>(kSize);
        for (uint64_t i = 0; i < kSize; ++i) {
          uint8_t expected = i >= offset && i < offset + size ? reference[(i - offset) % patternSize] : 0xCD;
          ASSERT_EQ(result[i], expected) << "byte " << i;
        }
      }
    }
  }
}

TEST_P(VulkanTransferTest, LargeFillsOfOddPatternsDoubleOnTheDevice) {
  constexpr size_t kSize = (3 << 20) + 100;
  HostBuffer bound = makeHostBuffer(kSize);
  ASSERT_TRUE(bound.buffer);
  for (size_t patternSize : {3, 24, 128}) {
    SCOPED_TRACE(patternSize);
    const uint64_t offset = 7, size = (kSize - 64) / patternSize * patternSize - patternSize * 5;
    bound.write(std::vector<uint8_t>(kSize, 0xCD));
    std::vector<uint8_t> pattern = muxtest::patternBytes(patternSize, uint32_t(patternSize));
    auto commandBuffer = makeCommandBuffer();
    MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, offset, size, pattern.data(), patternSize));
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    std::vector<uint8_t> result = bound.read<uint8_t>(kSize);
    for (uint64_t i = 0; i < kSize; ++i)
      ASSERT_EQ(result[i], i >= offset && i < offset + size ? pattern[(i - offset) % patternSize] : 0xCD) << i;
  }
}

TEST_P(VulkanTransferTest, OverlappingCopiesBehaveAsMemmove) {
  constexpr size_t kSize = 4096;
  HostBuffer bound = makeHostBuffer(kSize);
  ASSERT_TRUE(bound.buffer);
  for (auto [src, dst, size] : {std::tuple{0, 10, 3000}, std::tuple{10, 0, 3000}, std::tuple{100, 101, 2000},
                                std::tuple{1001, 1000, 2000}, std::tuple{5, 5, 100}}) {
    SCOPED_TRACE(testing::Message() << src << " -> " << dst << " x " << size);
    std::vector<uint8_t> bytes = muxtest::patternBytes(kSize, src * 7 + dst);
    bound.write(bytes);
    auto commandBuffer = makeCommandBuffer();
    MUX_ASSERT_OK(commandBuffer->copyBuffer(*bound.buffer, src, *bound.buffer, dst, size));
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    std::memmove(bytes.data() + dst, bytes.data() + src, size);
    EXPECT_EQ(bound.read<uint8_t>(kSize), bytes);
  }
}

TEST_P(VulkanTransferTest, RectCopyBetweenBuffersWithPitches) {
  mux::RectRegion rect;
  rect.srcOrigin = {3, 2, 1};
  rect.dstOrigin = {5, 1, 2};
  rect.region = {7, 4, 3};
  rect.srcRowPitch = 16;
  rect.srcSlicePitch = 128;
  rect.dstRowPitch = 20;
  rect.dstSlicePitch = 120;
  HostBuffer src = makeHostBuffer(128 * 5), dst = makeHostBuffer(120 * 6);
  ASSERT_TRUE(src.buffer && dst.buffer);
  std::vector<uint8_t> source = muxtest::patternBytes(128 * 5, 9), expected(120 * 6, 0x22);
  src.write(source);
  dst.write(expected);
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->copyBufferRect(*src.buffer, *dst.buffer, rect));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  for (size_t z = 0; z < 3; ++z)
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 7; ++x)
        expected[(2 + z) * 120 + (1 + y) * 20 + 5 + x] = source[(1 + z) * 128 + (2 + y) * 16 + 3 + x];
  EXPECT_EQ(dst.read<uint8_t>(120 * 6), expected);
}

TEST_P(VulkanTransferTest, DeviceLocalBufferRoundTripsThroughCopies) {
  constexpr size_t kSize = 1 << 20;
  HostBuffer local = makeHostBuffer(kSize, mux::MemoryDeviceLocal);
  HostBuffer upload = makeHostBuffer(kSize), download = makeHostBuffer(kSize);
  ASSERT_TRUE(local.buffer && upload.buffer && download.buffer);
  EXPECT_TRUE(local.memory->properties() & mux::MemoryDeviceLocal);
  std::vector<uint8_t> bytes = muxtest::patternBytes(kSize, 5);
  upload.write(bytes);
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*upload.buffer, 0, *local.buffer, 0, kSize));
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*local.buffer, 0, *download.buffer, 0, kSize));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(download.read<uint8_t>(kSize), bytes);
}

TEST_P(VulkanTransferTest, HostPointerCommandsAreUnsupported) {
  EXPECT_FALSE(device().info().commandsAccessHostMemory);
  HostBuffer bound = makeHostBuffer(64);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> host(64);
  mux::RectRegion rect;
  rect.region = {4, 1, 1};
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*bound.buffer, 0, host.data(), 64)), mux::Status::Unsupported);
  EXPECT_EQ(statusOf(commandBuffer->writeBuffer(*bound.buffer, 0, host.data(), 64)), mux::Status::Unsupported);
  EXPECT_EQ(statusOf(commandBuffer->readBufferRect(*bound.buffer, host.data(), rect)), mux::Status::Unsupported);
  EXPECT_EQ(statusOf(commandBuffer->writeBufferRect(*bound.buffer, host.data(), rect)), mux::Status::Unsupported);
  // A broken call is still reported as broken.
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*bound.buffer, 60, host.data(), 8)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().wrapHostMemory(host.data(), 64)), mux::Status::Unsupported);
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
}

TEST_P(VulkanTransferTest, MemoryTypesFollowTheRequestedProperties) {
  for (uint32_t properties :
       {uint32_t(mux::MemoryHostVisible), uint32_t(mux::MemoryHostVisible | mux::MemoryHostCoherent),
        uint32_t(mux::MemoryDeviceLocal)}) {
    auto memory = device().allocateMemory(4096, properties, 0);
    ASSERT_TRUE(!!memory) << llvm::toString(memory.takeError());
    EXPECT_EQ((*memory)->properties() & properties, properties);
  }
}

INSTANTIATE_VULKAN_TEST(VulkanTransferTest);

} // namespace
} // namespace vulkantest
