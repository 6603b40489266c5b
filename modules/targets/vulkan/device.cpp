#include "device.h"

#include "command_buffer.h"
#include "device_allocation.h"
#include "device_info.h"
#include "executable.h"
#include "fp64_probe.h"
#include "memory.h"
#include "query_pool.h"
#include "sync.h"
#include "vulkan_result.h"

#include "compiler/abi/vulkan_kernel_abi.h"
#include "compiler/spirv/vulkan_target.h"
#include "mux/support/cpu_sync.h"
#include "mux/support/host_command_buffer.h"
#include "mux/support/log.h"
#include "mux/support/system_memory.h"
#include "llvm/Support/MathExtras.h"

#include <bit>
#include <ctime>

namespace vulkan_target {
namespace {

/// How long a GPU device's completion thread polls before it blocks
/// (Queue's constructor says why). On an H100 a blocking wait added about
/// 20 µs to a kernel's round trip (an empty one: 37 µs instead of 16 from
/// submission to the fence seen); a kernel of 0.3 ms waited for, launch
/// after launch, lost 135 µs each with 0.2 ms of polling and 73 µs with
/// 5 ms. 1 ms covers the kernels whose launch cost is felt.
constexpr std::chrono::microseconds kCompletionSpin{1000};

} // namespace

llvm::Expected<std::unique_ptr<Device>> Device::create(std::shared_ptr<Instance> instance, PhysicalDevice facts) {
  chainFeatures(facts);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = facts.computeQueueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo createInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  createInfo.pNext = &facts.features;
  createInfo.queueCreateInfoCount = 1;
  createInfo.pQueueCreateInfos = &queueInfo;
  createInfo.enabledExtensionCount = static_cast<uint32_t>(facts.enabledExtensions.size());
  createInfo.ppEnabledExtensionNames = facts.enabledExtensions.data();
  VkDevice handle = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateDevice(facts.handle, &createInfo, nullptr, &handle),
                                std::string("vkCreateDevice for '") + facts.properties.deviceName + "'"))
    return error;
  std::unique_ptr<Device> device(new Device(std::move(instance), std::move(facts), handle));
  if (llvm::Error error = device->initialize())
    return error;
  return device;
}

Device::Device(std::shared_ptr<Instance> instance, PhysicalDevice facts, VkDevice device)
    : instance_(instance), facts_(std::move(facts)), device_(device),
      shared_(std::make_shared<DeviceHandle>(std::move(instance), device)) {
  chainFeatures(facts_); // the copy's own chain
  info_ = describeDevice(facts_);
}

llvm::Error Device::initialize() {
  // Which memory types our buffers accept (the same for every size).
  VkBufferCreateInfo probeInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  probeInfo.size = 4096;
  probeInfo.usage = kBufferUsage;
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  if (facts_.hostImportAlignment)
    probeInfo.pNext = &external; // as Buffer::create
  VkBuffer probe = VK_NULL_HANDLE;
  if (llvm::Error error = check(vkCreateBuffer(device_, &probeInfo, nullptr, &probe), "vkCreateBuffer"))
    return error;
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device_, probe, &requirements);
  vkDestroyBuffer(device_, probe, nullptr);
  bufferMemoryTypeBits_ = requirements.memoryTypeBits;

  namespace abi = compiler::abi::vulkan;
  auto scratch = allocateDeviceAllocation(*this, abi::kAccessScratchSize + abi::kAccessScratchAlignment,
                                          /*preferDeviceLocal=*/true);
  if (!scratch)
    return scratch.takeError();
  accessScratch_ = std::move(*scratch);

  pipelineCache_ = std::make_unique<PipelineCache>(device_, facts_);
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device_, facts_.computeQueueFamily, 0, &queue);
  if (facts_.features.features.shaderFloat64) {
    // Before the queue exists: the probe submits on the VkQueue itself.
    auto measured = measureDoubleArithmetic(*this, queue);
    if (!measured) {
      mux::support::log(mux::support::LogLevel::Info, "vulkan",
                        "'" + info_.name + "': no cl_khr_fp64, the double arithmetic probe failed: " +
                            llvm::toString(measured.takeError()));
    } else {
      facts_.doubleDenormalsMeasured = measured->denormalsKept;
      facts_.doubleFmaFused = measured->fmaFused;
      info_ = describeDevice(facts_);
      if (!info_.fp64)
        mux::support::log(mux::support::LogLevel::Info, "vulkan",
                          "'" + info_.name +
                              "': no cl_khr_fp64: double denormals are flushed (measured; Vulkan does not promise "
                              "to keep them)");
      else if (!measured->fmaFused)
        mux::support::log(mux::support::LogLevel::Info, "vulkan",
                          "'" + info_.name +
                              "': double Fma rounds twice (measured; Vulkan allows it): fma is computed in integer "
                              "arithmetic");
    }
  }
  clock_ = std::make_unique<DeviceClock>(device_, facts_);
  if (llvm::Error error = clock_->calibrate(queue, info_.name))
    return error;
  const auto spin = info_.type == mux::DeviceType::CPU ? std::chrono::microseconds(0) : kCompletionSpin;
  auto created = Queue::create(shared_, queue, info_.name, *clock_, spin, activity());
  if (!created)
    return created.takeError();
  queue_ = std::move(*created);
  return llvm::Error::success();
}

Device::~Device() {
  queue_.reset();
  if (!shared_->abandoned())
    vkDeviceWaitIdle(device_);
  compiler_.reset();
  shaderPrograms_.clear();
  pipelineCache_.reset();
  // The VkDevice goes with the last object made from it (shared_).
}

uint64_t Device::accessScratchAddress() const {
  return llvm::alignTo(accessScratch_->address(), compiler::abi::vulkan::kAccessScratchAlignment);
}

compiler::Target &Device::compiler() {
  // Created on first use: enumerating devices does not start LLVM.
  std::call_once(compilerOnce_, [&] { compiler_ = compiler::createVulkanTarget(compilerConfig(facts_, info_)); });
  return *compiler_;
}

int Device::chooseMemoryType(uint32_t properties, VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < facts_.memory.memoryTypeCount; ++i) {
    if (!(bufferMemoryTypeBits_ & (1u << i)))
      continue;
    if ((memoryProperties(i) & properties) != properties)
      continue;
    if ((facts_.memory.memoryTypes[i].propertyFlags & preferred) == preferred)
      return static_cast<int>(i); // Vulkan lists better types first
    if (fallback < 0)
      fallback = static_cast<int>(i);
  }
  return fallback;
}

uint32_t Device::memoryProperties(uint32_t index) const {
  const VkMemoryPropertyFlags flags = facts_.memory.memoryTypes[index].propertyFlags;
  uint32_t properties = 0;
  if (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
    properties |= mux::MemoryDeviceLocal;
  if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
    properties |= mux::MemoryHostVisible;
  if (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
    properties |= mux::MemoryHostCoherent;
  if (flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
    properties |= mux::MemoryHostCached;
  return properties;
}

llvm::Expected<std::unique_ptr<mux::Memory>> Device::allocateMemory(uint64_t size, uint32_t properties,
                                                                    uint64_t alignment) {
  if (size == 0)
    return mux::makeError(mux::Status::InvalidArgument, "allocation of 0 bytes");
  if (alignment && !std::has_single_bit(alignment))
    return mux::makeError(mux::Status::InvalidArgument,
                          "alignment " + std::to_string(alignment) + " is not a power of two");
  if (size > info_.maxMemAllocSize)
    return mux::makeError(mux::Status::InvalidArgument, "allocation of " + std::to_string(size) +
                                                            " bytes exceeds the largest of " +
                                                            std::to_string(info_.maxMemAllocSize));
  // A Vulkan driver on the CPU (lavapipe) takes system RAM, commits it only
  // when touched and does not hold to its heap size: refuse what the system
  // could not commit, as the host target does, rather than be killed for it.
  if (facts_.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && size >= mux::support::kSystemMemoryCheckedBytes) {
    const uint64_t allocated = shared_->allocatedBytes();
    const uint64_t resident = mux::support::processPrivateResidentBytes();
    if (!mux::support::systemMemoryCanHold(size, allocated > resident ? allocated - resident : 0))
      return mux::makeError(mux::Status::OutOfMemory, "the system cannot commit " + std::to_string(size) +
                                                          " more bytes to '" + info_.name + "' (" +
                                                          std::to_string(allocated) + " bytes allocated on it)");
  }
  // Host-visible memory the host reads prefers a cached type; other memory
  // prefers device-local.
  VkMemoryPropertyFlags preferred = (properties & mux::MemoryHostVisible) && !(properties & mux::MemoryDeviceLocal)
                                        ? 0
                                        : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  int type = chooseMemoryType(properties, preferred);
  if (type < 0)
    return mux::makeError(mux::Status::Unsupported,
                          "device '" + info_.name + "' has no memory type with the requested properties");
  auto memory =
      Memory::allocate(*this, size, static_cast<uint32_t>(type), std::max<uint64_t>(alignment, info_.memBaseAddrAlign));
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<mux::Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<mux::Memory>> Device::wrapHostMemory(void *pointer, uint64_t size) {
  if (!pointer || size == 0)
    return mux::makeError(mux::Status::InvalidArgument, "wrap of a null or empty host range");
  auto memory = Memory::importHost(*this, pointer, size);
  if (!memory)
    return memory.takeError();
  return std::unique_ptr<mux::Memory>(std::move(*memory));
}

llvm::Expected<std::unique_ptr<mux::Buffer>> Device::createBuffer(uint64_t size) {
  auto buffer = Buffer::create(*this, size);
  if (!buffer)
    return buffer.takeError();
  return std::unique_ptr<mux::Buffer>(std::move(*buffer));
}

llvm::Expected<std::unique_ptr<mux::CommandBuffer>> Device::createCommandBuffer() {
  auto commandBuffer = CommandBuffer::create(*this);
  if (!commandBuffer)
    return commandBuffer.takeError();
  return std::unique_ptr<mux::CommandBuffer>(std::move(*commandBuffer));
}

llvm::Expected<std::unique_ptr<mux::QueryPool>> Device::createQueryPool(uint32_t count) {
  auto pool = QueryPool::create(*this, count);
  if (!pool)
    return pool.takeError();
  return std::unique_ptr<mux::QueryPool>(std::move(*pool));
}

llvm::Expected<std::unique_ptr<mux::Semaphore>> Device::createSemaphore() {
  auto semaphore = Semaphore::create(shared_);
  if (!semaphore)
    return semaphore.takeError();
  return std::unique_ptr<mux::Semaphore>(std::move(*semaphore));
}

llvm::Expected<std::unique_ptr<mux::Fence>> Device::createFence() {
  // Signalled by the queue's completion thread, which knows the status.
  return std::make_unique<mux::support::CpuFence>();
}

llvm::Expected<std::unique_ptr<mux::Executable>> Device::createExecutable(std::span<const std::byte> binary) {
  auto executable = Executable::load(*this, binary);
  if (!executable)
    return executable.takeError();
  return std::unique_ptr<mux::Executable>(std::move(*executable));
}

uint64_t Device::timestampNs() const { return mux::support::hostClockNs(); }

} // namespace vulkan_target
