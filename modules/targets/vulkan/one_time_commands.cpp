#include "one_time_commands.h"

#include "vulkan_result.h"

namespace vulkan_target {

llvm::Expected<std::unique_ptr<OneTimeCommands>> OneTimeCommands::begin(VkDevice device, uint32_t queueFamily) {
  std::unique_ptr<OneTimeCommands> run(new OneTimeCommands(device));
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.queueFamilyIndex = queueFamily;
  if (llvm::Error error = check(vkCreateCommandPool(device, &poolInfo, nullptr, &run->pool_), "vkCreateCommandPool"))
    return error;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (llvm::Error error = check(vkCreateFence(device, &fenceInfo, nullptr, &run->fence_), "vkCreateFence"))
    return error;
  VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocateInfo.commandPool = run->pool_;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  if (llvm::Error error =
          check(vkAllocateCommandBuffers(device, &allocateInfo, &run->commands_), "vkAllocateCommandBuffers"))
    return error;
  VkCommandBufferBeginInfo beginInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (llvm::Error error = check(vkBeginCommandBuffer(run->commands_, &beginInfo), "vkBeginCommandBuffer"))
    return error;
  return run;
}

OneTimeCommands::~OneTimeCommands() {
  if (fence_ != VK_NULL_HANDLE)
    vkDestroyFence(device_, fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE)
    vkDestroyCommandPool(device_, pool_, nullptr); // frees commands_
}

llvm::Error OneTimeCommands::end() { return check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer"); }

llvm::Error OneTimeCommands::submit(VkQueue queue) {
  VkCommandBufferSubmitInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  commandInfo.commandBuffer = commands_;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &commandInfo;
  return check(vkQueueSubmit2(queue, 1, &submit, fence_), "vkQueueSubmit2");
}

llvm::Error OneTimeCommands::wait(uint64_t timeoutNs) {
  llvm::Error error = check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, timeoutNs), "vkWaitForFences");
  if (error) {
    pool_ = VK_NULL_HANDLE;
    fence_ = VK_NULL_HANDLE;
  }
  return error;
}

} // namespace vulkan_target
