// Memory allocation, mapping, wrapping and buffer binding.
#include "mux_test.h"

#include <cstring>
#include <numeric>

namespace muxtest {
namespace {

using MemoryTest = MuxTest;

TEST_P(MemoryTest, AllocateHonoursAlignmentAndSize) {
  for (uint64_t alignment : {0ull, 1ull, 128ull, 4096ull}) {
    MUX_ASSERT_VALUE(memory, device().allocateMemory(1000, mux::MemoryHostVisible, alignment));
    EXPECT_EQ(memory->size(), 1000u);
    EXPECT_TRUE(memory->properties() & mux::MemoryHostVisible);
    MUX_ASSERT_VALUE(pointer, memory->map(0, 1000));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(pointer) % std::max<uint64_t>(alignment, info().memBaseAddrAlign), 0u);
    memory->unmap();
  }
}

TEST_P(MemoryTest, AllocateRejectsBadRequests) {
  EXPECT_EQ(statusOf(device().allocateMemory(0, mux::MemoryHostVisible, 0)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().allocateMemory(64, mux::MemoryHostVisible, 3)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(device().allocateMemory(info().maxMemAllocSize + 1, mux::MemoryHostVisible, 0)),
            mux::Status::InvalidArgument);
}

TEST_P(MemoryTest, MapReturnsOffsetPointerAndChecksBounds) {
  MUX_ASSERT_VALUE(memory, device().allocateMemory(4096, mux::MemoryHostVisible, 0));
  MUX_ASSERT_VALUE(base, memory->map(0, 4096));
  MUX_ASSERT_VALUE(inner, memory->map(100, 200)); // mappings nest
  EXPECT_EQ(static_cast<char *>(inner), static_cast<char *>(base) + 100);
  std::memset(base, 0x5A, 4096);
  memory->flushToDevice(0, 4096);
  memory->flushFromDevice(0, 4096);
  EXPECT_EQ(static_cast<unsigned char *>(inner)[199], 0x5A);
  memory->unmap();
  memory->unmap();
  EXPECT_EQ(statusOf(memory->map(4000, 97)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(memory->map(4097, 0)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(memory->map(UINT64_MAX, 2)), mux::Status::InvalidArgument);
  MUX_ASSERT_VALUE(end, memory->map(4096, 0));
  EXPECT_EQ(static_cast<char *>(end), static_cast<char *>(base) + 4096);
  memory->unmap();
}

TEST_P(MemoryTest, MappedWritesAreSeenByCommands) {
  BoundBuffer bound = makeBuffer(256);
  ASSERT_TRUE(bound.buffer);
  MUX_ASSERT_VALUE(pointer, bound.memory->map(0, 256));
  std::vector<uint8_t> expected = patternBytes(256, 7);
  std::memcpy(pointer, expected.data(), 256);
  bound.memory->flushToDevice(0, 256);
  bound.memory->unmap();
  EXPECT_EQ(download(*bound.buffer, 0, 256), expected);
}

TEST_P(MemoryTest, WrappedHostMemoryIsZeroCopy) {
  alignas(4096) static uint8_t host[8192];
  std::memset(host, 0, sizeof(host));
  auto memory = device().wrapHostMemory(host, sizeof(host));
  if (!memory) {
    ASSERT_EQ(mux::takeStatus(memory.takeError()), mux::Status::Unsupported);
    GTEST_SKIP() << "device cannot address host memory";
  }
  MUX_ASSERT_VALUE(buffer, device().createBuffer(4096));
  MUX_ASSERT_OK(buffer->bind(**memory, 4096));
  EXPECT_EQ(buffer->boundMemory(), memory->get());
  EXPECT_EQ(buffer->boundOffset(), 4096u);
  uint32_t pattern = 0xA1B2C3D4;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->fillBuffer(*buffer, 16, 64, &pattern, sizeof(pattern)));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  (*memory)->flushFromDevice(0, sizeof(host));
  MUX_ASSERT_VALUE(mapped, (*memory)->map(4096, 4096));
  if (info().hostUnifiedMemory) {
    EXPECT_EQ(mapped, host + 4096);
  }
  for (int i = 0; i < 16; ++i) {
    uint32_t word;
    std::memcpy(&word, host + 4096 + 16 + 4 * i, 4);
    EXPECT_EQ(word, pattern) << i;
  }
  EXPECT_EQ(host[4096 + 15], 0);
  EXPECT_EQ(host[4096 + 80], 0);
  (*memory)->unmap();
}

// Shared virtual memory: on devices that offer it, the host address of the
// memory is the device address of a buffer bound to it, and wrapping it
// gives that address again; elsewhere the verb is Unsupported.
TEST_P(MemoryTest, SharedMemoryHasOneAddress) {
  auto shared = device().allocateSharedMemory(1000, 256);
  if (info().svmCapabilities == 0) {
    EXPECT_EQ(statusOf(std::move(shared)), mux::Status::Unsupported);
    return;
  }
  MUX_ASSERT_VALUE(memory, std::move(shared));
  MUX_ASSERT_VALUE(pointer, memory->map(0, 1000));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pointer) % 256, 0u);
  MUX_ASSERT_VALUE(buffer, device().createBuffer(1000));
  MUX_ASSERT_OK(buffer->bind(*memory, 0));
  EXPECT_EQ(buffer->deviceAddress(), reinterpret_cast<uint64_t>(pointer));
  MUX_ASSERT_VALUE(wrapped, device().wrapHostMemory(pointer, 1000));
  MUX_ASSERT_VALUE(view, device().createBuffer(1000));
  MUX_ASSERT_OK(view->bind(*wrapped, 0));
  EXPECT_EQ(view->deviceAddress(), reinterpret_cast<uint64_t>(pointer));
  view.reset();
  buffer.reset();
  memory->unmap();
}

TEST_P(MemoryTest, WrapRejectsNullOrEmpty) {
  char byte = 0;
  EXPECT_EQ(statusOf(device().wrapHostMemory(nullptr, 64)), mux::Status::InvalidArgument);
  mux::Status empty = statusOf(device().wrapHostMemory(&byte, 0));
  EXPECT_TRUE(empty == mux::Status::InvalidArgument || empty == mux::Status::Unsupported);
}

TEST_P(MemoryTest, BufferReportsRequirements) {
  MUX_ASSERT_VALUE(buffer, device().createBuffer(1000));
  EXPECT_EQ(buffer->size(), 1000u);
  mux::MemoryRequirements requirements = buffer->memoryRequirements();
  EXPECT_GE(requirements.size, 1000u);
  EXPECT_TRUE(std::has_single_bit(requirements.alignment));
  EXPECT_NE(requirements.supportedProperties, 0u);
  EXPECT_EQ(buffer->boundMemory(), nullptr);
  EXPECT_EQ(statusOf(device().createBuffer(0)), mux::Status::InvalidArgument);
}

TEST_P(MemoryTest, BindChecksBoundsAlignmentAndRebinding) {
  MUX_ASSERT_VALUE(buffer, device().createBuffer(1024));
  uint64_t alignment = buffer->memoryRequirements().alignment;
  MUX_ASSERT_VALUE(memory, device().allocateMemory(4096, mux::MemoryHostVisible, alignment));
  // Too big for the memory at this offset.
  EXPECT_EQ(statusOf(buffer->bind(*memory, 4096 - 1024 + alignment)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(buffer->bind(*memory, UINT64_MAX - alignment + 1)), mux::Status::InvalidArgument);
  if (alignment > 1) {
    EXPECT_EQ(statusOf(buffer->bind(*memory, alignment / 2)), mux::Status::InvalidArgument);
  }
  EXPECT_EQ(buffer->boundMemory(), nullptr);
  MUX_ASSERT_OK(buffer->bind(*memory, 4096 - 1024));
  EXPECT_EQ(buffer->boundMemory(), memory.get());
  EXPECT_EQ(buffer->boundOffset(), 4096u - 1024);
  EXPECT_EQ(statusOf(buffer->bind(*memory, 0)), mux::Status::InvalidArgument);
}

TEST_P(MemoryTest, BuffersShareOneAllocation) {
  MUX_ASSERT_VALUE(memory, device().allocateMemory(8192, mux::MemoryHostVisible, 0));
  MUX_ASSERT_VALUE(first, device().createBuffer(4096));
  MUX_ASSERT_VALUE(second, device().createBuffer(4096));
  MUX_ASSERT_OK(first->bind(*memory, 0));
  MUX_ASSERT_OK(second->bind(*memory, 4096));
  upload(*first, 0, std::vector<uint8_t>(4096, 0));
  std::vector<uint8_t> bytes = patternBytes(4096, 3);
  upload(*second, 0, bytes);
  MUX_ASSERT_VALUE(pointer, memory->map(4096, 4096));
  EXPECT_EQ(std::memcmp(pointer, bytes.data(), 4096), 0);
  memory->unmap();
  // Writing the second buffer left the first one alone.
  EXPECT_EQ(download(*first, 0, 4096), std::vector<uint8_t>(4096, 0));
}

INSTANTIATE_MUX_TEST(MemoryTest);

} // namespace
} // namespace muxtest
