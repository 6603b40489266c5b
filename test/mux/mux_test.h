// The fixture every HAL test uses: parameterised over every device of every
// registered target, plus small helpers for buffers and dispatches.
#pragma once

#include "mux/mux.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace muxtest {

struct DeviceParam {
  std::string name; ///< "<target>_<index>", a valid gtest name
  mux::Device *device;
};

inline void PrintTo(const DeviceParam &param, std::ostream *os) { *os << param.name; }

/// Every device of every registered target (the targets live until exit).
const std::vector<DeviceParam> &allDevices();

/// Fails the test with the error's message when `error` is set.
#define MUX_ASSERT_OK(expr)                                                                                            \
  do {                                                                                                                 \
    if (llvm::Error muxTestError = (expr))                                                                             \
      FAIL() << #expr << ": " << llvm::toString(std::move(muxTestError));                                              \
  } while (0)

/// Unwraps an Expected or fails the test.
#define MUX_ASSERT_VALUE(var, expr)                                                                                    \
  auto var##OrError = (expr);                                                                                          \
  if (!var##OrError)                                                                                                   \
    FAIL() << #expr << ": " << llvm::toString(var##OrError.takeError());                                               \
  auto var = std::move(*var##OrError)

/// Builds `source` with the device's compiler into `var` (a
/// std::optional<CompiledKernel>, MuxTest::compileKernel), or ends the test:
/// skipped when this build has no compiler, failed when the build failed.
#define MUX_COMPILE_OR_SKIP(var, source, name)                                                                         \
  std::optional<::muxtest::CompiledKernel> var = compileKernel(source, name);                                          \
  if (!var) {                                                                                                          \
    if (!HasFailure())                                                                                                 \
      GTEST_SKIP() << "the device's compiler is unsupported";                                                          \
    return;                                                                                                            \
  }

/// The Status `error` carries (Success when none), consuming it.
inline mux::Status statusOf(llvm::Error error) { return mux::takeStatus(std::move(error)); }
template <typename T> mux::Status statusOf(llvm::Expected<T> value) {
  return value ? mux::Status::Success : mux::takeStatus(value.takeError());
}

/// A buffer bound at offset 0 of its own allocation.
struct BoundBuffer {
  std::unique_ptr<mux::Memory> memory;
  std::unique_ptr<mux::Buffer> buffer;
};

/// An OpenCL C kernel built by the device's own compiler and loaded.
struct CompiledKernel {
  std::vector<std::byte> binary;
  std::unique_ptr<mux::Executable> executable;
  std::unique_ptr<mux::Kernel> kernel;
};

class MuxTest : public ::testing::TestWithParam<DeviceParam> {
protected:
  mux::Device &device() { return *GetParam().device; }
  const mux::DeviceInfo &info() { return device().info(); }

  /// Creates and binds a buffer of `size` bytes in memory with `properties`
  /// (fatal failure on error).
  BoundBuffer makeBuffer(uint64_t size, uint32_t properties = mux::MemoryHostVisible);
  std::unique_ptr<mux::CommandBuffer> makeCommandBuffer();
  /// Builds `source` (OpenCL C 3.0) with the device's compiler and loads its
  /// kernel `name`. Nothing when it cannot: a failed test, or, without a
  /// failure, a build whose compiler is unsupported (MUX_COMPILE_OR_SKIP).
  std::optional<CompiledKernel> compileKernel(const char *source, const char *name);
  /// Finalizes `commandBuffer`, dispatches it with a fence and waits; returns
  /// the dispatch status.
  mux::Status runAndWait(mux::CommandBuffer &commandBuffer);
  /// Writes `bytes` into `buffer` at `offset` through a command buffer.
  void upload(mux::Buffer &buffer, uint64_t offset, const std::vector<uint8_t> &bytes);
  /// Reads `size` bytes of `buffer` at `offset` through a command buffer.
  std::vector<uint8_t> download(mux::Buffer &buffer, uint64_t offset, uint64_t size);

  // Host transfers inside a command buffer, on every device: where commands
  // access host memory (DeviceInfo::commandsAccessHostMemory) these are the
  // plain read/write commands; elsewhere they copy through host-visible
  // staging buffers, as the OpenCL layer does. The staging data of a write
  // is taken when it is recorded; a read lands in `dst` only once
  // finishReads() ran (call it after the command buffer, or in a callback
  // recorded after the read).
  void recordWrite(mux::CommandBuffer &commandBuffer, mux::Buffer &dst, uint64_t offset, const void *src,
                   uint64_t size);
  void recordRead(mux::CommandBuffer &commandBuffer, mux::Buffer &src, uint64_t offset, void *dst, uint64_t size);
  /// Rect forms: `hostSize` bytes of host region at `host`.
  void recordWriteRect(mux::CommandBuffer &commandBuffer, mux::Buffer &dst, const void *host, uint64_t hostSize,
                       const mux::RectRegion &rect);
  void recordReadRect(mux::CommandBuffer &commandBuffer, mux::Buffer &src, void *host, uint64_t hostSize,
                      const mux::RectRegion &rect);
  /// Copies staged read results to their host destinations.
  void finishReads();
  bool staged() { return !info().commandsAccessHostMemory; }

private:
  struct StagedRead {
    mux::Memory *staging;
    void *dst;
    uint64_t size;
  };
  /// A host-visible buffer holding `size` bytes of `initial` (may be null).
  mux::Buffer *stagingBuffer(uint64_t size, const void *initial);
  std::vector<BoundBuffer> staging_;
  std::vector<StagedRead> stagedReads_;
};

/// Kernel arguments.
inline mux::KernelArg bufferArg(mux::Buffer *buffer, uint64_t offset = 0) {
  mux::KernelArg arg;
  arg.kind = mux::KernelArg::Kind::Buffer;
  arg.buffer = buffer;
  arg.offset = offset;
  return arg;
}

template <typename T> mux::KernelArg valueArg(T value) {
  mux::KernelArg arg;
  arg.kind = mux::KernelArg::Kind::Value;
  arg.value.resize(sizeof(T));
  std::memcpy(arg.value.data(), &value, sizeof(T));
  return arg;
}

inline mux::KernelArg localArg(uint64_t size) {
  mux::KernelArg arg;
  arg.kind = mux::KernelArg::Kind::Local;
  arg.localSize = size;
  return arg;
}

/// Deterministic, position-dependent test bytes.
std::vector<uint8_t> patternBytes(size_t size, uint32_t seed);

constexpr auto kLongWait = std::chrono::seconds(30);

} // namespace muxtest

#define INSTANTIATE_MUX_TEST(Suite)                                                                                    \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, ::testing::ValuesIn(::muxtest::allDevices()),                               \
                           [](const auto &param) { return param.param.name; })
