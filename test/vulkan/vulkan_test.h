// The vulkan runtime tests run on every vulkan device the registered
// targets found (none: every test is absent), with the HAL test fixture's
// helpers (test/mux/mux_test.h) plus host access to buffers through their
// mapping.
#pragma once

#include "mux_test.h"

#include <cstring>
#include <vector>

namespace vulkantest {

using muxtest::bufferArg;
using muxtest::localArg;
using muxtest::statusOf;
using muxtest::valueArg;

/// A bound buffer whose memory the test maps (null `data` for memory the
/// host cannot see).
struct HostBuffer : muxtest::BoundBuffer {
  std::byte *data = nullptr;

  template <typename T> std::vector<T> read(size_t count, size_t offset = 0) {
    memory->flushFromDevice(0, memory->size());
    std::vector<T> values(count);
    std::memcpy(values.data(), data + offset, count * sizeof(T));
    return values;
  }
  template <typename T> void write(const std::vector<T> &values, size_t offset = 0) {
    std::memcpy(data + offset, values.data(), values.size() * sizeof(T));
    memory->flushToDevice(0, memory->size());
  }
};

class VulkanTest : public muxtest::MuxTest {
protected:
  /// A bound buffer, mapped when `properties` include HostVisible.
  HostBuffer makeHostBuffer(uint64_t size, uint32_t properties = mux::MemoryHostVisible);
};

/// The vulkan devices among every registered target's.
std::vector<muxtest::DeviceParam> vulkanDevices();

} // namespace vulkantest

#define INSTANTIATE_VULKAN_TEST(Suite)                                                                                 \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Suite);                                                                \
  INSTANTIATE_TEST_SUITE_P(Vulkan, Suite, ::testing::ValuesIn(::vulkantest::vulkanDevices()),                          \
                           [](const auto &param) { return param.param.name; })
