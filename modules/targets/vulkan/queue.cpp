#include "queue.h"

#include "command_buffer.h"
#include "device_clock.h"
#include "process_exit.h"
#include "sync.h"
#include "vulkan_result.h"

#include "mux/support/log.h"

#include <algorithm>

namespace vulkan_target {
namespace {

/// How long the completion thread blocks (waitBehindProbe) before it looks
/// at the queue's state again (shutdown); not a limit on how long work may
/// run.
constexpr uint64_t kBlockingWaitNs = 100'000'000;

} // namespace

llvm::Expected<std::unique_ptr<Queue>> Queue::create(SharedDevice device, VkQueue queue, std::string deviceName,
                                                     DeviceClock &clock, std::chrono::microseconds spinBeforeBlocking,
                                                     mux::DeviceActivity &activity) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo createInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  createInfo.pNext = &type;
  VkSemaphore timeline = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateSemaphore(device->get(), &createInfo, nullptr, &timeline), "vkCreateSemaphore"))
    return error;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence probe = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateFence(device->get(), &fenceInfo, nullptr, &probe), "vkCreateFence")) {
    vkDestroySemaphore(device->get(), timeline, nullptr);
    return error;
  }
  return std::unique_ptr<Queue>(
      new Queue(std::move(device), queue, timeline, probe, std::move(deviceName), clock, spinBeforeBlocking, activity));
}

Queue::Queue(SharedDevice device, VkQueue queue, VkSemaphore timeline, VkFence probe, std::string deviceName,
             DeviceClock &clock, std::chrono::microseconds spinBeforeBlocking, mux::DeviceActivity &activity)
    : shared_(std::move(device)), device_(shared_->get()), queue_(queue), timeline_(timeline), probeFence_(probe),
      deviceName_(std::move(deviceName)), clock_(clock), spinBeforeBlocking_(spinBeforeBlocking), activity_(activity) {
  completionThread_ = std::thread([this] { completionLoop(); });
  watchWorkAtExit(this, [this](std::chrono::steady_clock::time_point deadline) { waitForSubmittedWork(deadline); });
}

void Queue::waitForSubmittedWork(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  // Held dispatches (waiting for semaphores) never reached the driver.
  while ((!inFlight_.empty() || completing_ > 0) && !lost_ && std::chrono::steady_clock::now() < deadline)
    dispatchFinished_.wait_for(lock, std::chrono::milliseconds(1));
}

Queue::~Queue() {
  forgetWorkAtExit(this);
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
  vkDestroySemaphore(device_, timeline_, nullptr);
  vkDestroyFence(device_, probeFence_, nullptr);
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

void Queue::reportLaunchesStarted(Dispatch &dispatch) {
  // The counters were zeroed when the command buffer's last dispatch
  // completed (finishDispatch) or when it was recorded.
  const CommandBuffer *commandBuffer = dispatch.commandBuffer;
  dispatch.progressToken = activity_.launchStarted(commandBuffer->progressWorkItems(),
                                                   [commandBuffer] { return commandBuffer->finishedWorkItems(); });
}

void Queue::submitSegment(const std::shared_ptr<Dispatch> &dispatch) {
  const size_t segment = dispatch->nextSegment++;
  const bool first = segment == 0;
  const bool last = dispatch->nextSegment == dispatch->commandBuffer->segmentCount();
  if (first && !dispatch->reportedBusy) {
    dispatch->reportedBusy = true;
    for (size_t index = 0; index < dispatch->commandBuffer->segmentCount(); ++index)
      if (!dispatch->commandBuffer->segmentKernels(index).empty())
        dispatch->work = mux::DeviceActivity::Work::Kernel;
    activity_.begin(dispatch->work, mux::DeviceActivity::steadyNs());
    if (dispatch->work == mux::DeviceActivity::Work::Kernel)
      reportLaunchesStarted(*dispatch);
  }
  VkResult result = lost_ ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
  TimestampWindow window;
  uint64_t value = 0;
  if (result == VK_SUCCESS) {
    // The mux semaphores as values of the queue timeline: one wait for
    // the latest value waited for (for a later segment, the segment before
    // it), one signal for all of the dispatch's.
    uint64_t waitValue = dispatch->previousSegmentValue;
    if (first)
      for (Semaphore *semaphore : dispatch->waits)
        waitValue = std::max(waitValue, semaphore->timelineValue());
    VkSemaphoreSubmitInfo waitInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    waitInfo.semaphore = timeline_;
    waitInfo.value = waitValue;
    waitInfo.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    // Every submission sets the next value: its completion, which the
    // completion thread waits for (no VkFence per submission in flight to
    // create, reset and keep), and its mux signals.
    VkSemaphoreSubmitInfo signalInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signalInfo.semaphore = timeline_;
    signalInfo.value = timelineValue_ + 1;
    signalInfo.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    commandInfo.commandBuffer = dispatch->commandBuffer->segmentCommands(segment);
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = waitValue > 0 ? 1 : 0;
    submit.pWaitSemaphoreInfos = &waitInfo;
    submit.commandBufferInfoCount = commandInfo.commandBuffer != VK_NULL_HANDLE ? 1 : 0;
    submit.pCommandBufferInfos = &commandInfo;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signalInfo;
    std::span<const TimestampSlot> timestamps = dispatch->commandBuffer->segmentTimestamps(segment);
    for (const TimestampSlot &slot : timestamps)
      slot.pool->setResult(slot.index, 0); // rewritten by this submission
    if (!timestamps.empty())
      window = clock_.open();
    result = vkQueueSubmit2(queue_, 1, &submit, VK_NULL_HANDLE);
    if (result == VK_SUCCESS) {
      value = ++timelineValue_;
      dispatch->previousSegmentValue = value;
      if (last)
        for (Semaphore *semaphore : dispatch->signals)
          semaphore->markSignalSubmitted(value);
    }
  }
  if (result == VK_ERROR_DEVICE_LOST && !lost_) {
    lost_ = true;
    mux::support::log(mux::support::LogLevel::Error, "vulkan", "device '" + deviceName_ + "' was lost");
  }
  if (result != VK_SUCCESS) {
    // The segment never ran. Its signals are marked submitted all the same,
    // with no value to wait for, so that dependants are not stuck; they fail
    // too if the device is lost.
    if (last)
      for (Semaphore *semaphore : dispatch->signals)
        semaphore->markSignalSubmitted(0);
    inFlight_.push_back({dispatch, segment, 0, {}});
    dispatch->outcome =
        mux::Outcome(statusOf(result), "submission to device '" + deviceName_ + "' failed: " + resultName(result));
  } else {
    inFlight_.push_back({dispatch, segment, value, window});
  }
  workArrived_.notify_all();
}

VkResult Queue::waitBehindProbe(std::unique_lock<std::mutex> &lock, uint64_t value) {
  lock.lock();
  VkResult result = VK_SUCCESS;
  if (!probePending_) {
    VkSubmitInfo2 empty{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    result = vkQueueSubmit2(queue_, 1, &empty, probeFence_);
    probePending_ = result == VK_SUCCESS;
  }
  lock.unlock();
  if (result != VK_SUCCESS)
    return result; // VK_ERROR_DEVICE_LOST: a lost device refuses submissions
  result = vkWaitForFences(device_, 1, &probeFence_, VK_TRUE, kBlockingWaitNs);
  if (result != VK_SUCCESS)
    return result; // VK_TIMEOUT, or VK_ERROR_DEVICE_LOST
  lock.lock();
  vkResetFences(device_, 1, &probeFence_);
  probePending_ = false;
  lock.unlock();
  // A probe submitted before the awaited work (by an earlier wait) may be
  // the one that completed: then the caller waits again.
  result = timelineReached(value);
  return result == VK_NOT_READY ? VK_TIMEOUT : result;
}

VkResult Queue::timelineReached(uint64_t value) const {
  uint64_t reached = 0;
  VkResult result = vkGetSemaphoreCounterValue(device_, timeline_, &reached);
  if (result != VK_SUCCESS)
    return result;
  return reached >= value ? VK_SUCCESS : VK_NOT_READY;
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
    if (submission.value != 0 && lost_) {
      result = VK_ERROR_DEVICE_LOST; // it will never complete
    } else if (submission.value != 0) {
      lock.unlock();
      result = VK_NOT_READY;
      for (auto spinUntil = std::chrono::steady_clock::now() + spinBeforeBlocking_;
           result == VK_NOT_READY && std::chrono::steady_clock::now() < spinUntil;)
        result = timelineReached(submission.value);
      if (result == VK_NOT_READY)
        result = waitBehindProbe(lock, submission.value);
      lock.lock();
      if (result == VK_TIMEOUT)
        continue;
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
    if (result == VK_ERROR_DEVICE_LOST && submission.value != 0 && !kernels.empty()) {
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
  if (!timestamps.empty() && submission.value != 0 && result == VK_SUCCESS) {
    clock_.close(submission.window);
    clock_.resolve(timestamps, submission.window);
  }
  mux::Outcome commandFailure = dispatch.commandBuffer->completeSegment(submission.segment, dispatch.outcome);
  if (dispatch.commandFailure.status == mux::Status::Success)
    dispatch.commandFailure = std::move(commandFailure);
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
  if (dispatch->reportedBusy) {
    activity_.end(dispatch->work, mux::DeviceActivity::steadyNs());
    if (dispatch->work == mux::DeviceActivity::Work::Kernel) {
      activity_.launchEnded(dispatch->progressToken);
      // After launchEnded, so that no query reads the zeroed counters as
      // this dispatch's progress; before the next dispatch can be submitted
      // (mutex_ is held).
      dispatch->commandBuffer->resetProgress();
    }
  }
  mux::Outcome outcome =
      dispatch->outcome.status == mux::Status::Success ? dispatch->commandFailure : dispatch->outcome;
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
