#include "kernel_launch.h"

#include "executable.h"
#include "fault_guard.h"

#include "compiler/printf_decoder.h"

#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

namespace host {

namespace {

using compiler::abi::alignTo;
using compiler::abi::CpuLaunchPlan;

constexpr std::align_val_t kPackedAlignment{CpuLaunchPlan::kAreaAlignment};

uint64_t addressOf(const void *pointer) { return reinterpret_cast<uint64_t>(pointer); }

/// The calling thread's stack, for the private-memory range of
/// to_private/get_fence and to recognise stack overflows; empty when the
/// system cannot tell.
const ThreadStack &currentStackRange() {
  thread_local const ThreadStack range = [] {
    ThreadStack result;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0)
      return result;
    void *address = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &address, &size) == 0) {
      result.begin = address;
      result.end = static_cast<std::byte *>(address) + size;
    }
    size_t guard = 0;
    if (pthread_attr_getguardsize(&attributes, &guard) == 0)
      result.guardSize = guard;
    pthread_attr_destroy(&attributes);
    return result;
  }();
  return range;
}

} // namespace

llvm::Expected<std::unique_ptr<KernelLaunch>> KernelLaunch::create(mux::support::ThreadPool &pool, const mux::DeviceInfo &device,
                                                                   mux::Kernel &kernel,
                                                                   std::span<const mux::KernelArg> args,
                                                                   const mux::NDRange &range) {
  auto *hostKernel = dynamic_cast<HostKernel *>(&kernel);
  if (!hostKernel || !hostKernel->entry())
    return mux::makeError(mux::Status::InvalidArgument, "kernel was not created by the host device");
  // Buffers must be this device's (their device address is a host pointer).
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == mux::KernelArg::Kind::Buffer && args[i].buffer)
      if (auto buffer = mux::support::asBoundHostBuffer(*args[i].buffer, ("argument " + std::to_string(i)).c_str());
          !buffer)
        return buffer.takeError();
  compiler::abi::CpuKernelFacts facts{kernel.name(), kernel.localMemSize(), hostKernel->workItemStateSize(),
                                      hostKernel->usesPrintf(), hostKernel->maxWorkGroupSize()};
  auto plan = CpuLaunchPlan::create(facts, args, range, device.localMemSize, device.printfBufferSize);
  if (!plan)
    return plan.takeError();
  std::unique_ptr<KernelLaunch> launch(new KernelLaunch(pool, device, *hostKernel, std::move(*plan)));
  if (launch->plan_.printfBufferSize()) {
    launch->printfBuffer_.reset(new (std::nothrow) uint64_t[(launch->plan_.printfBufferSize() + 7) / 8]);
    if (!launch->printfBuffer_)
      return mux::makeError(mux::Status::OutOfMemory, "cannot allocate the printf buffer");
  }
  return launch;
}

KernelLaunch::KernelLaunch(mux::support::ThreadPool &pool, const mux::DeviceInfo &device, const HostKernel &kernel,
                           CpuLaunchPlan plan)
    : pool_(pool), device_(device), kernel_(kernel), plan_(std::move(plan)) {
  const uint64_t alignment = CpuLaunchPlan::kAreaAlignment;
  packed_ = static_cast<std::byte *>(::operator new(std::max<uint64_t>(plan_.argsSize(), 1), kPackedAlignment));
  plan_.writeArgs(packed_, 0);
  localAreaOffset_ = plan_.argsDependOnLocalArea() ? alignTo(plan_.argsSize(), alignment) : 0;
  stateOffset_ = alignTo(localAreaOffset_ + plan_.localAreaSize(), alignment);
  scratchSize_ = plan_.workItemStateSize() ? stateOffset_ + plan_.workItemStateSize()
                                           : localAreaOffset_ + plan_.localAreaSize();
}

KernelLaunch::~KernelLaunch() { ::operator delete(packed_, kPackedAlignment); }

mux::Outcome KernelLaunch::run() {
  if (plan_.groupCount() == 0)
    return mux::Status::Success;
  installFaultHandlers();
  faulted_.store(false, std::memory_order_relaxed);
  exitRecord_.store(compiler::abi::kKernelNotExiting, std::memory_order_relaxed);
  faultReason_.clear(); // no worker runs yet
  if (printfBuffer_)
    plan_.initPrintfBuffer(reinterpret_cast<std::byte *>(printfBuffer_.get()));
  if (!pool_.parallelFor(plan_.groupCount(), scratchSize_, &KernelLaunch::runGroups, this))
    return mux::Status::OutOfMemory;
  // What was printed before a fault is still shown.
  flushPrintf();
  if (!faulted_.load(std::memory_order_relaxed)) {
    mux::Outcome outcome(mux::Status::Success);
    if (int32_t status = exitRecord_.load(std::memory_order_relaxed); status != compiler::abi::kKernelNotExiting)
      outcome.kernelExitStatus = status;
    return outcome;
  }
  std::lock_guard lock(faultMutex_);
  mux::Outcome outcome(mux::Status::KernelFault,
                       "kernel '" + kernel_.name() + "' faulted on device '" + device_.name + "': " + faultReason_);
  outcome.kernelExitStatus = faultExitStatus_;
  return outcome;
}

void KernelLaunch::recordFault(std::string reason, int32_t exitStatus) {
  std::lock_guard lock(faultMutex_);
  if (faultReason_.empty()) {
    faultReason_ = std::move(reason);
    faultExitStatus_ = exitStatus;
  }
}

void KernelLaunch::flushPrintf() {
  if (!printfBuffer_)
    return;
  std::string text = compiler::decodePrintfBuffer(kernel_.printfTable(), printfBuffer_.get());
  if (text.empty())
    return;
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void KernelLaunch::runGroups(void *self, unsigned worker, std::byte *scratch, uint64_t begin, uint64_t end) {
  auto &launch = *static_cast<KernelLaunch *>(self);
  if (launch.faulted_.load(std::memory_order_relaxed))
    return; // a group faulted: skip the rest of the launch

  const CpuLaunchPlan &plan = launch.plan_;
  std::byte *localArea = scratch + launch.localAreaOffset_;
  // With __local arguments each worker runs on its own copy of the arguments,
  // pointing at its own __local area.
  const void *args = launch.packed_;
  if (plan.argsDependOnLocalArea()) {
    plan.writeArgs(scratch, addressOf(localArea));
    args = scratch;
  }
  compiler::abi::WorkGroupInfo info = plan.baseInfo();
  info.localMemory = plan.localAreaSize() ? addressOf(localArea) : 0;
  info.localMemorySize = plan.localAreaSize();
  if (plan.workItemStateSize()) {
    info.workItemState = addressOf(scratch + launch.stateOffset_);
    info.workItemStateEnd = info.workItemState + plan.workItemStateSize();
  }
  info.printfBuffer = addressOf(launch.printfBuffer_.get());
  info.kernelExit = addressOf(&launch.exitRecord_);
  const ThreadStack &stack = currentStackRange();
  info.stackBegin = addressOf(stack.begin);
  info.stackEnd = addressOf(stack.end);
  const compiler::abi::CpuKernelEntry entry = launch.kernel_.entry();

  ensureFaultStack();
  sigjmp_buf jump;
  if (sigsetjmp(jump, 0) != 0) {
    disarmFaultGuard();
    launch.recordFault(describeFault(lastFault(), currentStackRange()),
                       faultExitStatus(lastFault(), currentStackRange()));
    launch.faulted_.store(true, std::memory_order_relaxed);
    return;
  }
  FaultGuard guard(jump);
  plan.setGroup(info, begin);
  for (uint64_t index = begin; index < end; ++index) {
    // A work-group that has not started when kernel_exit is called never
    // starts.
    if (launch.exitRecord_.load(std::memory_order_relaxed) != compiler::abi::kKernelNotExiting)
      return;
    entry(args, &info);
    plan.nextGroup(info);
  }
  launch.workGroupsDone(end - begin);
}

llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
CommandBuffer::createLaunch(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) {
  auto launch = KernelLaunch::create(pool_, device_, kernel, args, range);
  if (!launch)
    return launch.takeError();
  return std::unique_ptr<mux::support::KernelLaunch>(std::move(*launch));
}

} // namespace host
