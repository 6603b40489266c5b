#include "queue.h"

#include "command_buffer.h"
#include "device_clock.h"
#include "sync.h"
#include "vulkan_result.h"

#include "mux/support/log.h"

#include <algorithm>

namespace vulkan_target {
namespace {

/// How long the completion thread waits on a fence before it looks at the
/// queue's state again (shutdown); not a limit on how long work may run.
constexpr uint64_t kFencePollNs = 100'000'000;

} // namespace

Queue::Queue(SharedDevice device, VkQueue queue, std::string deviceName, DeviceClock &clock,
             std::chrono::microseconds spinBeforeBlocking)
    : shared_(std::move(device)), device_(shared_->get()), queue_(queue), deviceName_(std::move(deviceName)),
      clock_(clock), spinBeforeBlocking_(spinBeforeBlocking) {
  completionThread_ = std::thread([this] { completionLoop(); });
}

Queue::~Queue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  workArrived_.notify_all();
  completionThread_.join();
  for (const auto &dispatch : held_)
    dispatch->commandBuffer->setExecuting(false);
  held_.clear();
  if (shared_->abandoned())
    return;
  vkQueueWaitIdle(queue_);
  for (VkFence fence : freeFences_)
    vkDestroyFence(device_, fence, nullptr);
}

bool Queue::deviceLost() const {
  std::lock_guard lock(mutex_);
  return lost_;
}

llvm::Error Queue::dispatch(mux::CommandBuffer &commandBuffer, std::span<mux::Semaphore *const> waits,
                            std::span<mux::Semaphore *const> signals, mux::Fence *fence,
                            mux::CompletionCallback onComplete) {
  auto *vulkanCommandBuffer = dynamic_cast<CommandBuffer *>(&commandBuffer);
  if (!vulkanCommandBuffer || vulkanCommandBuffer->vkDevice() != device_)
    return mux::makeError(mux::Status::InvalidArgument, "command buffer of another device");
  if (!vulkanCommandBuffer->finalized())
    return mux::makeError(mux::Status::InvalidArgument, "dispatch of a command buffer that is not finalized");
  auto dispatch = std::make_shared<Dispatch>();
  dispatch->commandBuffer = vulkanCommandBuffer;
  for (auto [list, out] : {std::pair{waits, &dispatch->waits}, std::pair{signals, &dispatch->signals}}) {
    for (mux::Semaphore *semaphore : list) {
      auto *vulkanSemaphore = dynamic_cast<Semaphore *>(semaphore);
      if (!vulkanSemaphore || vulkanSemaphore->vkDevice() != device_)
        return mux::makeError(mux::Status::InvalidArgument,
                              semaphore ? "semaphore of another device" : "null semaphore in a dispatch");
      out->push_back(vulkanSemaphore);
    }
  }
  if (fence) {
    dispatch->fence = dynamic_cast<mux::support::CpuFence *>(fence);
    if (!dispatch->fence)
      return mux::makeError(mux::Status::InvalidArgument, "fence of another device");
  } else {
    dispatch->fence = nullptr;
  }
  dispatch->onComplete = std::move(onComplete);
  std::lock_guard lock(mutex_);
  ++outstanding_;
  held_.push_back(std::move(dispatch));
  submitReady();
  return llvm::Error::success();
}

bool Queue::waitsSubmitted(const Dispatch &dispatch) const {
  for (Semaphore *semaphore : dispatch.waits)
    if (!semaphore->signalSubmitted())
      return false;
  return true;
}

void Queue::submitReady() {
  // Submitting a dispatch submits its signals, which may free others:
  // repeat until nothing moves.
  for (bool progress = true; progress;) {
    progress = false;
    for (auto it = held_.begin(); it != held_.end();) {
      Dispatch &dispatch = **it;
      // A command buffer runs one dispatch at a time: its launches' printf
      // buffers and the like are per command buffer.
      if (!waitsSubmitted(dispatch) || dispatch.commandBuffer->executing()) {
        ++it;
        continue;
      }
      std::shared_ptr<Dispatch> ready = std::move(*it);
      it = held_.erase(it);
      ready->commandBuffer->setExecuting(true);
      submitSegment(ready);
      progress = true;
    }
  }
}

VkFence Queue::takeFence() {
  if (!freeFences_.empty()) {
    VkFence fence = freeFences_.back();
    freeFences_.pop_back();
    return fence;
  }
  VkFenceCreateInfo createInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  if (vkCreateFence(device_, &createInfo, nullptr, &fence) != VK_SUCCESS)
    return VK_NULL_HANDLE;
  return fence;
}

void Queue::submitSegment(const std::shared_ptr<Dispatch> &dispatch) {
  const size_t segment = dispatch->nextSegment++;
  const bool first = segment == 0;
  const bool last = dispatch->nextSegment == dispatch->commandBuffer->segmentCount();
  VkResult result = lost_ ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
  VkFence fence = VK_NULL_HANDLE;
  TimestampWindow window;
  uint64_t sequence = 0;
  if (result == VK_SUCCESS) {
    fence = takeFence();
    if (fence == VK_NULL_HANDLE)
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (result == VK_SUCCESS) {
    std::vector<VkSemaphoreSubmitInfo> waitInfos, signalInfos;
    if (first)
      for (Semaphore *semaphore : dispatch->waits) {
        VkSemaphoreSubmitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        info.semaphore = semaphore->handle();
        info.value = semaphore->signalValue();
        info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        waitInfos.push_back(info);
      }
    std::vector<uint64_t> signalValues;
    if (last)
      for (Semaphore *semaphore : dispatch->signals) {
        VkSemaphoreSubmitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        info.semaphore = semaphore->handle();
        info.value = semaphore->signalValue() + 1;
        info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        signalInfos.push_back(info);
      }
    VkCommandBufferSubmitInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    commandInfo.commandBuffer = dispatch->commandBuffer->segmentCommands(segment);
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = static_cast<uint32_t>(waitInfos.size());
    submit.pWaitSemaphoreInfos = waitInfos.data();
    submit.commandBufferInfoCount = commandInfo.commandBuffer != VK_NULL_HANDLE ? 1 : 0;
    submit.pCommandBufferInfos = &commandInfo;
    submit.signalSemaphoreInfoCount = static_cast<uint32_t>(signalInfos.size());
    submit.pSignalSemaphoreInfos = signalInfos.data();
    std::span<const TimestampSlot> timestamps = dispatch->commandBuffer->segmentTimestamps(segment);
    for (const TimestampSlot &slot : timestamps)
      slot.pool->setResult(slot.index, 0); // rewritten by this submission
    if (!timestamps.empty())
      window = clock_.open();
    result = vkQueueSubmit2(queue_, 1, &submit, fence);
    if (result == VK_SUCCESS)
      sequence = shared_->retiredSemaphores().submitted();
    if (result == VK_SUCCESS && last)
      for (Semaphore *semaphore : dispatch->signals) {
        semaphore->nextSignalValue();
        semaphore->markSignalSubmitted();
      }
  }
  if (result == VK_ERROR_DEVICE_LOST && !lost_) {
    lost_ = true;
    mux::support::log(mux::support::LogLevel::Error, "vulkan", "device '" + deviceName_ + "' was lost");
  }
  if (result != VK_SUCCESS) {
    if (fence != VK_NULL_HANDLE)
      freeFences_.push_back(fence);
    // The segment never ran. Its signals are marked submitted all the same
    // so that dependants are not stuck; they fail too if the device is lost.
    if (last)
      for (Semaphore *semaphore : dispatch->signals)
        semaphore->markSignalSubmitted();
    inFlight_.push_back({dispatch, segment, VK_NULL_HANDLE, {}});
    dispatch->outcome =
        mux::Outcome(statusOf(result), "submission to device '" + deviceName_ + "' failed: " + resultName(result));
  } else {
    inFlight_.push_back({dispatch, segment, fence, window, sequence});
  }
  workArrived_.notify_all();
}

void Queue::completionLoop() {
  std::unique_lock lock(mutex_);
  std::chrono::steady_clock::time_point stopRequested;
  bool stopSeen = false;
  for (;;) {
    if (stopping_ && !stopSeen) {
      stopSeen = true;
      stopRequested = std::chrono::steady_clock::now();
    }
    if (stopSeen && !inFlight_.empty() && std::chrono::steady_clock::now() - stopRequested > kShutdownGrace) {
      mux::support::log(mux::support::LogLevel::Error, "vulkan",
                        "device '" + deviceName_ + "': work still running " + std::to_string(kShutdownGrace.count()) +
                            " s after its queue was destroyed; the device is abandoned (its memory is not freed)");
      shared_->abandon();
      return;
    }
    if (inFlight_.empty()) {
      if (!shared_->retiredSemaphores().empty()) {
        // Nothing in flight: once the driver's queue is idle too, nothing
        // refers to a released semaphore any more. Under mutex_, which
        // every use of queue_ holds.
        vkQueueWaitIdle(queue_);
        shared_->retiredSemaphores().releaseAll();
      }
      if (stopping_) {
        // Held dispatches whose waits are met were submitted already; the
        // rest wait on semaphores nobody will signal any more.
        return;
      }
      workArrived_.wait(lock);
      continue;
    }
    Submission submission = inFlight_.front();
    VkResult result = VK_SUCCESS;
    if (submission.fence != VK_NULL_HANDLE) {
      lock.unlock();
      result = VK_NOT_READY;
      for (auto spinUntil = std::chrono::steady_clock::now() + spinBeforeBlocking_;
           result == VK_NOT_READY && std::chrono::steady_clock::now() < spinUntil;)
        result = vkGetFenceStatus(device_, submission.fence);
      if (result == VK_NOT_READY)
        result = vkWaitForFences(device_, 1, &submission.fence, VK_TRUE, kFencePollNs);
      lock.lock();
      if (result == VK_TIMEOUT)
        continue;
      vkResetFences(device_, 1, &submission.fence);
      freeFences_.push_back(submission.fence);
      if (result == VK_SUCCESS)
        shared_->retiredSemaphores().completed(submission.sequence);
      if (result == VK_ERROR_DEVICE_LOST && !lost_) {
        lost_ = true;
        mux::support::log(mux::support::LogLevel::Error, "vulkan", "device '" + deviceName_ + "' was lost");
      }
    }
    inFlight_.pop_front();
    ++completing_;
    lock.unlock();
    segmentCompleted(std::move(submission), result);
    lock.lock();
    --completing_;
  }
}

void Queue::segmentCompleted(Submission submission, VkResult result) {
  Dispatch &dispatch = *submission.dispatch;
  if (result != VK_SUCCESS && dispatch.outcome.status == mux::Status::Success) {
    std::span<const std::string> kernels = dispatch.commandBuffer->segmentKernels(submission.segment);
    if (result == VK_ERROR_DEVICE_LOST && submission.fence != VK_NULL_HANDLE && !kernels.empty()) {
      // The device was lost while this segment ran: its kernels are the
      // suspects (a wild address faults NVIDIA's GPUs so).
      std::vector<std::string> unique;
      for (const std::string &name : kernels)
        if (std::find(unique.begin(), unique.end(), name) == unique.end())
          unique.push_back(name);
      std::string names;
      for (const std::string &name : unique)
        names += (names.empty() ? "'" : ", '") + name + "'";
      dispatch.outcome =
          mux::Outcome(statusOf(result), (unique.size() == 1 ? "kernel " : "one of the kernels ") + names +
                                             " faulted on device '" + deviceName_ + "': the device was lost (" +
                                             resultName(result) + "), e.g. by an access outside every buffer");
    } else {
      dispatch.outcome =
          mux::Outcome(statusOf(result), "work on device '" + deviceName_ + "' failed: " + resultName(result));
    }
  }
  std::span<const TimestampSlot> timestamps = dispatch.commandBuffer->segmentTimestamps(submission.segment);
  if (!timestamps.empty() && submission.fence != VK_NULL_HANDLE && result == VK_SUCCESS) {
    clock_.close(submission.window);
    clock_.resolve(timestamps, submission.window);
  }
  dispatch.commandBuffer->completeSegment(submission.segment, dispatch.outcome);
  std::lock_guard lock(mutex_);
  if (dispatch.nextSegment < dispatch.commandBuffer->segmentCount()) {
    submitSegment(submission.dispatch);
    return;
  }
  finishDispatch(submission.dispatch);
}

void Queue::finishDispatch(const std::shared_ptr<Dispatch> &dispatch) {
  // Caller holds mutex_; the callbacks below must not run under it.
  dispatch->commandBuffer->setExecuting(false);
  mux::Outcome outcome = dispatch->outcome;
  mutex_.unlock();
  if (dispatch->fence)
    dispatch->fence->signal(outcome.status);
  if (dispatch->onComplete)
    dispatch->onComplete(outcome);
  mutex_.lock();
  --outstanding_;
  submitReady();
  dispatchFinished_.notify_all();
}

void Queue::waitAll() {
  std::unique_lock lock(mutex_);
  dispatchFinished_.wait(lock, [&] { return outstanding_ == 0; });
}

} // namespace vulkan_target
