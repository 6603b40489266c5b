#include "kernel_launch.h"

#include "device.h"
#include "executable.h"
#include "hart_runner.h"

#include "compiler/printf_decoder.h"

#include <cstdio>
#include <cstring>

namespace riscv_sim {
namespace {

using compiler::abi::alignTo;
using compiler::abi::CpuLaunchPlan;
using compiler::abi::WorkGroupInfo;

constexpr uint64_t kAlignment = CpuLaunchPlan::kAreaAlignment;

/// Buffers must be in this device's DRAM: their device address is a guest
/// address there.
llvm::Error checkBuffers(const Device &device, std::span<const mux::KernelArg> args) {
  const DeviceDescription &description = device.description();
  for (size_t i = 0; i < args.size(); ++i) {
    const mux::KernelArg &arg = args[i];
    if (arg.kind != mux::KernelArg::Kind::Buffer || !arg.buffer)
      continue;
    auto buffer = mux::support::asBoundHostBuffer(*arg.buffer, ("argument " + std::to_string(i)).c_str());
    if (!buffer)
      return buffer.takeError();
    uint64_t address = (*buffer)->deviceAddress();
    if (address < description.dramBase || address - description.dramBase >= description.dramSize)
      return mux::makeError(mux::Status::InvalidArgument,
                            "argument " + std::to_string(i) + " buffer is not in the device's memory");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<KernelLaunch>> KernelLaunch::create(Device &device, mux::Kernel &kernel,
                                                                   std::span<const mux::KernelArg> args,
                                                                   const mux::NDRange &range) {
  auto *simKernel = dynamic_cast<Kernel *>(&kernel);
  if (!simKernel || !simKernel->entry())
    return mux::makeError(mux::Status::InvalidArgument, "kernel was not created by the riscv_sim device");
  if (llvm::Error error = checkBuffers(device, args))
    return error;
  const compiler::CpuKernelBinaryInfo &info = simKernel->info();
  compiler::abi::CpuKernelFacts facts{info.name, info.localMemSize, info.workItemStateSize,
                                      (info.flags & compiler::KernelUsesPrintf) != 0, simKernel->maxWorkGroupSize()};
  auto plan =
      CpuLaunchPlan::create(facts, args, range, device.info().localMemSize, device.info().printfBufferSize);
  if (!plan)
    return plan.takeError();
  std::unique_ptr<KernelLaunch> launch(new KernelLaunch(device, *simKernel, std::move(*plan)));

  // A hart's local memory: [WorkGroupInfo][packed arguments][__local
  // area][barrier state] ... [stack], each part 128-byte aligned.
  const DeviceDescription &description = device.description();
  const CpuLaunchPlan &laid = launch->plan_;
  launch->argsOffset_ = alignTo(sizeof(WorkGroupInfo), kAlignment);
  launch->localAreaOffset_ = alignTo(launch->argsOffset_ + laid.argsSize(), kAlignment);
  launch->stateOffset_ = alignTo(launch->localAreaOffset_ + laid.localAreaSize(), kAlignment);
  uint64_t needed = launch->stateOffset_ + laid.workItemStateSize();
  const uint64_t available = description.scratchSize - description.stackSize - description.stackGuardSize;
  if (needed > available)
    return mux::makeError(mux::Status::OutOfResources,
                          "kernel '" + info.name + "' needs " + std::to_string(needed) +
                              " bytes of hart local memory for its arguments, __local data and barrier state; "
                              "the device has " +
                              std::to_string(available));
  // The exit record (WorkGroupInfo::kernelExit) lives in device memory,
  // where every hart's atomics reach it.
  auto exitRecord = mux::support::HostMemory::allocate(sizeof(int32_t), kAlignment, mux::support::kHostMemoryProperties,
                                                       device.dram());
  if (!exitRecord)
    return exitRecord.takeError();
  launch->exitRecord_ = std::move(*exitRecord);
  if (laid.printfBufferSize()) {
    auto buffer = mux::support::HostMemory::allocate(laid.printfBufferSize(), kAlignment,
                                                     mux::support::kHostMemoryProperties, device.dram());
    if (!buffer)
      return buffer.takeError();
    launch->printfBuffer_ = std::move(*buffer);
  }
  return launch;
}

KernelLaunch::KernelLaunch(Device &device, const Kernel &kernel, CpuLaunchPlan plan)
    : device_(device), kernel_(kernel), plan_(std::move(plan)) {}

mux::Outcome KernelLaunch::run() {
  instructions_.store(0, std::memory_order_relaxed);
  if (plan_.groupCount() == 0)
    return mux::Status::Success;
  faulted_.store(false, std::memory_order_relaxed);
  exitRecord().store(compiler::abi::kKernelNotExiting, std::memory_order_relaxed);
  faultReason_.clear(); // no hart runs yet
  if (printfBuffer_)
    plan_.initPrintfBuffer(printfBuffer_->data());
  if (!device_.harts().parallelFor(plan_.groupCount(), &KernelLaunch::runGroups, this))
    return mux::Status::OutOfMemory;
  flushPrintf(); // what was printed before a fault is still shown
  mux::Outcome outcome;
  if (faulted_.load(std::memory_order_relaxed)) {
    std::lock_guard lock(faultMutex_);
    outcome = mux::Outcome(mux::Status::KernelFault, "kernel '" + kernel_.name() + "' faulted on device '" +
                                                         device_.info().name + "': " + faultReason_);
    outcome.kernelExitStatus = faultExitStatus_;
  } else if (int32_t status = exitRecord().load(std::memory_order_relaxed);
             status != compiler::abi::kKernelNotExiting) {
    outcome.kernelExitStatus = status;
  }
  outcome.instructionsRetired = instructions_.load(std::memory_order_relaxed);
  return outcome;
}

void KernelLaunch::recordFault(std::string reason, int32_t exitStatus) {
  std::lock_guard lock(faultMutex_);
  if (faultReason_.empty()) {
    faultReason_ = std::move(reason);
    faultExitStatus_ = exitStatus;
  }
  faulted_.store(true, std::memory_order_relaxed);
}

std::atomic_ref<int32_t> KernelLaunch::exitRecord() const {
  return std::atomic_ref<int32_t>(*reinterpret_cast<int32_t *>(exitRecord_->data()));
}

void KernelLaunch::flushPrintf() {
  if (!printfBuffer_)
    return;
  std::string text = compiler::decodePrintfBuffer(kernel_.program().binary().printfTable, printfBuffer_->data());
  if (text.empty())
    return;
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void KernelLaunch::runGroups(void *self, unsigned hart, std::byte *, uint64_t begin, uint64_t end) {
  auto &launch = *static_cast<KernelLaunch *>(self);
  if (launch.faulted_.load(std::memory_order_relaxed))
    return; // a group faulted: skip the rest of the launch
  const DeviceDescription &description = launch.device_.description();
  const CpuLaunchPlan &plan = launch.plan_;
  std::byte *scratch = launch.device_.harts().scratch(hart);
  const uint64_t scratchBase = description.scratchBase;

  // The arguments and the launch-wide part of the work-group info are
  // written once per chunk; each group then updates its id and size.
  plan.writeArgs(scratch + launch.argsOffset_, scratchBase + launch.localAreaOffset_);
  WorkGroupInfo info = plan.baseInfo();
  if (plan.localAreaSize()) {
    info.localMemory = scratchBase + launch.localAreaOffset_;
    info.localMemorySize = plan.localAreaSize();
  }
  if (plan.workItemStateSize()) {
    info.workItemState = scratchBase + launch.stateOffset_;
    info.workItemStateEnd = info.workItemState + plan.workItemStateSize();
  }
  info.printfBuffer = launch.printfBuffer_ ? launch.printfBuffer_->deviceAddress() : 0;
  info.kernelExit = launch.exitRecord_->deviceAddress();
  info.stackBegin = scratchBase + description.scratchSize - description.stackSize;
  info.stackEnd = scratchBase + description.scratchSize;

  HartRunner runner(launch.device_, launch.kernel_.program(), hart);
  uint64_t instructions = 0;
  for (uint64_t index = begin; index < end; ++index) {
    // A work-group that has not started when kernel_exit is called never
    // starts.
    if (launch.exitRecord().load(std::memory_order_relaxed) != compiler::abi::kKernelNotExiting)
      break;
    plan.setGroup(info, index);
    std::memcpy(scratch, &info, sizeof(info));
    GroupResult result =
        runner.runGroup(launch.kernel_.entry(), scratchBase + launch.argsOffset_, scratchBase, launch.faulted_);
    instructions += result.instructions;
    if (!result.completed) {
      if (launch.faulted_.load(std::memory_order_relaxed))
        break; // abandoned: the first fault is the one reported
      launch.recordFault(result.trap + " in work-group (" + std::to_string(info.groupId[0]) + ", " +
                             std::to_string(info.groupId[1]) + ", " + std::to_string(info.groupId[2]) + ") on hart " +
                             std::to_string(hart),
                         result.exitStatus);
      break;
    }
    launch.workGroupsDone(1);
    if (launch.faulted_.load(std::memory_order_relaxed))
      break;
  }
  launch.instructions_.fetch_add(instructions, std::memory_order_relaxed);
}

llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
CommandBuffer::createLaunch(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) {
  auto launch = KernelLaunch::create(device_, kernel, args, range);
  if (!launch)
    return launch.takeError();
  return std::unique_ptr<mux::support::KernelLaunch>(std::move(*launch));
}

} // namespace riscv_sim
