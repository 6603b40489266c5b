// The vulkan runtime tests run on every vulkan device the registered
// targets found (none: every test is absent), with the HAL test fixture's
// helpers (test/mux/mux_test.h) plus host access to buffers through their
// mapping.
#pragma once

#include "mux_test.h"

#include <cstring>
#include <memory>
#include <optional>
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

/// An OpenCL C kernel built by the device's own compiler and loaded.
struct CompiledKernel {
  std::vector<std::byte> binary;
  std::unique_ptr<mux::Executable> executable;
  std::unique_ptr<mux::Kernel> kernel;
};

class VulkanTest : public muxtest::MuxTest {
protected:
  /// A bound buffer, mapped when `properties` include HostVisible.
  HostBuffer makeHostBuffer(uint64_t size, uint32_t properties = mux::MemoryHostVisible);
  /// Builds `source` (OpenCL C 3.0) with the device's compiler and loads its
  /// kernel `name`. Nothing when it cannot: a failed test, or, without a
  /// failure, a build with no compiler (the stand-alone runtime's).
  std::optional<CompiledKernel> compileKernel(const char *source, const char *name);
};

/// The vulkan devices among every registered target's.
std::vector<muxtest::DeviceParam> vulkanDevices();

} // namespace vulkantest

#define INSTANTIATE_VULKAN_TEST(Suite)                                                                                 \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Suite);                                                                \
  INSTANTIATE_TEST_SUITE_P(Vulkan, Suite, ::testing::ValuesIn(::vulkantest::vulkanDevices()),                          \
                           [](const auto &param) { return param.param.name; })
