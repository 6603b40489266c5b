#include "mux_test.h"

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
  MUX_ASSERT_OK(commandBuffer->writeBuffer(buffer, offset, bytes.data(), bytes.size()));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
}

std::vector<uint8_t> MuxTest::download(mux::Buffer &buffer, uint64_t offset, uint64_t size) {
  std::vector<uint8_t> bytes(size, 0xEE);
  auto commandBuffer = makeCommandBuffer();
  if (!commandBuffer)
    return {};
  if (llvm::Error error = commandBuffer->readBuffer(buffer, offset, bytes.data(), size)) {
    ADD_FAILURE() << "readBuffer: " << llvm::toString(std::move(error));
    return {};
  }
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  return bytes;
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
