// 3-D rectangular read, write and copy with pitches, against a host model.
#include "mux_test.h"

namespace muxtest {
namespace {

using RectTest = MuxTest;

/// Host reference: copies `rect` between two linear regions (pitches given).
void referenceRect(std::vector<uint8_t> &dst, const std::vector<uint8_t> &src, const mux::RectRegion &rect) {
  for (size_t z = 0; z < rect.region[2]; ++z)
    for (size_t y = 0; y < rect.region[1]; ++y)
      for (size_t x = 0; x < rect.region[0]; ++x)
        dst[(rect.dstOrigin[2] + z) * rect.dstSlicePitch + (rect.dstOrigin[1] + y) * rect.dstRowPitch +
            rect.dstOrigin[0] + x] = src[(rect.srcOrigin[2] + z) * rect.srcSlicePitch +
                                         (rect.srcOrigin[1] + y) * rect.srcRowPitch + rect.srcOrigin[0] + x];
}

mux::RectRegion sampleRect() {
  mux::RectRegion rect;
  rect.srcOrigin = {3, 2, 1};
  rect.dstOrigin = {5, 1, 2};
  rect.region = {7, 4, 3};
  rect.srcRowPitch = 16;
  rect.srcSlicePitch = 16 * 8;
  rect.dstRowPitch = 20;
  rect.dstSlicePitch = 20 * 6;
  return rect;
}

constexpr size_t kSrcSize = 16 * 8 * 5; // 5 slices of the source layout
constexpr size_t kDstSize = 20 * 6 * 6;

TEST_P(RectTest, ReadRect) {
  mux::RectRegion rect = sampleRect(); // src: buffer, dst: host
  BoundBuffer bound = makeBuffer(kSrcSize);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> device = patternBytes(kSrcSize, 11);
  upload(*bound.buffer, 0, device);
  std::vector<uint8_t> host(kDstSize, 0), expected(kDstSize, 0);
  auto commandBuffer = makeCommandBuffer();
  recordReadRect(*commandBuffer, *bound.buffer, host.data(), host.size(), rect);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  finishReads();
  referenceRect(expected, device, rect);
  EXPECT_EQ(host, expected);
}

TEST_P(RectTest, WriteRect) {
  mux::RectRegion rect = sampleRect(); // src: host, dst: buffer
  BoundBuffer bound = makeBuffer(kDstSize);
  ASSERT_TRUE(bound.buffer);
  upload(*bound.buffer, 0, std::vector<uint8_t>(kDstSize, 0x11));
  std::vector<uint8_t> host = patternBytes(kSrcSize, 12), expected(kDstSize, 0x11);
  auto commandBuffer = makeCommandBuffer();
  recordWriteRect(*commandBuffer, *bound.buffer, host.data(), host.size(), rect);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  referenceRect(expected, host, rect);
  EXPECT_EQ(download(*bound.buffer, 0, kDstSize), expected);
}

TEST_P(RectTest, CopyRect) {
  mux::RectRegion rect = sampleRect();
  BoundBuffer src = makeBuffer(kSrcSize), dst = makeBuffer(kDstSize);
  ASSERT_TRUE(src.buffer && dst.buffer);
  std::vector<uint8_t> source = patternBytes(kSrcSize, 13);
  upload(*src.buffer, 0, source);
  upload(*dst.buffer, 0, std::vector<uint8_t>(kDstSize, 0x22));
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->copyBufferRect(*src.buffer, *dst.buffer, rect));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  std::vector<uint8_t> expected(kDstSize, 0x22);
  referenceRect(expected, source, rect);
  EXPECT_EQ(download(*dst.buffer, 0, kDstSize), expected);
}

TEST_P(RectTest, ZeroPitchesDefaultToTightPacking) {
  mux::RectRegion rect;
  rect.srcOrigin = {4, 1, 1};
  rect.srcRowPitch = 0;
  rect.srcSlicePitch = 0;
  rect.dstRowPitch = 0;
  rect.dstSlicePitch = 0;
  rect.region = {4, 2, 1};
  BoundBuffer bound = makeBuffer(256);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> device = patternBytes(256, 14);
  upload(*bound.buffer, 0, device);
  std::vector<uint8_t> host(8, 0);
  auto commandBuffer = makeCommandBuffer();
  recordReadRect(*commandBuffer, *bound.buffer, host.data(), host.size(), rect);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  finishReads();
  // Tight pitches: row = 4, slice = 8.
  mux::RectRegion tight = rect;
  tight.srcRowPitch = tight.dstRowPitch = 4;
  tight.srcSlicePitch = tight.dstSlicePitch = 8;
  std::vector<uint8_t> expected(8, 0);
  referenceRect(expected, device, tight);
  EXPECT_EQ(host, expected);
}

TEST_P(RectTest, BadRectsAreRejected) {
  BoundBuffer bound = makeBuffer(kSrcSize);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> host(kDstSize * 4);
  auto commandBuffer = makeCommandBuffer();
  mux::RectRegion rect = sampleRect();
  rect.srcOrigin[2] = 3; // 3 slices from slice 3 end past the 5-slice buffer
  EXPECT_EQ(statusOf(commandBuffer->readBufferRect(*bound.buffer, host.data(), rect)), mux::Status::InvalidArgument);
  rect = sampleRect();
  rect.srcRowPitch = 6; // narrower than the region
  EXPECT_EQ(statusOf(commandBuffer->readBufferRect(*bound.buffer, host.data(), rect)), mux::Status::InvalidArgument);
  rect = sampleRect();
  rect.dstSlicePitch = 20 * 3; // smaller than height * row pitch
  EXPECT_EQ(statusOf(commandBuffer->writeBufferRect(*bound.buffer, host.data(), rect)), mux::Status::InvalidArgument);
  rect = sampleRect();
  rect.region[1] = 0;
  EXPECT_EQ(statusOf(commandBuffer->copyBufferRect(*bound.buffer, *bound.buffer, rect)), mux::Status::InvalidArgument);
  rect = sampleRect();
  rect.srcOrigin[0] = SIZE_MAX - 2;
  EXPECT_EQ(statusOf(commandBuffer->readBufferRect(*bound.buffer, host.data(), rect)), mux::Status::InvalidArgument);
  rect = sampleRect();
  EXPECT_EQ(statusOf(commandBuffer->readBufferRect(*bound.buffer, nullptr, rect)), mux::Status::InvalidArgument);
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
}

INSTANTIATE_MUX_TEST(RectTest);

} // namespace
} // namespace muxtest
