// ndrange: one kernel launch as Vulkan dispatches, following
// compiler/abi/vulkan_kernel_abi.h: launch fields and arguments in the push
// constants (or the arguments in an argument buffer), the local size and
// __local sizes as specialization constants, non-uniform ranges split into
// pieces with their own local size and GroupOffset.
#include "command_buffer.h"

#include "device.h"
#include "executable.h"
#include "launch_split.h"
#include "memory.h"

#include "compiler/abi/printf_abi.h"
#include "mux/kernel_exit.h"

#include "llvm/ADT/SmallVector.h"

#include <cstring>

namespace vulkan_target {
namespace {

namespace abi = compiler::abi::vulkan;

/// The kernel's push-constant block, written field by field.
class PushBlock {
public:
  PushBlock(const compiler::VulkanKernelBinaryInfo &info) : info_(info), bytes_((info.pushConstantSize + 3) / 4 * 4) {}
  void set(abi::LaunchField field, const void *value) {
    uint32_t offset = info_.offsetOf(field);
    if (offset != abi::kNotUsed)
      std::memcpy(bytes_.data() + offset, value, abi::launchFieldSize(field));
  }
  void set3(abi::LaunchField field, const std::array<uint32_t, 3> &value) { set(field, value.data()); }
  void set64(abi::LaunchField field, uint64_t value) { set(field, &value); }
  std::span<std::byte> bytes() { return bytes_; }

private:
  const compiler::VulkanKernelBinaryInfo &info_;
  /// Vulkan guarantees 128 bytes of push constants; NVIDIA offers 256.
  llvm::SmallVector<std::byte, 256> bytes_;
};

/// Writes the arguments at their offsets in `block` (push constants or
/// argument buffer).
void writeArguments(const compiler::VulkanKernelBinaryInfo &info, std::span<const mux::KernelArg> args,
                    std::byte *block) {
  for (size_t i = 0; i < args.size(); ++i) {
    const compiler::VulkanKernelArg &slot = info.args[i];
    switch (slot.kind) {
    case compiler::VulkanKernelArg::Kind::Buffer: {
      uint64_t address = args[i].buffer ? args[i].buffer->deviceAddress() + args[i].offset : 0;
      std::memcpy(block + slot.offset, &address, sizeof(address));
      // Where its checked accesses may go: the whole buffer, and an image's
      // texels for the accesses through its descriptor.
      auto writeRange = [&](uint32_t offset, const mux::Buffer *buffer) {
        if (offset == abi::kNotUsed)
          return;
        abi::AccessRange range{0, 0};
        if (buffer)
          range = {buffer->deviceAddress(), buffer->size()};
        std::memcpy(block + offset, &range, sizeof(range));
      };
      writeRange(slot.rangeOffset, args[i].buffer);
      writeRange(slot.texelRangeOffset, args[i].texels);
      break;
    }
    case compiler::VulkanKernelArg::Kind::Value:
      std::memcpy(block + slot.offset, args[i].value.data(), slot.size);
      break;
    case compiler::VulkanKernelArg::Kind::Local:
      break; // a specialization constant of the pipeline
    }
  }
}

} // namespace

llvm::Error CommandBuffer::ndrange(mux::Kernel &kernel, std::span<const mux::KernelArg> args,
                                   const mux::NDRange &range) {
  if (llvm::Error error = checkRecordable())
    return error;
  auto *vulkanKernel = dynamic_cast<Kernel *>(&kernel);
  if (!vulkanKernel)
    return mux::makeError(mux::Status::InvalidArgument, "kernel of another device");
  if (&vulkanKernel->program().device != &device_)
    return mux::makeError(mux::Status::InvalidArgument, "kernel loaded on another vulkan device");
  if (llvm::Error error = vulkanKernel->validate(args, range))
    return error;
  for (uint32_t d = 0; d < range.dimensions; ++d)
    if (range.globalSize[d] == 0)
      return llvm::Error::success(); // an empty range runs nothing
  CommandTape &tape = beginCommand();
  for (const mux::KernelArg &arg : args) {
    if (arg.buffer)
      writes(*arg.buffer);
    if (arg.texels)
      writes(*arg.texels);
  }
  if (llvm::Error error = recordLaunch(tape, *vulkanKernel, args, range))
    return error;
  segments_.back().kernels.push_back(vulkanKernel->name());
  return llvm::Error::success();
}

llvm::Error CommandBuffer::recordLaunch(CommandTape &tape, Kernel &kernel, std::span<const mux::KernelArg> args,
                                        const mux::NDRange &range) {
  const compiler::VulkanKernelBinaryInfo &info = kernel.binaryInfo();
  const LoadedProgram &program = kernel.program();
  std::array<uint64_t, 3> global{1, 1, 1}, local{1, 1, 1};
  std::array<uint32_t, 3> global32{1, 1, 1}, local32{1, 1, 1}, offset32{0, 0, 0}, groups{1, 1, 1};
  for (uint32_t d = 0; d < range.dimensions; ++d) {
    global[d] = range.globalSize[d];
    local[d] = range.localSize[d];
    global32[d] = static_cast<uint32_t>(global[d]);
    local32[d] = static_cast<uint32_t>(local[d]);
    offset32[d] = static_cast<uint32_t>(range.globalOffset[d]);
    groups[d] = static_cast<uint32_t>((global[d] + local[d] - 1) / local[d]);
  }
  const std::vector<uint32_t> localArgSizes = kernel.localArgSizes(args);
  const VkPhysicalDeviceLimits &limits = device_.facts().properties.limits;
  const llvm::SmallVector<DispatchPiece, 8> pieces = splitRange(
      global, local,
      {limits.maxComputeWorkGroupCount[0], limits.maxComputeWorkGroupCount[1], limits.maxComputeWorkGroupCount[2]});
  // Every pipeline first, so a failure records nothing.
  llvm::SmallVector<VkPipeline, 8> pipelines;
  for (const DispatchPiece &piece : pieces) {
    auto pipeline = kernel.pipeline({piece.localSize, localArgSizes});
    if (!pipeline)
      return pipeline.takeError();
    pipelines.push_back(*pipeline);
  }

  PushBlock push(info);
  push.set3(abi::LaunchField::GlobalOffset, offset32);
  push.set3(abi::LaunchField::GlobalSize, global32);
  push.set3(abi::LaunchField::EnqueuedLocalSize, local32);
  push.set3(abi::LaunchField::NumGroups, groups);
  push.set(abi::LaunchField::WorkDim, &range.dimensions);
  push.set64(abi::LaunchField::GlobalVariables, program.globals ? program.globals->address() : 0);
  if (info.argumentBufferSize) {
    auto argumentBuffer = arena_.allocate(info.argumentBufferSize, abi::kBlockAlignment);
    if (!argumentBuffer)
      return argumentBuffer.takeError();
    std::memset(argumentBuffer->host, 0, info.argumentBufferSize);
    writeArguments(info, args, argumentBuffer->host);
    push.set64(abi::LaunchField::ArgumentBuffer, argumentBuffer->address);
  } else {
    writeArguments(info, args, push.bytes().data());
  }
  if (info.offsetOf(abi::LaunchField::AccessReport) != abi::kNotUsed) {
    // Where a kernel whose access failed its check says so (the ranges are
    // next to the arguments, writeArguments).
    auto report = hostArena_.allocate(sizeof(abi::AccessReport), alignof(abi::AccessReport));
    if (!report)
      return report.takeError();
    std::memset(report->host, 0, sizeof(abi::AccessReport));
    push.set64(abi::LaunchField::AccessReport, report->address);
    segments_.back().hostReads = true;
    segments_.back().actions.push_back({Action::Kind::AccessCheck, nullptr, {}, report->host, kernel.name()});
  }
  if (info.offsetOf(abi::LaunchField::KernelExit) != abi::kNotUsed) {
    // The exit record starts unset at every run of the command buffer, as
    // the printf header below.
    auto record = hostArena_.allocate(sizeof(int32_t), alignof(int32_t));
    if (!record)
      return record.takeError();
    const int32_t unset = mux::kernel_exit::NotExiting;
    std::memcpy(record->host, &unset, sizeof(unset));
    tape.updateBuffer(record->buffer, record->offset, std::as_bytes(std::span(&unset, 1)));
    barrier(tape, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    push.set64(abi::LaunchField::KernelExit, record->address);
    segments_.back().hostReads = true;
    segments_.back().actions.push_back({Action::Kind::ExitRecord, nullptr, {}, record->host, kernel.name()});
  }
  if (info.offsetOf(abi::LaunchField::Progress) != abi::kNotUsed) {
    // Device-local where it can be: the kernel's atomics stay on the GPU,
    // and only a status query reads it across the bus.
    auto counter = arena_.allocate(sizeof(uint32_t), alignof(uint32_t));
    if (!counter)
      return counter.takeError();
    std::memset(counter->host, 0, sizeof(uint32_t));
    push.set64(abi::LaunchField::Progress, counter->address);
    uint64_t workItems = 1;
    for (uint64_t size : global)
      workItems *= size;
    progressCounters_.push_back({reinterpret_cast<volatile uint32_t *>(counter->host), workItems});
    // One launch whose counter could wrap leaves the command buffer's
    // progress unreported.
    const bool countable = workItems <= UINT32_MAX && (progressCounters_.size() == 1 || progressWorkItems_ > 0);
    progressWorkItems_ = countable ? progressWorkItems_ + workItems : 0;
  }
  if (info.flags & compiler::VulkanKernelUsesPrintf) {
    // The header is rewritten on the device at each run of the command
    // buffer, so that a repeated dispatch prints only its own output.
    const uint64_t capacity = device_.info().printfBufferSize;
    auto printfBuffer = hostArena_.allocate(sizeof(compiler::abi::PrintfBufferHeader) + capacity, 16);
    if (!printfBuffer)
      return printfBuffer.takeError();
    compiler::abi::PrintfBufferHeader header{capacity, 0};
    tape.updateBuffer(printfBuffer->buffer, printfBuffer->offset, std::as_bytes(std::span(&header, 1)));
    barrier(tape, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    push.set64(abi::LaunchField::PrintfBuffer, printfBuffer->address);
    segments_.back().hostReads = true;
    segments_.back().actions.push_back(
        {Action::Kind::Printf, nullptr, PrintfOutput{printfBuffer->host, &program.binary().printfTable}});
  }

  VkPipeline bound = VK_NULL_HANDLE;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pipelines[i] != bound) {
      tape.bindPipeline(pipelines[i]);
      bound = pipelines[i];
    }
    push.set3(abi::LaunchField::GroupOffset, pieces[i].groupOffset);
    if (!push.bytes().empty())
      tape.pushConstants(kernel.layout(), push.bytes());
    tape.dispatch(pieces[i].groupCount[0], pieces[i].groupCount[1], pieces[i].groupCount[2]);
  }
  return llvm::Error::success();
}

} // namespace vulkan_target
