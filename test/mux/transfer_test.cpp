// Read, write, copy and fill commands, checked against host references.
#include "mux_test.h"

#include <cstring>

namespace muxtest {
namespace {

using TransferTest = MuxTest;

TEST_P(TransferTest, WriteThenReadRoundTrips) {
  BoundBuffer bound = makeBuffer(4096);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> bytes = patternBytes(1000, 1);
  upload(*bound.buffer, 0, std::vector<uint8_t>(4096, 0));
  upload(*bound.buffer, 123, bytes);
  std::vector<uint8_t> expected(4096, 0);
  std::copy(bytes.begin(), bytes.end(), expected.begin() + 123);
  EXPECT_EQ(download(*bound.buffer, 0, 4096), expected);
  EXPECT_EQ(download(*bound.buffer, 123, 1000), bytes);
}

TEST_P(TransferTest, WriteReadsHostMemoryWhenItRuns) {
  if (staged())
    GTEST_SKIP() << "the device's commands do not access host memory";
  BoundBuffer bound = makeBuffer(64);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> source(64, 1);
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->writeBuffer(*bound.buffer, 0, source.data(), 64));
  std::fill(source.begin(), source.end(), 2); // after recording, before running
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(download(*bound.buffer, 0, 64), std::vector<uint8_t>(64, 2));
}

TEST_P(TransferTest, CopyBetweenBuffers) {
  BoundBuffer src = makeBuffer(1024), dst = makeBuffer(2048);
  ASSERT_TRUE(src.buffer && dst.buffer);
  std::vector<uint8_t> bytes = patternBytes(1024, 2);
  upload(*src.buffer, 0, bytes);
  upload(*dst.buffer, 0, std::vector<uint8_t>(2048, 0));
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*src.buffer, 100, *dst.buffer, 1500, 500));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  std::vector<uint8_t> expected(2048, 0);
  std::copy(bytes.begin() + 100, bytes.begin() + 600, expected.begin() + 1500);
  EXPECT_EQ(download(*dst.buffer, 0, 2048), expected);
}

TEST_P(TransferTest, OverlappingCopyWithinABufferBehavesAsMemmove) {
  BoundBuffer bound = makeBuffer(1024);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> bytes = patternBytes(1024, 3);
  upload(*bound.buffer, 0, bytes);
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*bound.buffer, 0, *bound.buffer, 10, 500));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  std::vector<uint8_t> expected = bytes;
  std::memmove(expected.data() + 10, expected.data(), 500);
  EXPECT_EQ(download(*bound.buffer, 0, 1024), expected);
}

TEST_P(TransferTest, FillWithEveryPatternSize) {
  for (size_t patternSize : {1, 2, 4, 8, 16, 32, 64, 128}) {
    SCOPED_TRACE(patternSize);
    BoundBuffer bound = makeBuffer(4096);
    ASSERT_TRUE(bound.buffer);
    upload(*bound.buffer, 0, std::vector<uint8_t>(4096, 0xCD));
    std::vector<uint8_t> pattern = patternBytes(patternSize, uint32_t(patternSize));
    uint64_t offset = patternSize * 3, size = patternSize * 17;
    auto commandBuffer = makeCommandBuffer();
    MUX_ASSERT_OK(commandBuffer->fillBuffer(*bound.buffer, offset, size, pattern.data(), patternSize));
    std::fill(pattern.begin(), pattern.end(), 0); // the pattern is copied at record time
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    std::vector<uint8_t> reference = patternBytes(patternSize, uint32_t(patternSize));
    std::vector<uint8_t> expected(4096, 0xCD);
    for (uint64_t i = 0; i < size; ++i)
      expected[offset + i] = reference[i % patternSize];
    EXPECT_EQ(download(*bound.buffer, 0, 4096), expected);
  }
}

TEST_P(TransferTest, CommandsRunInRecordedOrder) {
  BoundBuffer a = makeBuffer(256), b = makeBuffer(256);
  ASSERT_TRUE(a.buffer && b.buffer);
  std::vector<uint8_t> first = patternBytes(256, 4), result(256, 0);
  uint8_t seven = 7;
  auto commandBuffer = makeCommandBuffer();
  recordWrite(*commandBuffer, *a.buffer, 0, first.data(), 256);
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*a.buffer, 64, 64, &seven, 1));
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*a.buffer, 0, *b.buffer, 0, 256));
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*a.buffer, 0, 256, &seven, 1));
  recordRead(*commandBuffer, *b.buffer, 0, result.data(), 256);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  finishReads();
  std::vector<uint8_t> expected = first;
  std::fill(expected.begin() + 64, expected.begin() + 128, 7);
  EXPECT_EQ(result, expected);
}

TEST_P(TransferTest, OutOfBoundsCommandsAreRejected) {
  BoundBuffer a = makeBuffer(256), b = makeBuffer(128);
  ASSERT_TRUE(a.buffer && b.buffer);
  std::vector<uint8_t> host(512);
  uint32_t pattern = 0;
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*a.buffer, 200, host.data(), 57)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*a.buffer, UINT64_MAX, host.data(), 2)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*a.buffer, 0, nullptr, 16)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->writeBuffer(*b.buffer, 0, host.data(), 129)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->writeBuffer(*b.buffer, 0, nullptr, 16)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->copyBuffer(*a.buffer, 0, *b.buffer, 0, 129)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->copyBuffer(*b.buffer, 100, *a.buffer, 0, 29)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->fillBuffer(*a.buffer, 0, 260, &pattern, 4)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->fillBuffer(*a.buffer, 0, 6, &pattern, 4)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->fillBuffer(*a.buffer, 0, 4, &pattern, 0)), mux::Status::InvalidArgument);
  std::vector<uint8_t> big(256);
  EXPECT_EQ(statusOf(commandBuffer->fillBuffer(*a.buffer, 0, 256, big.data(), 256)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->fillBuffer(*a.buffer, 0, 4, nullptr, 4)), mux::Status::InvalidArgument);
  // Rejected commands were not recorded: the buffer still runs cleanly.
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
}

TEST_P(TransferTest, UnboundBuffersAreRejected) {
  MUX_ASSERT_VALUE(unbound, device().createBuffer(64));
  BoundBuffer bound = makeBuffer(64);
  ASSERT_TRUE(bound.buffer);
  std::vector<uint8_t> host(64);
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*unbound, 0, host.data(), 64)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(commandBuffer->copyBuffer(*bound.buffer, 0, *unbound, 0, 64)), mux::Status::InvalidArgument);
}

INSTANTIATE_MUX_TEST(TransferTest);

} // namespace
} // namespace muxtest
