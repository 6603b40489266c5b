// A loaded compiler/vulkan_binary.h container: one VkShaderModule for every
// kernel, the program-scope variable block, and per kernel a pipeline layout
// and the compute pipelines made for each local size and set of __local
// argument sizes (specialization constants, vulkan_kernel_abi.h).
#pragma once

#include "device_allocation.h"
#include "device_handle.h"

#include "compiler/vulkan_binary.h"
#include "mux/command_buffer.h"
#include "mux/executable.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <vector>
#include <volk.h>

namespace vulkan_target {

class Device;

/// What the executable's kernels share; kernels keep it alive.
struct LoadedProgram {
  Device &device;     ///< for launches, which need a live device
  SharedDevice owner; ///< for destruction, which may come after it
  compiler::VulkanBinary binary;
  VkShaderModule module = VK_NULL_HANDLE;
  /// The program-scope variables (null when the program has none).
  std::unique_ptr<DeviceAllocation> globals;

  LoadedProgram(Device &device, compiler::VulkanBinary binary)
      : device(device), owner(device_shared(device)), binary(std::move(binary)) {}
  ~LoadedProgram();
};

class Executable final : public mux::Executable {
public:
  static llvm::Expected<std::unique_ptr<Executable>> load(Device &device, std::span<const std::byte> bytes);
  llvm::Expected<std::unique_ptr<mux::Kernel>> createKernel(std::string_view name) override;

private:
  explicit Executable(std::shared_ptr<LoadedProgram> program) : program_(std::move(program)) {}
  std::shared_ptr<LoadedProgram> program_;
};

/// What selects one pipeline of a kernel.
struct PipelineKey {
  std::array<uint32_t, 3> localSize;
  std::vector<uint32_t> localArgSizes; ///< rounded bytes, in argument order
  auto operator<=>(const PipelineKey &) const = default;
};

class Kernel final : public mux::Kernel {
public:
  Kernel(std::shared_ptr<LoadedProgram> program, const compiler::VulkanKernelBinaryInfo &info);
  ~Kernel() override;

  const std::string &name() const override { return info_.name; }
  size_t maxWorkGroupSize() const override;
  size_t preferredWorkGroupSizeMultiple() const override;
  uint32_t subGroupSize(size_t localSize) const override;
  uint64_t localMemSize() const override { return info_.localMemSize; }
  uint64_t privateMemSize() const override { return 0; }
  llvm::Error prepareLaunch(std::span<const mux::KernelArg> args, const mux::NDRange &range) override;

  const compiler::VulkanKernelBinaryInfo &binaryInfo() const { return info_; }
  const LoadedProgram &program() const { return *program_; }
  VkPipelineLayout layout() const { return layout_; }
  /// The pipeline for `key`, created (once, thread-safely) on first use.
  llvm::Expected<VkPipeline> pipeline(const PipelineKey &key);
  /// The __local argument sizes of `args` as the pipeline key wants them.
  std::vector<uint32_t> localArgSizes(std::span<const mux::KernelArg> args) const;

  /// Checks `args` and `range` against the kernel and the device:
  /// InvalidArgument for a broken precondition, OutOfResources when the
  /// __local memory does not fit.
  llvm::Error validate(std::span<const mux::KernelArg> args, const mux::NDRange &range) const;

private:
  llvm::Error createLayout();

  std::shared_ptr<LoadedProgram> program_;
  const compiler::VulkanKernelBinaryInfo &info_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::mutex mutex_;
  std::map<PipelineKey, VkPipeline> pipelines_;
};

} // namespace vulkan_target
