// The Vulkan commands of one segment of a command buffer, kept as bytes
// before they are recorded. Recording a VkCommandBuffer costs NVIDIA's
// driver about 2 µs for a single dispatch (measured on an H100, 2026-11-27),
// as much as a tenth of an empty kernel's round trip; an application that
// launches the same kernel with the same arguments again and again (a
// solver's loop, a benchmark) records the same commands each time. A
// command buffer compares its new tape with the one it recorded last and,
// when they are equal and no object they name was destroyed since, submits
// the VkCommandBuffer it recorded then (command_buffer.h).
//
// A tape names buffers, pipelines and query pools by their handles, so two
// equal tapes record the same commands as long as every handle still names
// the object it named: DeviceHandle::destroyedObjects() tells.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>
#include <volk.h>

namespace vulkan_target {

class CommandTape {
public:
  void barrier(VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
               VkAccessFlags2 dstAccess);
  void copyBuffer(VkBuffer src, VkBuffer dst, std::span<const VkBufferCopy> regions);
  void fillBuffer(VkBuffer dst, uint64_t offset, uint64_t size, uint32_t word);
  void updateBuffer(VkBuffer dst, uint64_t offset, std::span<const std::byte> data);
  void bindPipeline(VkPipeline pipeline);
  void pushConstants(VkPipelineLayout layout, std::span<const std::byte> data);
  void dispatch(uint32_t x, uint32_t y, uint32_t z);
  void resetQuery(VkQueryPool pool, uint32_t index);
  void writeTimestamp(VkQueryPool pool, uint32_t index);

  bool empty() const { return bytes_.empty(); }
  /// Forgets the commands; keeps the storage.
  void clear() { bytes_.clear(); }
  /// Records the commands into `commands` (begun, not ended).
  void replay(VkCommandBuffer commands) const;
  bool operator==(const CommandTape &other) const;

private:
  enum class Op : uint32_t {
    Barrier,
    CopyBuffer,
    FillBuffer,
    UpdateBuffer,
    BindPipeline,
    PushConstants,
    Dispatch,
    ResetQuery,
    WriteTimestamp
  };
  template <typename T> void put(const T &value);
  void putBytes(std::span<const std::byte> data);

  std::vector<std::byte> bytes_;
};

} // namespace vulkan_target
