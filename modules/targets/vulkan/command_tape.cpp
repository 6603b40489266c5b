#include "command_tape.h"

#include "memory_barrier.h"

#include <cstring>
#include <type_traits>

namespace vulkan_target {
namespace {

/// Reads the tape back in the order it was written.
class TapeReader {
public:
  explicit TapeReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  template <typename T> T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  /// A length-prefixed run of bytes, as CommandTape::putBytes wrote it.
  std::span<const std::byte> bytes() {
    const auto size = get<uint64_t>();
    std::span<const std::byte> data = bytes_.subspan(at_, size);
    at_ += size;
    return data;
  }

private:
  std::span<const std::byte> bytes_;
  size_t at_ = 0;
};

} // namespace

template <typename T> void CommandTape::put(const T &value) {
  static_assert(std::is_trivially_copyable_v<T>);
  const size_t at = bytes_.size();
  bytes_.resize(at + sizeof(T));
  std::memcpy(bytes_.data() + at, &value, sizeof(T));
}

void CommandTape::putBytes(std::span<const std::byte> data) {
  put<uint64_t>(data.size());
  const size_t at = bytes_.size();
  bytes_.resize(at + data.size());
  if (!data.empty())
    std::memcpy(bytes_.data() + at, data.data(), data.size());
}

bool CommandTape::operator==(const CommandTape &other) const {
  return bytes_.size() == other.bytes_.size() &&
         (bytes_.empty() || std::memcmp(bytes_.data(), other.bytes_.data(), bytes_.size()) == 0);
}

void CommandTape::barrier(VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                          VkAccessFlags2 dstAccess) {
  put(Op::Barrier);
  put(srcStage);
  put(srcAccess);
  put(dstStage);
  put(dstAccess);
}

void CommandTape::copyBuffer(VkBuffer src, VkBuffer dst, std::span<const VkBufferCopy> regions) {
  put(Op::CopyBuffer);
  put(src);
  put(dst);
  putBytes(std::as_bytes(regions));
}

void CommandTape::fillBuffer(VkBuffer dst, uint64_t offset, uint64_t size, uint32_t word) {
  put(Op::FillBuffer);
  put(dst);
  put(offset);
  put(size);
  put(word);
}

void CommandTape::updateBuffer(VkBuffer dst, uint64_t offset, std::span<const std::byte> data) {
  put(Op::UpdateBuffer);
  put(dst);
  put(offset);
  putBytes(data);
}

void CommandTape::bindPipeline(VkPipeline pipeline) {
  put(Op::BindPipeline);
  put(pipeline);
}

void CommandTape::pushConstants(VkPipelineLayout layout, std::span<const std::byte> data) {
  put(Op::PushConstants);
  put(layout);
  putBytes(data);
}

void CommandTape::dispatch(uint32_t x, uint32_t y, uint32_t z) {
  put(Op::Dispatch);
  put(x);
  put(y);
  put(z);
}

void CommandTape::resetQuery(VkQueryPool pool, uint32_t index) {
  put(Op::ResetQuery);
  put(pool);
  put(index);
}

void CommandTape::writeTimestamp(VkQueryPool pool, uint32_t index) {
  put(Op::WriteTimestamp);
  put(pool);
  put(index);
}

void CommandTape::replay(VkCommandBuffer commands) const {
  TapeReader tape(bytes_);
  while (!tape.done()) {
    switch (tape.get<Op>()) {
    case Op::Barrier: {
      const auto srcStage = tape.get<VkPipelineStageFlags2>();
      const auto srcAccess = tape.get<VkAccessFlags2>();
      const auto dstStage = tape.get<VkPipelineStageFlags2>();
      const auto dstAccess = tape.get<VkAccessFlags2>();
      recordMemoryBarrier(commands, srcStage, srcAccess, dstStage, dstAccess);
      break;
    }
    case Op::CopyBuffer: {
      const auto src = tape.get<VkBuffer>();
      const auto dst = tape.get<VkBuffer>();
      std::span<const std::byte> regions = tape.bytes();
      // The bytes of VkBufferCopy values, not necessarily aligned for them.
      std::vector<VkBufferCopy> copies(regions.size() / sizeof(VkBufferCopy));
      std::memcpy(copies.data(), regions.data(), regions.size());
      vkCmdCopyBuffer(commands, src, dst, static_cast<uint32_t>(copies.size()), copies.data());
      break;
    }
    case Op::FillBuffer: {
      const auto dst = tape.get<VkBuffer>();
      const auto offset = tape.get<uint64_t>();
      const auto size = tape.get<uint64_t>();
      vkCmdFillBuffer(commands, dst, offset, size, tape.get<uint32_t>());
      break;
    }
    case Op::UpdateBuffer: {
      const auto dst = tape.get<VkBuffer>();
      const auto offset = tape.get<uint64_t>();
      std::span<const std::byte> data = tape.bytes();
      vkCmdUpdateBuffer(commands, dst, offset, data.size(), data.data());
      break;
    }
    case Op::BindPipeline:
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, tape.get<VkPipeline>());
      break;
    case Op::PushConstants: {
      const auto layout = tape.get<VkPipelineLayout>();
      std::span<const std::byte> data = tape.bytes();
      vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(data.size()),
                         data.data());
      break;
    }
    case Op::Dispatch: {
      const auto x = tape.get<uint32_t>();
      const auto y = tape.get<uint32_t>();
      vkCmdDispatch(commands, x, y, tape.get<uint32_t>());
      break;
    }
    case Op::ResetQuery: {
      const auto pool = tape.get<VkQueryPool>();
      vkCmdResetQueryPool(commands, pool, tape.get<uint32_t>(), 1);
      break;
    }
    case Op::WriteTimestamp: {
      const auto pool = tape.get<VkQueryPool>();
      vkCmdWriteTimestamp2(commands, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, tape.get<uint32_t>());
      break;
    }
    }
  }
}

} // namespace vulkan_target
