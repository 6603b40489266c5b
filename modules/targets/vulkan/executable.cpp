#include "executable.h"

#include "device.h"
#include "launch_split.h"
#include "vulkan_result.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

namespace vulkan_target {
namespace {

namespace abi = compiler::abi::vulkan;

uint32_t roundedLocalSize(uint64_t size) {
  return static_cast<uint32_t>((size + abi::kLocalArgGranule - 1) / abi::kLocalArgGranule * abi::kLocalArgGranule);
}

llvm::Error checkBinary(const compiler::VulkanBinary &binary, uint32_t maxPushConstants) {
  for (const compiler::VulkanKernelBinaryInfo &kernel : binary.kernels) {
    const uint32_t block = kernel.argumentBufferSize ? kernel.argumentBufferSize : kernel.pushConstantSize;
    if (kernel.pushConstantSize > maxPushConstants)
      return mux::makeError(mux::Status::InvalidArgument,
                            "kernel '" + kernel.name + "' needs " + std::to_string(kernel.pushConstantSize) +
                                " bytes of push constants, the device has " + std::to_string(maxPushConstants));
    for (uint32_t field = 0; field < abi::kLaunchFieldCount; ++field) {
      uint32_t offset = kernel.launchFieldOffsets[field];
      if (offset != abi::kNotUsed &&
          uint64_t(offset) + abi::launchFieldSize(static_cast<abi::LaunchField>(field)) > kernel.pushConstantSize)
        return mux::makeError(mux::Status::InvalidArgument,
                              "kernel '" + kernel.name + "': a launch field lies outside its push constants");
    }
    for (const compiler::VulkanKernelArg &arg : kernel.args)
      if (arg.kind != compiler::VulkanKernelArg::Kind::Local && uint64_t(arg.offset) + arg.size > block)
        return mux::makeError(mux::Status::InvalidArgument,
                              "kernel '" + kernel.name + "': an argument lies outside its argument block");
  }
  return llvm::Error::success();
}

llvm::Expected<VkPipelineLayout> createLayout(VkDevice device, const compiler::VulkanKernelBinaryInfo &info) {
  VkPushConstantRange range{};
  range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  range.offset = 0;
  range.size = (info.pushConstantSize + 3) / 4 * 4;
  VkPipelineLayoutCreateInfo createInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  createInfo.pushConstantRangeCount = range.size ? 1 : 0;
  createInfo.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  if (llvm::Error error =
          check(vkCreatePipelineLayout(device, &createInfo, nullptr, &layout), "vkCreatePipelineLayout"))
    return error;
  return layout;
}

} // namespace

ShaderProgram::~ShaderProgram() {
  owner->noteDestroyed(); // pipelines and layouts, which recorded commands name
  if (owner->abandoned())
    return;
  VkDevice handle = owner->get();
  for (const std::unique_ptr<KernelPipelines> &kernel : kernels) {
    for (auto &[key, pipeline] : kernel->pipelines)
      vkDestroyPipeline(handle, pipeline, nullptr);
    if (kernel->layout != VK_NULL_HANDLE)
      vkDestroyPipelineLayout(handle, kernel->layout, nullptr);
  }
  if (module != VK_NULL_HANDLE)
    vkDestroyShaderModule(handle, module, nullptr);
}

LoadedProgram::~LoadedProgram() {
  owner->noteDestroyed(); // the program-scope variables, which launches name
}

llvm::Expected<std::shared_ptr<ShaderProgram>> loadShaderProgram(Device &device, compiler::VulkanBinary binary) {
  auto shaders = std::make_shared<ShaderProgram>(device, std::move(binary));
  VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = shaders->binary.spirv.size() * sizeof(uint32_t);
  moduleInfo.pCode = shaders->binary.spirv.data();
  if (llvm::Error error =
          check(vkCreateShaderModule(device.handle(), &moduleInfo, nullptr, &shaders->module), "vkCreateShaderModule"))
    return error;
  for (const compiler::VulkanKernelBinaryInfo &info : shaders->binary.kernels) {
    auto &kernel = shaders->kernels.emplace_back(std::make_unique<KernelPipelines>());
    if (auto layout = createLayout(device.handle(), info))
      kernel->layout = *layout;
    else
      llvm::consumeError(layout.takeError()); // createKernel reports it
  }
  return shaders;
}

llvm::Expected<std::unique_ptr<Executable>> Executable::load(Device &device, std::span<const std::byte> bytes) {
  auto shaders = device.shaderPrograms().getOrMake(bytes, [&]() -> llvm::Expected<std::shared_ptr<ShaderProgram>> {
    auto binary = compiler::decodeVulkanBinary(bytes);
    if (!binary)
      return binary.takeError();
    if (llvm::Error error = checkBinary(*binary, device.facts().properties.limits.maxPushConstantsSize))
      return error;
    if (binary->spirv.empty())
      return mux::makeError(mux::Status::InvalidArgument, "vulkan binary without a SPIR-V module");
    return loadShaderProgram(device, std::move(*binary));
  });
  if (!shaders)
    return shaders.takeError();
  auto program = std::make_shared<LoadedProgram>(device, std::move(*shaders));
  const compiler::VulkanBinary &loaded = program->binary();
  if (loaded.globalVariableSize) {
    if (loaded.globalVariableInit.size() > loaded.globalVariableSize)
      return mux::makeError(mux::Status::InvalidArgument, "program-scope initialiser larger than its block");
    auto globals = allocateDeviceAllocation(device, loaded.globalVariableSize, /*preferDeviceLocal=*/true);
    if (!globals)
      return globals.takeError();
    std::byte *host = (*globals)->host();
    if (!loaded.globalVariableInit.empty()) // data() may be null, which memcpy must not get
      std::memcpy(host, loaded.globalVariableInit.data(), loaded.globalVariableInit.size());
    std::memset(host + loaded.globalVariableInit.size(), 0,
                loaded.globalVariableSize - loaded.globalVariableInit.size());
    // Pointer initialisers: addresses in the block, known now.
    for (const compiler::VulkanGlobalRelocation &relocation : loaded.globalVariableRelocations) {
      uint64_t address = (*globals)->address() + relocation.target;
      std::memcpy(host + relocation.offset, &address, sizeof(address));
    }
    program->globals = std::move(*globals);
  }
  return std::unique_ptr<Executable>(new Executable(std::move(program)));
}

llvm::Expected<std::unique_ptr<mux::Kernel>> Executable::createKernel(std::string_view name) {
  const ShaderProgram &shaders = *program_->shaders;
  for (size_t i = 0; i < shaders.binary.kernels.size(); ++i) {
    const compiler::VulkanKernelBinaryInfo &info = shaders.binary.kernels[i];
    if (info.name != name)
      continue;
    auto kernel = std::make_unique<Kernel>(program_, info, *shaders.kernels[i]);
    if (kernel->layout() == VK_NULL_HANDLE)
      return mux::makeError(mux::Status::OutOfResources,
                            "vkCreatePipelineLayout failed for kernel '" + info.name + "'");
    return kernel;
  }
  return mux::makeError(mux::Status::InvalidArgument, "no kernel named '" + std::string(name) + "' in the program");
}

Kernel::Kernel(std::shared_ptr<LoadedProgram> program, const compiler::VulkanKernelBinaryInfo &info,
               KernelPipelines &pipelines)
    : program_(std::move(program)), info_(info), shared_(pipelines) {}

size_t Kernel::maxWorkGroupSize() const {
  const auto &required = info_.reqdWorkGroupSize;
  if (required[0])
    return size_t(required[0]) * std::max(required[1], 1u) * std::max(required[2], 1u);
  return program_->device.info().maxWorkGroupSize;
}

size_t Kernel::preferredWorkGroupSizeMultiple() const { return program_->device.info().preferredWorkGroupSizeMultiple; }

uint32_t Kernel::subGroupSize(size_t localSize) const {
  const uint32_t size = std::max(1u, program_->device.facts().properties11.subgroupSize);
  return static_cast<uint32_t>(std::min<size_t>(size, std::max<size_t>(localSize, 1)));
}

std::vector<uint32_t> Kernel::localArgSizes(std::span<const mux::KernelArg> args) const {
  std::vector<uint32_t> sizes;
  for (size_t i = 0; i < args.size() && i < info_.args.size(); ++i)
    if (info_.args[i].kind == compiler::VulkanKernelArg::Kind::Local)
      sizes.push_back(roundedLocalSize(args[i].localSize));
  return sizes;
}

llvm::Error Kernel::validate(std::span<const mux::KernelArg> args, const mux::NDRange &range) const {
  const mux::DeviceInfo &device = program_->device.info();
  auto invalid = [&](std::string message) {
    return mux::makeError(mux::Status::InvalidArgument, "kernel '" + info_.name + "': " + message);
  };
  if (range.dimensions < 1 || range.dimensions > 3)
    return invalid("work dimension " + std::to_string(range.dimensions) + " is not 1, 2 or 3");
  uint64_t groupSize = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    const bool used = d < range.dimensions;
    const size_t local = used ? range.localSize[d] : 1;
    if (local == 0 || local > device.maxWorkItemSizes[d])
      return invalid("local size " + std::to_string(local) + " in dimension " + std::to_string(d) + " is out of range");
    groupSize *= local;
    const uint64_t global = used ? range.globalSize[d] : 1;
    const uint64_t offset = used ? range.globalOffset[d] : 0;
    // The launch fields are 32-bit (vulkan_kernel_abi.h).
    if (global > UINT32_MAX || offset > UINT32_MAX - global)
      return mux::makeError(mux::Status::OutOfResources, "kernel '" + info_.name +
                                                             "': global offset + size beyond 2^32 in dimension " +
                                                             std::to_string(d));
    if (info_.reqdWorkGroupSize[0] && local != std::max(info_.reqdWorkGroupSize[d], 1u))
      return invalid("local size differs from reqd_work_group_size");
  }
  if (groupSize > maxWorkGroupSize())
    return invalid("work-group of " + std::to_string(groupSize) + " work-items exceeds " +
                   std::to_string(maxWorkGroupSize()));
  if (args.size() != info_.args.size())
    return invalid(std::to_string(args.size()) + " arguments given, it takes " + std::to_string(info_.args.size()));
  uint64_t localBytes = info_.localMemSize;
  for (size_t i = 0; i < args.size(); ++i) {
    const mux::KernelArg &arg = args[i];
    const compiler::VulkanKernelArg &expected = info_.args[i];
    const std::string which = "argument " + std::to_string(i);
    switch (expected.kind) {
    case compiler::VulkanKernelArg::Kind::Buffer:
      if (arg.kind != mux::KernelArg::Kind::Buffer)
        return invalid(which + " must be a buffer");
      if (arg.buffer && (!arg.buffer->boundMemory() || arg.offset > arg.buffer->size()))
        return invalid(which + ": unbound buffer or offset beyond its end");
      if (arg.texels && !arg.texels->boundMemory())
        return invalid(which + ": unbound texel buffer");
      break;
    case compiler::VulkanKernelArg::Kind::Value:
      if (arg.kind != mux::KernelArg::Kind::Value || arg.value.size() != expected.size)
        return invalid(which + " must be a value of " + std::to_string(expected.size) + " bytes");
      break;
    case compiler::VulkanKernelArg::Kind::Local:
      if (arg.kind != mux::KernelArg::Kind::Local || arg.localSize == 0)
        return invalid(which + " must be a __local size");
      // Padded to the argument's alignment, as the kernel lays it out.
      localBytes = llvm::alignTo(localBytes, std::max<uint32_t>(expected.size, 1));
      localBytes += roundedLocalSize(std::min<uint64_t>(arg.localSize, UINT32_MAX));
      break;
    }
  }
  if (localBytes > device.localMemSize)
    return mux::makeError(mux::Status::OutOfResources,
                          "kernel '" + info_.name + "' needs " + std::to_string(localBytes) +
                              " bytes of __local memory, the device has " + std::to_string(device.localMemSize));
  return llvm::Error::success();
}

llvm::Error Kernel::prepareLaunch(std::span<const mux::KernelArg> args, const mux::NDRange &range) {
  if (llvm::Error error = validate(args, range))
    return error;
  std::array<uint64_t, 3> global{1, 1, 1}, local{1, 1, 1};
  for (uint32_t d = 0; d < range.dimensions; ++d) {
    global[d] = range.globalSize[d];
    local[d] = range.localSize[d];
  }
  if (global[0] * global[1] * global[2] == 0)
    return llvm::Error::success();
  const std::vector<uint32_t> localArgs = localArgSizes(args);
  for (const auto &localSize : pieceLocalSizes(global, local))
    if (auto pipeline = this->pipeline({localSize, localArgs}); !pipeline)
      return pipeline.takeError();
  return llvm::Error::success();
}

llvm::Expected<VkPipeline> Kernel::pipeline(const PipelineKey &key) {
  {
    std::lock_guard lock(shared_.mutex);
    if (auto it = shared_.pipelines.find(key); it != shared_.pipelines.end())
      return it->second;
  }
  // Specialization constants: the local size, each __local argument's byte
  // size under the id the binary gives it, and the device's scratch area
  // for failed accesses (two words).
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint32_t> values;
  for (uint32_t d = 0; d < 3; ++d) {
    entries.push_back({abi::kLocalSizeXId + d, static_cast<uint32_t>(values.size() * 4), 4});
    values.push_back(key.localSize[d]);
  }
  size_t localIndex = 0;
  for (const compiler::VulkanKernelArg &arg : info_.args) {
    if (arg.kind != compiler::VulkanKernelArg::Kind::Local)
      continue;
    entries.push_back({arg.specConstantId, static_cast<uint32_t>(values.size() * 4), 4});
    values.push_back(localIndex < key.localArgSizes.size() ? key.localArgSizes[localIndex] : abi::kLocalArgGranule);
    ++localIndex;
  }
  const uint64_t scratch = program_->device.accessScratchAddress();
  entries.push_back({abi::kAccessScratchSpecId, static_cast<uint32_t>(values.size() * 4), 8});
  values.push_back(static_cast<uint32_t>(scratch));
  values.push_back(static_cast<uint32_t>(scratch >> 32));
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = static_cast<uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = values.size() * 4;
  specialization.pData = values.data();

  Device &device = program_->device;
  const PhysicalDevice &facts = device.facts();
  VkComputePipelineCreateInfo createInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  createInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  createInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  createInfo.stage.module = program_->shaders->module;
  createInfo.stage.pName = info_.name.c_str();
  createInfo.stage.pSpecializationInfo = &specialization;
  createInfo.layout = shared_.layout;
  // Sub-group kernels run with the sub-group size the device reported, and
  // with full sub-groups where the first dimension allows.
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo requiredSize{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  const uint32_t subgroupSize = facts.properties11.subgroupSize;
  if (info_.flags & compiler::VulkanKernelUsesSubgroups) {
    if (facts.features13.subgroupSizeControl &&
        (facts.properties13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      requiredSize.requiredSubgroupSize = subgroupSize;
      createInfo.stage.pNext = &requiredSize;
    }
    if (facts.features13.computeFullSubgroups && subgroupSize && key.localSize[0] % subgroupSize == 0)
      createInfo.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  }
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateComputePipelines(device.handle(), device.pipelineCache().handle(), 1,
                                                         &createInfo, nullptr, &pipeline),
                                "vkCreateComputePipelines for kernel '" + info_.name + "'"))
    return error;
  std::lock_guard lock(shared_.mutex);
  auto [it, inserted] = shared_.pipelines.emplace(key, pipeline);
  if (!inserted) // another thread made it meanwhile
    vkDestroyPipeline(device.handle(), pipeline, nullptr);
  return it->second;
}

} // namespace vulkan_target
