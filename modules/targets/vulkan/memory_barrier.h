// One global memory barrier recorded into a command buffer: the commands
// before it in the given stages, with the given writes, against the
// commands after it in the given stages, with the given accesses.
#pragma once

#include <volk.h>

namespace vulkan_target {

inline void recordMemoryBarrier(VkCommandBuffer commands, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                                VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
  VkMemoryBarrier2 memoryBarrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  memoryBarrier.srcStageMask = srcStage;
  memoryBarrier.srcAccessMask = srcAccess;
  memoryBarrier.dstStageMask = dstStage;
  memoryBarrier.dstAccessMask = dstAccess;
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.memoryBarrierCount = 1;
  dependency.pMemoryBarriers = &memoryBarrier;
  vkCmdPipelineBarrier2(commands, &dependency);
}

} // namespace vulkan_target
