// Memory only the device sees, moved through host-visible staging buffers
// with buffer-to-buffer copies: the path a discrete GPU needs, and what the
// OpenCL layer does for a device whose commands do not access host memory.
// Run with POLYMUX_DISCRETE_MEMORY=1, the host-memory targets allocate such
// memory too (ctest runs mux_tests both ways).
#include "mux_test.h"

#include <cstring>

using namespace muxtest;

namespace {

class DeviceLocalMemoryTest : public MuxTest {};

TEST_P(DeviceLocalMemoryTest, RoundTripThroughStagingBuffers) {
  constexpr uint64_t kSize = 64 * 1024 + 24;
  BoundBuffer upload = makeBuffer(kSize, mux::MemoryHostVisible);
  BoundBuffer local = makeBuffer(kSize, mux::MemoryDeviceLocal);
  BoundBuffer readback = makeBuffer(kSize, mux::MemoryHostVisible);
  ASSERT_TRUE(upload.memory && local.memory && readback.memory);
  ASSERT_TRUE(upload.memory->properties() & mux::MemoryHostVisible);
  ASSERT_TRUE(readback.memory->properties() & mux::MemoryHostVisible);

  const std::vector<uint8_t> bytes = patternBytes(kSize, 7);
  MUX_ASSERT_VALUE(in, upload.memory->map(0, kSize));
  std::memcpy(in, bytes.data(), kSize);
  upload.memory->flushToDevice(0, kSize);
  upload.memory->unmap();

  auto commandBuffer = makeCommandBuffer();
  ASSERT_TRUE(commandBuffer);
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*upload.buffer, 0, *local.buffer, 0, kSize));
  // Rewrites a middle part on the device, so the copy back is not a no-op.
  const uint8_t pattern[4] = {0xde, 0xad, 0xbe, 0xef};
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*local.buffer, 4096, 256, pattern, sizeof(pattern)));
  MUX_ASSERT_OK(commandBuffer->copyBuffer(*local.buffer, 0, *readback.buffer, 0, kSize));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);

  std::vector<uint8_t> expected = bytes;
  for (size_t i = 0; i < 256; ++i)
    expected[4096 + i] = pattern[i % 4];
  readback.memory->flushFromDevice(0, kSize);
  MUX_ASSERT_VALUE(out, readback.memory->map(0, kSize));
  std::vector<uint8_t> result(static_cast<uint8_t *>(out), static_cast<uint8_t *>(out) + kSize);
  readback.memory->unmap();
  EXPECT_EQ(result, expected);
}

TEST_P(DeviceLocalMemoryTest, MemoryTheHostCannotSeeRefusesToMap) {
  BoundBuffer local = makeBuffer(4096, mux::MemoryDeviceLocal);
  ASSERT_TRUE(local.memory);
  if (local.memory->properties() & mux::MemoryHostVisible)
    GTEST_SKIP() << "this device's device-local memory is host-visible too";
  auto view = local.memory->map(0, 4096);
  EXPECT_FALSE(static_cast<bool>(view)) << "mapped memory that is not host-visible";
  if (!view)
    llvm::consumeError(view.takeError());
}

TEST_P(DeviceLocalMemoryTest, HostPointerCommandsRefusedWhereCommandsCannotReachTheHost) {
  if (info().commandsAccessHostMemory)
    GTEST_SKIP() << "this device's commands access host memory";
  BoundBuffer local = makeBuffer(256, mux::MemoryDeviceLocal);
  ASSERT_TRUE(local.buffer);
  auto commandBuffer = makeCommandBuffer();
  ASSERT_TRUE(commandBuffer);
  std::vector<uint8_t> host(256);
  // Refused when recorded, not silently dropped when run.
  EXPECT_EQ(statusOf(commandBuffer->readBuffer(*local.buffer, 0, host.data(), host.size())),
            mux::Status::Unsupported);
  EXPECT_EQ(statusOf(commandBuffer->writeBuffer(*local.buffer, 0, host.data(), host.size())),
            mux::Status::Unsupported);
}

} // namespace

INSTANTIATE_MUX_TEST(DeviceLocalMemoryTest);
