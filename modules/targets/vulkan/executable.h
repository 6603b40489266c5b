// A loaded compiler/vulkan_binary.h container: one VkShaderModule for every
// kernel, the program-scope variable block, and per kernel a pipeline layout
// and the compute pipelines made for each local size and set of __local
// argument sizes (specialization constants, vulkan_kernel_abi.h). The
// layout and pipelines belong to the loaded program, not to a mux::Kernel:
// every kernel object made for one of its kernels (each cl_kernel has its
// own) uses the same ones, so a new kernel object does not make the driver
// create and compile its pipelines again (on lavapipe that took 17 ms a
// kernel object, and lavapipe keeps heap memory for every pipeline ever
// created: doc/reliability.md). Programs loaded from equal binaries share
// the module, layouts and pipelines too (ShaderProgram).
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

/// What selects one pipeline of a kernel.
struct PipelineKey {
  std::array<uint32_t, 3> localSize;
  std::vector<uint32_t> localArgSizes; ///< rounded bytes, in argument order
  auto operator<=>(const PipelineKey &) const = default;
};

/// The pipeline layout and pipelines of one kernel of a loaded program.
struct KernelPipelines {
  VkPipelineLayout layout = VK_NULL_HANDLE; ///< null when its creation failed
  std::mutex mutex;                         ///< guards `pipelines`
  std::map<PipelineKey, VkPipeline> pipelines;
};

/// What every loaded program with the same binary shares (programs built
/// from one source in several contexts, or again after a release): the
/// decoded binary, its VkShaderModule, and per kernel the pipeline layout
/// and pipelines. The device keeps the most recently used ones alive
/// (Device::shaderPrograms()), so building a program again does not make
/// the driver compile its pipelines again.
struct ShaderProgram {
  Device &device;     ///< for pipeline creation, which needs a live device
  SharedDevice owner; ///< for destruction, which may come after it
  compiler::VulkanBinary binary;
  VkShaderModule module = VK_NULL_HANDLE;
  /// One per kernel of `binary`, in its order.
  std::vector<std::unique_ptr<KernelPipelines>> kernels;

  ShaderProgram(Device &device, compiler::VulkanBinary binary)
      : device(device), owner(device_shared(device)), binary(std::move(binary)) {}
  ~ShaderProgram();
};

/// What the executable's kernels share; kernels keep it alive. Its
/// program-scope variables are its own even when its shaders are shared.
struct LoadedProgram {
  Device &device;     ///< for launches, which need a live device
  SharedDevice owner; ///< for destruction, which may come after it
  std::shared_ptr<ShaderProgram> shaders;
  /// The program-scope variables (null when the program has none).
  std::unique_ptr<DeviceAllocation> globals;

  LoadedProgram(Device &device, std::shared_ptr<ShaderProgram> shaders)
      : device(device), owner(device_shared(device)), shaders(std::move(shaders)) {}
  ~LoadedProgram();
  const compiler::VulkanBinary &binary() const { return shaders->binary; }
};

/// Loads the shader part of a binary (shared through the device's cache).
llvm::Expected<std::shared_ptr<ShaderProgram>> loadShaderProgram(Device &device, compiler::VulkanBinary binary);

class Executable final : public mux::Executable {
public:
  static llvm::Expected<std::unique_ptr<Executable>> load(Device &device, std::span<const std::byte> bytes);
  llvm::Expected<std::unique_ptr<mux::Kernel>> createKernel(std::string_view name) override;

private:
  explicit Executable(std::shared_ptr<LoadedProgram> program) : program_(std::move(program)) {}
  std::shared_ptr<LoadedProgram> program_;
};

class Kernel final : public mux::Kernel {
public:
  Kernel(std::shared_ptr<LoadedProgram> program, const compiler::VulkanKernelBinaryInfo &info,
         KernelPipelines &pipelines);

  const std::string &name() const override { return info_.name; }
  size_t maxWorkGroupSize() const override;
  size_t preferredWorkGroupSizeMultiple() const override;
  uint32_t subGroupSize(size_t localSize) const override;
  uint64_t localMemSize() const override { return info_.localMemSize; }
  uint64_t privateMemSize() const override { return 0; }
  llvm::Error prepareLaunch(std::span<const mux::KernelArg> args, const mux::NDRange &range) override;

  const compiler::VulkanKernelBinaryInfo &binaryInfo() const { return info_; }
  const LoadedProgram &program() const { return *program_; }
  VkPipelineLayout layout() const { return shared_.layout; }
  /// The pipeline for `key`, created (once, thread-safely) on first use.
  llvm::Expected<VkPipeline> pipeline(const PipelineKey &key);
  /// The __local argument sizes of `args` as the pipeline key wants them.
  std::vector<uint32_t> localArgSizes(std::span<const mux::KernelArg> args) const;

  /// Checks `args` and `range` against the kernel and the device:
  /// InvalidArgument for a broken precondition, OutOfResources when the
  /// __local memory does not fit.
  llvm::Error validate(std::span<const mux::KernelArg> args, const mux::NDRange &range) const;

private:
  std::shared_ptr<LoadedProgram> program_;
  const compiler::VulkanKernelBinaryInfo &info_;
  KernelPipelines &shared_; ///< owned by program_
};

} // namespace vulkan_target
