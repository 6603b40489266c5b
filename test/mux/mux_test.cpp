#include "mux_test.h"

#include "compiler/target.h"

#include <algorithm>
#include <cstring>

namespace muxtest {

const std::vector<DeviceParam> &allDevices() {
  static std::vector<std::unique_ptr<mux::Target>> targets = mux::createRegisteredTargets();
  static std::vector<DeviceParam> devices = [] {
    std::vector<DeviceParam> list;
    for (auto &target : targets) {
      size_t index = 0;
      for (mux::Device *device : target->devices())
        list.push_back({std::string(target->name()) + "_" + std::to_string(index++), device});
    }
    return list;
  }();
  return devices;
}

BoundBuffer MuxTest::makeBuffer(uint64_t size, uint32_t properties) {
  BoundBuffer result;
  auto buffer = device().createBuffer(size);
  if (!buffer) {
    ADD_FAILURE() << "createBuffer: " << llvm::toString(buffer.takeError());
    return result;
  }
  mux::MemoryRequirements requirements = (*buffer)->memoryRequirements();
  auto memory = device().allocateMemory(requirements.size, properties, requirements.alignment);
  if (!memory) {
    ADD_FAILURE() << "allocateMemory: " << llvm::toString(memory.takeError());
    return result;
  }
  if (llvm::Error error = (*buffer)->bind(**memory, 0)) {
    ADD_FAILURE() << "bind: " << llvm::toString(std::move(error));
    return result;
  }
  result.memory = std::move(*memory);
  result.buffer = std::move(*buffer);
  return result;
}

std::optional<CompiledKernel> MuxTest::compileKernel(const char *source, const char *name) {
  std::string log;
  auto built = device().compiler().build(source, "-cl-std=CL3.0", log);
  if (!built) {
    bool unsupported = false;
    std::string message;
    llvm::handleAllErrors(
        built.takeError(),
        [&](const mux::StatusError &error) {
          unsupported = error.status() == mux::Status::Unsupported;
          message = error.message();
        },
        [&](const llvm::ErrorInfoBase &error) { message = error.message(); });
    if (!unsupported)
      ADD_FAILURE() << "build of '" << name << "' failed: " << message << "\n" << log;
    return std::nullopt;
  }
  CompiledKernel compiled;
  auto binary = (*built)->binary();
  if (!binary) {
    ADD_FAILURE() << "binary: " << llvm::toString(binary.takeError());
    return std::nullopt;
  }
  compiled.binary = std::move(*binary);
  auto executable = device().createExecutable(compiled.binary);
  if (!executable) {
    ADD_FAILURE() << "createExecutable: " << llvm::toString(executable.takeError());
    return std::nullopt;
  }
  compiled.executable = std::move(*executable);
  auto kernel = compiled.executable->createKernel(name);
  if (!kernel) {
    ADD_FAILURE() << "createKernel(" << name << "): " << llvm::toString(kernel.takeError());
    return std::nullopt;
  }
  compiled.kernel = std::move(*kernel);
  return compiled;
}

std::unique_ptr<mux::CommandBuffer> MuxTest::makeCommandBuffer() {
  auto commandBuffer = device().createCommandBuffer();
  if (!commandBuffer) {
    ADD_FAILURE() << "createCommandBuffer: " << llvm::toString(commandBuffer.takeError());
    return nullptr;
  }
  return std::move(*commandBuffer);
}

mux::Status MuxTest::runAndWait(mux::CommandBuffer &commandBuffer) {
  if (llvm::Error error = commandBuffer.finalize()) {
    ADD_FAILURE() << "finalize: " << llvm::toString(std::move(error));
    return mux::Status::Failure;
  }
  auto fence = device().createFence();
  if (!fence) {
    ADD_FAILURE() << "createFence: " << llvm::toString(fence.takeError());
    return mux::Status::Failure;
  }
  if (llvm::Error error = device().queue().dispatch(commandBuffer, {}, {}, fence->get(), nullptr)) {
    ADD_FAILURE() << "dispatch: " << llvm::toString(std::move(error));
    return mux::Status::Failure;
  }
  return (*fence)->wait(kLongWait);
}

void MuxTest::upload(mux::Buffer &buffer, uint64_t offset, const std::vector<uint8_t> &bytes) {
  auto commandBuffer = makeCommandBuffer();
  ASSERT_TRUE(commandBuffer);
  recordWrite(*commandBuffer, buffer, offset, bytes.data(), bytes.size());
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
}

std::vector<uint8_t> MuxTest::download(mux::Buffer &buffer, uint64_t offset, uint64_t size) {
  std::vector<uint8_t> bytes(size, 0xEE);
  auto commandBuffer = makeCommandBuffer();
  if (!commandBuffer)
    return {};
  recordRead(*commandBuffer, buffer, offset, bytes.data(), size);
  if (HasFailure())
    return {};
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  finishReads();
  return bytes;
}

mux::Buffer *MuxTest::stagingBuffer(uint64_t size, const void *initial) {
  BoundBuffer bound = makeBuffer(std::max<uint64_t>(size, 1));
  if (!bound.buffer)
    return nullptr;
  if (initial) {
    auto pointer = bound.memory->map(0, size);
    if (!pointer) {
      ADD_FAILURE() << "map: " << llvm::toString(pointer.takeError());
      return nullptr;
    }
    std::memcpy(*pointer, initial, size);
    bound.memory->flushToDevice(0, size);
    bound.memory->unmap();
  }
  staging_.push_back(std::move(bound));
  return staging_.back().buffer.get();
}

void MuxTest::recordWrite(mux::CommandBuffer &commandBuffer, mux::Buffer &dst, uint64_t offset, const void *src,
                          uint64_t size) {
  if (!staged()) {
    MUX_ASSERT_OK(commandBuffer.writeBuffer(dst, offset, src, size));
    return;
  }
  mux::Buffer *staging = stagingBuffer(size, src);
  ASSERT_TRUE(staging);
  MUX_ASSERT_OK(commandBuffer.copyBuffer(*staging, 0, dst, offset, size));
}

void MuxTest::recordRead(mux::CommandBuffer &commandBuffer, mux::Buffer &src, uint64_t offset, void *dst,
                         uint64_t size) {
  if (!staged()) {
    MUX_ASSERT_OK(commandBuffer.readBuffer(src, offset, dst, size));
    return;
  }
  mux::Buffer *staging = stagingBuffer(size, nullptr);
  ASSERT_TRUE(staging);
  MUX_ASSERT_OK(commandBuffer.copyBuffer(src, offset, *staging, 0, size));
  stagedReads_.push_back({staging_.back().memory.get(), dst, size});
}

void MuxTest::recordWriteRect(mux::CommandBuffer &commandBuffer, mux::Buffer &dst, const void *host, uint64_t hostSize,
                              const mux::RectRegion &rect) {
  if (!staged()) {
    MUX_ASSERT_OK(commandBuffer.writeBufferRect(dst, host, rect));
    return;
  }
  mux::Buffer *staging = stagingBuffer(hostSize, host);
  ASSERT_TRUE(staging);
  MUX_ASSERT_OK(commandBuffer.copyBufferRect(*staging, dst, rect));
}

void MuxTest::recordReadRect(mux::CommandBuffer &commandBuffer, mux::Buffer &src, void *host, uint64_t hostSize,
                             const mux::RectRegion &rect) {
  if (!staged()) {
    MUX_ASSERT_OK(commandBuffer.readBufferRect(src, host, rect));
    return;
  }
  // Starts as the host region, so bytes outside the rect keep their values.
  mux::Buffer *staging = stagingBuffer(hostSize, host);
  ASSERT_TRUE(staging);
  MUX_ASSERT_OK(commandBuffer.copyBufferRect(src, *staging, rect));
  stagedReads_.push_back({staging_.back().memory.get(), host, hostSize});
}

void MuxTest::finishReads() {
  for (const StagedRead &read : stagedReads_) {
    read.staging->flushFromDevice(0, read.size);
    auto pointer = read.staging->map(0, read.size);
    if (!pointer) {
      ADD_FAILURE() << "map: " << llvm::toString(pointer.takeError());
      continue;
    }
    std::memcpy(read.dst, *pointer, read.size);
    read.staging->unmap();
  }
  stagedReads_.clear();
}

std::vector<uint8_t> patternBytes(size_t size, uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  uint32_t state = seed * 2654435761u + 12345u;
  for (uint8_t &byte : bytes) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<uint8_t>(state >> 24);
  }
  return bytes;
}

} // namespace muxtest
