#include "kernel_launch.h"

#include "executable.h"
#include "fault_guard.h"

#include "compiler/abi/printf_abi.h"
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
using compiler::abi::packedArgAlignment;

constexpr uint64_t kLocalAlignment = 128;
constexpr std::align_val_t kPackedAlignment{128};

llvm::Error checkRange(const mux::NDRange &range, size_t kernelMaxWorkGroupSize) {
  if (range.dimensions < 1 || range.dimensions > 3)
    return mux::makeError(mux::Status::InvalidArgument,
                          "work dimensions " + std::to_string(range.dimensions) + " is not 1, 2 or 3");
  uint64_t groupSize = 1;
  for (uint32_t d = 0; d < range.dimensions; ++d) {
    if (range.localSize[d] == 0)
      return mux::makeError(mux::Status::InvalidArgument, "local size is zero in dimension " + std::to_string(d));
    if (range.globalOffset[d] > UINT64_MAX - range.globalSize[d])
      return mux::makeError(mux::Status::InvalidArgument, "global offset + size overflows");
    groupSize *= range.localSize[d];
    if (groupSize > kernelMaxWorkGroupSize)
      return mux::makeError(mux::Status::InvalidArgument, "work-group of " + std::to_string(groupSize) +
                                                              " exceeds the kernel's maximum of " +
                                                              std::to_string(kernelMaxWorkGroupSize));
  }
  return llvm::Error::success();
}

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

llvm::Expected<std::unique_ptr<KernelLaunch>> KernelLaunch::create(ThreadPool &pool, const mux::DeviceInfo &device,
                                                                   mux::Kernel &kernel,
                                                                   std::span<const mux::KernelArg> args,
                                                                   const mux::NDRange &range) {
  const uint64_t localMemLimit = device.localMemSize;
  auto *hostKernel = dynamic_cast<HostKernel *>(&kernel);
  if (!hostKernel || !hostKernel->entry())
    return mux::makeError(mux::Status::InvalidArgument, "kernel was not created by the host device");
  if (auto error = checkRange(range, hostKernel->maxWorkGroupSize()))
    return error;

  std::unique_ptr<KernelLaunch> launch(new KernelLaunch(pool, device));
  launch->kernel_ = hostKernel;
  launch->entry_ = hostKernel->entry();

  // Lay the arguments out (cpu_kernel_abi.h), then the __local area:
  // static __local variables first, then each __local argument, each
  // 128-byte aligned.
  struct Placed {
    uint64_t offset;
    uint64_t size;
  };
  llvm::SmallVector<Placed, 8> placed;
  uint64_t packedSize = 0;
  uint64_t localCursor = alignTo(kernel.localMemSize(), kLocalAlignment);
  for (const mux::KernelArg &arg : args) {
    uint64_t size = arg.kind == mux::KernelArg::Kind::Value ? arg.value.size() : 8;
    uint64_t offset = alignTo(packedSize, packedArgAlignment(size));
    placed.push_back({offset, size});
    packedSize = offset + size;
    if (arg.kind == mux::KernelArg::Kind::Local) {
      launch->localArgs_.push_back({offset, localCursor});
      localCursor = alignTo(localCursor + std::max<uint64_t>(arg.localSize, 1), kLocalAlignment);
      if (arg.localSize > localMemLimit)
        localCursor = UINT64_MAX / 2; // reported just below, without overflowing
    }
  }
  uint64_t localBytes = kernel.localMemSize() + (localCursor - alignTo(kernel.localMemSize(), kLocalAlignment));
  if (localBytes > localMemLimit)
    return mux::makeError(mux::Status::OutOfResources, "kernel needs " + std::to_string(localBytes) +
                                                           " bytes of __local memory; the device has " +
                                                           std::to_string(localMemLimit));

  launch->packedSize_ = packedSize;
  launch->packed_ = static_cast<std::byte *>(::operator new(std::max<uint64_t>(packedSize, 1), kPackedAlignment));
  std::memset(launch->packed_, 0, std::max<uint64_t>(packedSize, 1));
  for (size_t i = 0; i < args.size(); ++i) {
    const mux::KernelArg &arg = args[i];
    std::byte *slot = launch->packed_ + placed[i].offset;
    if (arg.kind == mux::KernelArg::Kind::Value) {
      if (!arg.value.empty())
        std::memcpy(slot, arg.value.data(), arg.value.size());
    } else if (arg.kind == mux::KernelArg::Kind::Buffer) {
      std::byte *pointer = nullptr;
      if (arg.buffer) {
        auto buffer = mux::support::asBoundHostBuffer(*arg.buffer, ("argument " + std::to_string(i)).c_str());
        if (!buffer)
          return buffer.takeError();
        if (arg.offset > (*buffer)->size())
          return mux::makeError(mux::Status::InvalidArgument,
                                "argument " + std::to_string(i) + " offset is past the end of its buffer");
        pointer = (*buffer)->data() + arg.offset;
      }
      std::memcpy(slot, &pointer, sizeof(pointer));
    }
    // Local: patched per worker at run time.
  }

  launch->localAreaOffset_ = launch->localArgs_.empty() ? 0 : alignTo(packedSize, kLocalAlignment);
  launch->localAreaSize_ = localCursor;
  uint64_t groupSize = 1;
  for (uint32_t d = 0; d < range.dimensions; ++d)
    groupSize *= range.localSize[d];
  launch->stateOffset_ = alignTo(launch->localAreaOffset_ + launch->localAreaSize_, kLocalAlignment);
  launch->stateSize_ = hostKernel->workItemStateSize() * groupSize;
  if (hostKernel->usesPrintf()) {
    uint64_t capacity = std::max<uint64_t>(device.printfBufferSize, 64);
    uint64_t words = (sizeof(compiler::abi::PrintfBufferHeader) + capacity + 7) / 8;
    launch->printfBuffer_.reset(new (std::nothrow) uint64_t[words]);
    if (!launch->printfBuffer_)
      return mux::makeError(mux::Status::OutOfMemory, "cannot allocate the printf buffer");
    auto *header = reinterpret_cast<compiler::abi::PrintfBufferHeader *>(launch->printfBuffer_.get());
    header->capacity = capacity;
    header->used = 0;
  }

  compiler::abi::WorkGroupInfo &info = launch->baseInfo_;
  info.workDim = range.dimensions;
  launch->groupCount_ = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    bool used = d < range.dimensions;
    info.globalOffset[d] = used ? range.globalOffset[d] : 0;
    info.globalSize[d] = used ? range.globalSize[d] : 1;
    info.enqueuedLocalSize[d] = used ? range.localSize[d] : 1;
    info.localSize[d] = info.enqueuedLocalSize[d];
    info.numGroups[d] = (info.globalSize[d] + info.enqueuedLocalSize[d] - 1) / info.enqueuedLocalSize[d];
    launch->groupCount_ *= info.numGroups[d]; // zero for an empty range: nothing runs
    info.groupId[d] = 0;
  }
  info.localMemory = nullptr;
  info.localMemorySize = 0;
  info.workItemState = nullptr;
  info.printfBuffer = nullptr;
  info.stackBegin = info.stackEnd = nullptr;
  info.workItemStateEnd = nullptr;
  return launch;
}

KernelLaunch::~KernelLaunch() {
  if (packed_)
    ::operator delete(packed_, kPackedAlignment);
}

mux::Outcome KernelLaunch::run() {
  if (groupCount_ == 0)
    return mux::Status::Success;
  installFaultHandlers();
  faulted_.store(false, std::memory_order_relaxed);
  faultReason_.clear(); // no worker runs yet
  if (printfBuffer_)
    std::atomic_ref<uint64_t>(reinterpret_cast<compiler::abi::PrintfBufferHeader *>(printfBuffer_.get())->used)
        .store(0, std::memory_order_relaxed);
  uint64_t scratchBytes = stateSize_ ? stateOffset_ + stateSize_ : localAreaOffset_ + localAreaSize_;
  if (!pool_.parallelFor(groupCount_, scratchBytes, &KernelLaunch::runGroups, this))
    return mux::Status::OutOfMemory;
  // What was printed before a fault is still shown.
  flushPrintf();
  if (!faulted_.load(std::memory_order_relaxed))
    return mux::Status::Success;
  std::lock_guard lock(faultMutex_);
  return mux::Outcome(mux::Status::KernelFault,
                      "kernel '" + kernel_->name() + "' faulted on device '" + device_.name + "': " + faultReason_);
}

void KernelLaunch::recordFault(std::string reason) {
  std::lock_guard lock(faultMutex_);
  if (faultReason_.empty())
    faultReason_ = std::move(reason);
}

void KernelLaunch::flushPrintf() {
  if (!printfBuffer_)
    return;
  std::string text = compiler::decodePrintfBuffer(kernel_->printfTable(), printfBuffer_.get());
  if (text.empty())
    return;
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void KernelLaunch::runGroups(void *self, unsigned worker, std::byte *scratch, uint64_t begin, uint64_t end) {
  auto &launch = *static_cast<KernelLaunch *>(self);
  if (launch.faulted_.load(std::memory_order_relaxed))
    return; // a group faulted: skip the rest of the launch

  // With __local arguments each worker runs on its own copy of the arguments,
  // pointing at its own __local area.
  const void *const args = launch.localArgs_.empty() ? launch.packed_ : launch.patchLocalArgs(scratch);
  compiler::abi::WorkGroupInfo info = launch.baseInfo_;
  info.localMemory = launch.localAreaSize_ ? scratch + launch.localAreaOffset_ : nullptr;
  info.localMemorySize = launch.localAreaSize_;
  info.workItemState = launch.stateSize_ ? scratch + launch.stateOffset_ : nullptr;
  info.workItemStateEnd = launch.stateSize_ ? scratch + launch.stateOffset_ + launch.stateSize_ : nullptr;
  info.printfBuffer = launch.printfBuffer_.get();
  const ThreadStack &stack = currentStackRange();
  info.stackBegin = stack.begin;
  info.stackEnd = stack.end;
  const uint64_t groupsX = info.numGroups[0];
  const uint64_t groupsY = info.numGroups[1];
  const compiler::abi::CpuKernelEntry entry = launch.entry_;

  ensureFaultStack();
  sigjmp_buf jump;
  if (sigsetjmp(jump, 0) != 0) {
    disarmFaultGuard();
    launch.recordFault(describeFault(lastFault(), currentStackRange()));
    launch.faulted_.store(true, std::memory_order_relaxed);
    return;
  }
  FaultGuard guard(jump);
  for (uint64_t index = begin; index < end; ++index) {
    uint64_t rest = index / groupsX;
    info.groupId[0] = index % groupsX;
    info.groupId[1] = rest % groupsY;
    info.groupId[2] = rest / groupsY;
    for (int d = 0; d < 3; ++d)
      info.localSize[d] =
          std::min(info.enqueuedLocalSize[d], info.globalSize[d] - info.groupId[d] * info.enqueuedLocalSize[d]);
    entry(args, &info);
  }
}

const void *KernelLaunch::patchLocalArgs(std::byte *scratch) const {
  std::memcpy(scratch, packed_, packedSize_);
  for (const LocalArg &local : localArgs_) {
    std::byte *pointer = scratch + localAreaOffset_ + local.localOffset;
    std::memcpy(scratch + local.packedOffset, &pointer, sizeof(pointer));
  }
  return scratch;
}

llvm::Expected<std::unique_ptr<mux::support::KernelLaunch>>
CommandBuffer::createLaunch(mux::Kernel &kernel, std::span<const mux::KernelArg> args, const mux::NDRange &range) {
  auto launch = KernelLaunch::create(pool_, device_, kernel, args, range);
  if (!launch)
    return launch.takeError();
  return std::unique_ptr<mux::support::KernelLaunch>(std::move(*launch));
}

} // namespace host
