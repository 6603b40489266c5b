#include "compiler/abi/cpu_launch_plan.h"

#include "compiler/abi/printf_abi.h"
#include "mux/memory.h"
#include "mux/status.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace compiler::abi {
namespace {

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

} // namespace

llvm::Expected<CpuLaunchPlan> CpuLaunchPlan::create(const CpuKernelFacts &kernel, std::span<const mux::KernelArg> args,
                                                    const mux::NDRange &range, uint64_t localMemLimit,
                                                    uint64_t printfBufferSize) {
  if (llvm::Error error = checkRange(range, kernel.maxWorkGroupSize))
    return error;
  CpuLaunchPlan plan;

  // Arguments at packedArgAlignment() offsets; the __local area holds the
  // static __local variables first, then each __local argument, each
  // kAreaAlignment-aligned.
  llvm::SmallVector<uint64_t, 8> offsets;
  uint64_t packedSize = 0;
  uint64_t localCursor = alignTo(kernel.localMemSize, kAreaAlignment);
  for (const mux::KernelArg &arg : args) {
    uint64_t size = arg.kind == mux::KernelArg::Kind::Value ? arg.value.size() : 8;
    uint64_t offset = alignTo(packedSize, packedArgAlignment(size));
    offsets.push_back(offset);
    packedSize = offset + size;
    if (arg.kind == mux::KernelArg::Kind::Local) {
      plan.localArgs_.push_back({offset, localCursor});
      localCursor = alignTo(localCursor + std::max<uint64_t>(arg.localSize, 1), kAreaAlignment);
      if (arg.localSize > localMemLimit)
        localCursor = UINT64_MAX / 2; // reported just below, without overflowing
    }
  }
  uint64_t localBytes = kernel.localMemSize + (localCursor - alignTo(kernel.localMemSize, kAreaAlignment));
  if (localBytes > localMemLimit)
    return mux::makeError(mux::Status::OutOfResources, "kernel needs " + std::to_string(localBytes) +
                                                           " bytes of __local memory; the device has " +
                                                           std::to_string(localMemLimit));
  plan.localAreaSize_ = localCursor;

  plan.args_.assign(packedSize, std::byte{0});
  for (size_t i = 0; i < args.size(); ++i) {
    const mux::KernelArg &arg = args[i];
    std::byte *slot = plan.args_.data() + offsets[i];
    if (arg.kind == mux::KernelArg::Kind::Value) {
      if (!arg.value.empty())
        std::memcpy(slot, arg.value.data(), arg.value.size());
    } else if (arg.kind == mux::KernelArg::Kind::Buffer && arg.buffer) {
      uint64_t address = arg.buffer->deviceAddress();
      if (address == 0)
        return mux::makeError(mux::Status::InvalidArgument,
                              "argument " + std::to_string(i) + " buffer is not bound to memory");
      if (arg.offset > arg.buffer->size())
        return mux::makeError(mux::Status::InvalidArgument,
                              "argument " + std::to_string(i) + " offset is past the end of its buffer");
      address += arg.offset;
      std::memcpy(slot, &address, sizeof(address));
    }
    // A null buffer stays 0; __local pointers are written by writeArgs().
  }

  uint64_t groupSize = 1;
  for (uint32_t d = 0; d < range.dimensions; ++d)
    groupSize *= range.localSize[d];
  plan.stateSize_ = kernel.workItemStateSize * groupSize;
  if (kernel.usesPrintf)
    plan.printfBufferSize_ = sizeof(PrintfBufferHeader) + alignTo(std::max<uint64_t>(printfBufferSize, 64), 8);

  WorkGroupInfo &info = plan.baseInfo_;
  info.workDim = range.dimensions;
  plan.groupCount_ = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    bool used = d < range.dimensions;
    info.globalOffset[d] = used ? range.globalOffset[d] : 0;
    info.globalSize[d] = used ? range.globalSize[d] : 1;
    info.enqueuedLocalSize[d] = used ? range.localSize[d] : 1;
    info.localSize[d] = info.enqueuedLocalSize[d];
    info.numGroups[d] = (info.globalSize[d] + info.enqueuedLocalSize[d] - 1) / info.enqueuedLocalSize[d];
    plan.groupCount_ *= info.numGroups[d]; // zero for an empty range: nothing runs
  }
  return plan;
}

void CpuLaunchPlan::writeArgs(std::byte *destination, uint64_t localArea) const {
  // A kernel without arguments has an empty args_, whose data() may be null:
  // memcpy must not be given it, even for zero bytes.
  if (!args_.empty())
    std::memcpy(destination, args_.data(), args_.size());
  for (const LocalArg &local : localArgs_) {
    uint64_t address = localArea + local.areaOffset;
    std::memcpy(destination + local.packedOffset, &address, sizeof(address));
  }
}

void CpuLaunchPlan::initPrintfBuffer(std::byte *buffer) const {
  PrintfBufferHeader header{};
  header.capacity = printfBufferSize_ - sizeof(PrintfBufferHeader);
  header.used = 0;
  std::memcpy(buffer, &header, sizeof(header));
}

void CpuLaunchPlan::setGroup(WorkGroupInfo &info, uint64_t index) const {
  const uint64_t groupsX = baseInfo_.numGroups[0];
  const uint64_t groupsY = baseInfo_.numGroups[1];
  uint64_t rest = index / groupsX;
  info.groupId[0] = index % groupsX;
  info.groupId[1] = rest % groupsY;
  info.groupId[2] = rest / groupsY;
  for (int d = 0; d < 3; ++d)
    info.localSize[d] =
        std::min(info.enqueuedLocalSize[d], info.globalSize[d] - info.groupId[d] * info.enqueuedLocalSize[d]);
}

void CpuLaunchPlan::nextGroup(WorkGroupInfo &info) const {
  for (int d = 0; d < 3; ++d) {
    if (++info.groupId[d] < baseInfo_.numGroups[d] || d == 2) {
      info.localSize[d] =
          std::min(info.enqueuedLocalSize[d], info.globalSize[d] - info.groupId[d] * info.enqueuedLocalSize[d]);
      return;
    }
    // Carry into the next dimension: this one starts again at group 0.
    info.groupId[d] = 0;
    info.localSize[d] = std::min(info.enqueuedLocalSize[d], info.globalSize[d]);
  }
}

} // namespace compiler::abi
