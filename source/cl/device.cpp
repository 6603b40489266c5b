// Devices and the device entry points: clGetDeviceIDs, clGetDeviceInfo (every
// OpenCL 3.0 query, answered from mux::DeviceInfo), sub-devices and timers.
#include "device.h"

#include "command_buffer.h"
#include "image_limits.h"
#include "info.h"
#include "platform.h"

#include "CL/cl_khr_command_buffer_next.h"

#include "compiler/target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#ifndef POLYMUX_VERSION
#define POLYMUX_VERSION "0.0.0"
#endif

namespace polymux::cl {
namespace {

cl_name_version nameVersion(std::string_view name, cl_version version) {
  cl_name_version entry{};
  entry.version = version;
  std::memcpy(entry.name, name.data(), std::min(name.size(), size_t(CL_NAME_VERSION_MAX_NAME_SIZE - 1)));
  return entry;
}

/// Versions of the Khronos extensions whose current revision is not 1.0.0.
cl_version extensionVersion(std::string_view name) {
  if (name == "cl_khr_integer_dot_product")
    return CL_MAKE_VERSION(2, 0, 0);
  // Provisional revisions (CL/cl_khr_command_buffer_next.h declares what the
  // installed headers may lack): see doc/architecture.md, "Command buffers".
  if (name == "cl_khr_command_buffer")
    return CL_MAKE_VERSION(0, 9, 8);
  if (name == "cl_khr_command_buffer_mutable_dispatch")
    return CL_MAKE_VERSION(0, 9, 5);
  return CL_MAKE_VERSION(1, 0, 0);
}

bool isNonZero(const std::array<uint8_t, 16> &bytes) {
  return std::any_of(bytes.begin(), bytes.end(), [](uint8_t byte) { return byte != 0; });
}

cl_device_fp_config fpConfigBits(const mux::FpConfig &config) {
  cl_device_fp_config bits = 0;
  if (config.denorms)
    bits |= CL_FP_DENORM;
  if (config.infNan)
    bits |= CL_FP_INF_NAN;
  if (config.roundToNearest)
    bits |= CL_FP_ROUND_TO_NEAREST;
  if (config.roundToZero)
    bits |= CL_FP_ROUND_TO_ZERO;
  if (config.roundToInf)
    bits |= CL_FP_ROUND_TO_INF;
  if (config.fma)
    bits |= CL_FP_FMA;
  if (config.correctlyRoundedDivideSqrt)
    bits |= CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
  if (config.softFloat)
    bits |= CL_FP_SOFT_FLOAT;
  return bits;
}

/// The driver UUID (cl_khr_device_uuid): stable for one Polymux version
/// and, where Polymux drives the device through another driver, that
/// driver's version (a change of either may change what is compatible).
std::array<uint8_t, CL_UUID_SIZE_KHR> driverUuid(const mux::DeviceInfo &info) {
  llvm::MD5 hash;
  hash.update("Polymux " POLYMUX_VERSION);
  if (isNonZero(info.underlyingDriverUuid))
    hash.update(llvm::ArrayRef<uint8_t>(info.underlyingDriverUuid));
  llvm::MD5::MD5Result result = hash.final();
  std::array<uint8_t, CL_UUID_SIZE_KHR> uuid{};
  std::copy_n(result.begin(), uuid.size(), uuid.begin());
  return uuid;
}

constexpr cl_version openclVersion = CL_MAKE_VERSION(3, 0, 0);
constexpr const char *deviceVersionString = "OpenCL 3.0 Polymux";
constexpr const char *openclCVersionString = "OpenCL C 1.2 Polymux";

// mux::atomic_capability mirrors the OpenCL bits, so the device's sets are
// reported as they are.
static_assert(mux::atomic_capability::OrderRelaxed == CL_DEVICE_ATOMIC_ORDER_RELAXED &&
              mux::atomic_capability::OrderAcqRel == CL_DEVICE_ATOMIC_ORDER_ACQ_REL &&
              mux::atomic_capability::OrderSeqCst == CL_DEVICE_ATOMIC_ORDER_SEQ_CST &&
              mux::atomic_capability::ScopeWorkItem == CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM &&
              mux::atomic_capability::ScopeWorkGroup == CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP &&
              mux::atomic_capability::ScopeDevice == CL_DEVICE_ATOMIC_SCOPE_DEVICE &&
              mux::atomic_capability::ScopeAllDevices == CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);

constexpr cl_command_queue_properties hostQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

} // namespace

Device::Device(Platform &platform, mux::Device &device, const std::array<uint8_t, 16> &uuid)
    : platform_(platform), mux_(device), uuid_(uuid) {
  const mux::DeviceInfo &deviceInfo = info();
  auto add = [&](std::string_view name) {
    if (!hasExtension(name))
      extensions_.push_back(nameVersion(name, extensionVersion(name)));
  };
  for (const std::string &name : deviceInfo.extensions)
    add(name);
  // Implied by what the device reports; OpenCL C 3.0 requires the feature
  // macro and the extension to agree.
  if (deviceInfo.fp64)
    add("cl_khr_fp64");
  if (deviceInfo.fp16)
    add("cl_khr_fp16");
  // Implemented by this layer from DeviceInfo::uuid.
  if (isNonZero(uuid_))
    add("cl_khr_device_uuid");
  // API-layer extensions every device has (doc/extensions/).
  add("cl_polymux_mutable_mem_flags");
  add("cl_polymux_const_kernel_args");
  // Implemented by the shared front end and this layer, for every device.
  add("cl_polymux_kernel_arg_entities");
  // SPIR-V programs, where the device's compiler reads them.
  ilVersion_ = device.compiler().ilVersions();
  for (llvm::StringRef version : llvm::split(ilVersion_, ' ')) {
    unsigned major = 0, minor = 0;
    if (version.consume_front("SPIR-V_") && !version.consumeInteger(10, major) && version.consume_front(".") &&
        !version.consumeInteger(10, minor))
      ils_.push_back(nameVersion("SPIR-V", CL_MAKE_VERSION(major, minor, 0)));
  }
  if (!ils_.empty()) {
    add("cl_khr_il_program");
    // The translator reads NoSignedWrap/NoUnsignedWrap into nsw/nuw and
    // LinkOnceODR into linkonce_odr (kept as weak_odr for clLinkProgram);
    // CTS test_spirv_new passes their tests on every target.
    add("cl_khr_spirv_no_integer_wrap_decoration");
    add("cl_khr_spirv_linkonce_odr");
  }
  // Implemented by this layer's scheduler, for every device.
  add("cl_polymux_async_error_model");
  // Implemented by this layer over the HAL's DeviceActivity and queue.
  add("cl_polymux_device_status");
  // Implemented by this layer over mux command buffers dispatched repeatedly.
  add("cl_khr_command_buffer");
  // Kernel launches of a command buffer built again and recorded anew.
  add("cl_khr_command_buffer_mutable_dispatch");
}

cl_device_type Device::type() const {
  switch (info().type) {
  case mux::DeviceType::CPU:
    return CL_DEVICE_TYPE_CPU;
  case mux::DeviceType::GPU:
    return CL_DEVICE_TYPE_GPU;
  case mux::DeviceType::Accelerator:
    return CL_DEVICE_TYPE_ACCELERATOR;
  case mux::DeviceType::Custom:
    return CL_DEVICE_TYPE_CUSTOM;
  }
  return CL_DEVICE_TYPE_CUSTOM;
}

bool Device::isDefault() const { return platform_.defaultDevice() == this; }

bool Device::hasExtension(std::string_view name) const {
  return std::any_of(extensions_.begin(), extensions_.end(),
                     [&](const cl_name_version &extension) { return name == extension.name; });
}

namespace {

bool hasFeature(const mux::DeviceInfo &info, std::string_view feature) {
  return std::find(info.openclCFeatures.begin(), info.openclCFeatures.end(), feature) != info.openclCFeatures.end();
}

cl_int getDeviceInfo(Device &device, cl_device_info param, size_t size, void *value, size_t *sizeRet) {
  const mux::DeviceInfo &info = device.info();
  auto scalar = [&](auto v) { return writeInfo(size, value, sizeRet, v); };
  auto string = [&](std::string_view v) { return writeInfoString(size, value, sizeRet, v); };
  auto array = [&](auto span) { return writeInfoArray(size, value, sizeRet, span); };
  auto uintValue = [&](auto v) { return scalar(cl_uint(v)); };
  auto ulongValue = [&](auto v) { return scalar(cl_ulong(v)); };
  auto sizeValue = [&](auto v) { return scalar(size_t(v)); };
  auto boolValue = [&](bool v) { return scalar(cl_bool(v ? CL_TRUE : CL_FALSE)); };
  auto vectorWidth = [&](size_t index, bool native) {
    const auto &widths = native ? info.nativeVectorWidth : info.preferredVectorWidth;
    // Widths of unsupported types must be zero whatever the target filled in.
    if ((index == 5 && !info.fp64) || (index == 6 && !info.fp16))
      return uintValue(0);
    return uintValue(widths[index]);
  };
  static const cl_name_version openclCVersions[] = {
      {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
      {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
      {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
      {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
  };

  switch (param) {
  // Identity.
  case CL_DEVICE_TYPE:
    // One type: CL_DEVICE_TYPE_DEFAULT is what clGetDeviceIDs matches the
    // default device with, not a type a device has.
    return scalar(cl_device_type(device.type()));
  case CL_DEVICE_VENDOR_ID:
    return uintValue(info.vendorId);
  case CL_DEVICE_NAME:
    return string(info.name);
  case CL_DEVICE_VENDOR:
    return string(info.vendor);
  case CL_DRIVER_VERSION: {
    // A program binary loads only into the compiler identity that produced
    // it (CL_INVALID_BINARY otherwise), and that identity changes with LLVM,
    // the builtins library or the CPU. Binary caches keyed on the driver
    // version, such as pyopencl's, must see it change too, or they offer
    // stale binaries after an upgrade.
    std::string version = info.driverVersion.empty() ? std::string(POLYMUX_VERSION) : info.driverVersion;
    return string(version + " (compiler " + llvm::utohexstr(llvm::xxh3_64bits(device.mux().compiler().identity())) +
                  ")");
  }
  case CL_DEVICE_PROFILE:
    return string("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return string(deviceVersionString);
  case CL_DEVICE_NUMERIC_VERSION:
    return scalar(cl_version(openclVersion));
  case CL_DEVICE_OPENCL_C_VERSION:
    return string(openclCVersionString);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return array(std::span<const cl_name_version>(openclCVersions));
  case CL_DEVICE_OPENCL_C_FEATURES: {
    llvm::SmallVector<cl_name_version, 2> features;
    if (info.int64)
      features.push_back(nameVersion("__opencl_c_int64", openclVersion));
    if (info.fp64)
      features.push_back(nameVersion("__opencl_c_fp64", openclVersion));
    if (info.fp16)
      features.push_back(nameVersion("__opencl_c_fp16", openclVersion));
    for (const std::string &feature : info.openclCFeatures)
      features.push_back(nameVersion(feature.c_str(), openclVersion));
    return array(std::span<const cl_name_version>(features));
  }
  case CL_DEVICE_EXTENSIONS: {
    std::string names;
    for (const cl_name_version &extension : device.extensions()) {
      if (!names.empty())
        names += ' ';
      names += extension.name;
    }
    return string(names);
  }
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return array(std::span<const cl_name_version>(device.extensions()));
  case CL_DEVICE_PLATFORM:
    return scalar(device.platform().handle());
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    return boolValue(true);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    return string("v0000-01-01-00");
  case CL_DEVICE_BUILT_IN_KERNELS:
    return string("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return array(std::span<const cl_name_version>());
  case CL_DEVICE_ILS_WITH_VERSION:
    return array(std::span<const cl_name_version>(device.ils()));
  case CL_DEVICE_IL_VERSION:
    return string(device.ilVersion());
  case CL_DEVICE_REFERENCE_COUNT:
    return uintValue(device.refCount());

  // Execution resources.
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return uintValue(info.computeUnits);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return uintValue(info.maxClockMHz);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return uintValue(info.maxWorkItemDimensions);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    return array(std::span<const size_t>(info.maxWorkItemSizes.data(),
                                         std::min<size_t>(info.maxWorkItemDimensions, info.maxWorkItemSizes.size())));
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return sizeValue(info.maxWorkGroupSize);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return sizeValue(std::max<size_t>(1, info.preferredWorkGroupSizeMultiple));
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    return uintValue(device.supportsSubGroups() ? info.maxNumSubGroups : 0);
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    return boolValue(device.supportsSubGroups() && info.subGroupIndependentForwardProgress);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    return boolValue(true);
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    return boolValue(hasFeature(info, "__opencl_c_work_group_collective_functions"));
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    return boolValue(hasFeature(info, "__opencl_c_generic_address_space"));
  case CL_DEVICE_PIPE_SUPPORT:
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return boolValue(false);
  case CL_DEVICE_IMAGE_SUPPORT:
    return boolValue(info.images);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return scalar(cl_device_exec_capabilities(CL_EXEC_KERNEL));
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return sizeValue(info.profilingTimerResolutionNs);
  case CL_DEVICE_ENDIAN_LITTLE:
    return boolValue(info.littleEndian);
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return sizeValue(info.printfBufferSize);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return boolValue(true);

  // Vector widths: char, short, int, long, float, double, half.
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    return vectorWidth(0, false);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    return vectorWidth(1, false);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    return vectorWidth(2, false);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    return vectorWidth(3, false);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    return vectorWidth(4, false);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    return vectorWidth(5, false);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    return vectorWidth(6, false);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return vectorWidth(0, true);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return vectorWidth(1, true);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    return vectorWidth(2, true);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    return vectorWidth(3, true);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return vectorWidth(4, true);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return vectorWidth(5, true);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return vectorWidth(6, true);

  // Floating point.
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return scalar(fpConfigBits(info.singleFp));
  case CL_DEVICE_DOUBLE_FP_CONFIG: {
    mux::FpConfig config = info.fp64 ? info.doubleFp : mux::FpConfig{};
    config.correctlyRoundedDivideSqrt = false; // single precision only
    return scalar(fpConfigBits(config));
  }
  case CL_DEVICE_HALF_FP_CONFIG: {
    mux::FpConfig config = info.fp16 ? info.halfFp : mux::FpConfig{};
    config.correctlyRoundedDivideSqrt = false;
    return scalar(fpConfigBits(config));
  }

  // Memory.
  case CL_DEVICE_ADDRESS_BITS:
    return uintValue(info.addressBits);
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return ulongValue(info.globalMemSize);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return ulongValue(info.maxMemAllocSize);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return scalar(cl_device_mem_cache_type(info.globalMemCacheSize == 0   ? CL_NONE
                                           : info.globalMemCacheReadWrite ? CL_READ_WRITE_CACHE
                                                                          : CL_READ_ONLY_CACHE));
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return ulongValue(info.globalMemCacheSize);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return uintValue(info.globalMemCachelineSize);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return scalar(cl_device_local_mem_type(info.localMemDedicated ? CL_LOCAL : CL_GLOBAL));
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return ulongValue(info.localMemSize);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return ulongValue(info.maxConstantBufferSize);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return uintValue(info.maxConstantArgs);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return sizeValue(info.maxParameterSize);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return uintValue(info.memBaseAddrAlign * 8); // OpenCL reports bits
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return uintValue(sizeof(cl_long16)); // the largest built-in type
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return boolValue(info.hostUnifiedMemory);
  // Zero unless __opencl_c_program_scope_global_variables is reported.
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    return sizeValue(hasFeature(info, "__opencl_c_program_scope_global_variables") ? info.maxGlobalVariableSize : 0);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return sizeValue(
        hasFeature(info, "__opencl_c_program_scope_global_variables") ? info.globalVariablePreferredTotalSize : 0);
  case CL_DEVICE_SVM_CAPABILITIES:
    return scalar(cl_device_svm_capabilities(info.svmCapabilities));
  // Zero means "naturally aligned".
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return uintValue(0);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    return scalar(cl_device_atomic_capabilities(info.atomicMemoryCapabilities));
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return scalar(cl_device_atomic_capabilities(info.atomicFenceCapabilities));

  // Images and samplers (image_limits.h); zero without image support. No
  // cl_khr_image2d_from_buffer: the pitch and base address alignments are 0.
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return uintValue(info.images ? image_limits::kMaxReadImageArgs : 0);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return uintValue(info.images ? image_limits::kMaxWriteImageArgs : 0);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return uintValue(info.images ? image_limits::kMaxReadWriteImageArgs : 0);
  case CL_DEVICE_MAX_SAMPLERS:
    return uintValue(info.images ? image_limits::kMaxSamplers : 0);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return uintValue(0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    return sizeValue(info.images ? image_limits::kImage2DMaxWidth : 0);
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return sizeValue(info.images ? image_limits::kImage2DMaxHeight : 0);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return sizeValue(info.images ? image_limits::kImage3DMaxSize : 0);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return sizeValue(info.images ? image_limits::kMaxBufferSize : 0);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return sizeValue(info.images ? image_limits::kMaxArraySize : 0);

  // Pipes: unsupported.
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return uintValue(0);

  // Queues: host queues only; no device-side enqueue.
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: // == CL_DEVICE_QUEUE_PROPERTIES
    return scalar(hostQueueProperties);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return scalar(cl_command_queue_properties(0));
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return uintValue(0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return scalar(cl_device_device_enqueue_capabilities(0));

  // Partitioning: root devices cannot be partitioned.
  case CL_DEVICE_PARENT_DEVICE:
    return scalar(cl_device_id(nullptr));
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return uintValue(0);
  case CL_DEVICE_PARTITION_PROPERTIES:
  case CL_DEVICE_PARTITION_TYPE: {
    static const cl_device_partition_property none[] = {0};
    return array(std::span<const cl_device_partition_property>(none));
  }
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return scalar(cl_device_affinity_domain(0));

  // cl_khr_device_uuid.
  case CL_DEVICE_UUID_KHR:
    if (!device.hasExtension("cl_khr_device_uuid"))
      return CL_INVALID_VALUE;
    return array(std::span<const uint8_t>(device.uuid()));
  case CL_DRIVER_UUID_KHR: {
    if (!device.hasExtension("cl_khr_device_uuid"))
      return CL_INVALID_VALUE;
    const std::array<uint8_t, CL_UUID_SIZE_KHR> uuid = driverUuid(info);
    return array(std::span<const uint8_t>(uuid));
  }
  case CL_DEVICE_LUID_VALID_KHR:
    if (!device.hasExtension("cl_khr_device_uuid"))
      return CL_INVALID_VALUE;
    return boolValue(false);
  case CL_DEVICE_LUID_KHR: {
    if (!device.hasExtension("cl_khr_device_uuid"))
      return CL_INVALID_VALUE;
    static const std::array<uint8_t, CL_LUID_SIZE_KHR> luid{};
    return array(std::span<const uint8_t>(luid));
  }
  case CL_DEVICE_NODE_MASK_KHR:
    if (!device.hasExtension("cl_khr_device_uuid"))
      return CL_INVALID_VALUE;
    return uintValue(0);

  // cl_khr_command_buffer.
  case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
    if (!device.hasExtension("cl_khr_command_buffer"))
      return CL_INVALID_VALUE;
    // Targets print a kernel's printf output per dispatch, so a recorded
    // kernel prints on every enqueue. Enqueues of a command buffer may
    // overlap (command_buffer.h), which mutable dispatch calls simultaneous
    // use. (Out-of-order queues: CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR.)
    return scalar(cl_device_command_buffer_capabilities_khr(
        CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR | (device.hasExtension("cl_khr_command_buffer_mutable_dispatch")
                                                              ? CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR
                                                              : 0)));
  case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
    if (!device.hasExtension("cl_khr_command_buffer"))
      return CL_INVALID_VALUE;
    return scalar(cl_command_queue_properties(0));
  case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
    if (!device.hasExtension("cl_khr_command_buffer"))
      return CL_INVALID_VALUE;
    // A command buffer runs on any queue of its device: in-order, out-of-order
    // (its commands run in recording order either way) and profiling.
    return scalar(hostQueueProperties);
  case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
    if (!device.hasExtension("cl_khr_command_buffer_mutable_dispatch"))
      return CL_INVALID_VALUE;
    return scalar(mutableDispatchCapabilities(device));

  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  Platform *plat = Platform::fromHandleOrDefault(platform);
  if (!plat)
    return CL_INVALID_PLATFORM;
  if (!Platform::isValidDeviceType(device_type))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices))
    return CL_INVALID_VALUE;
  llvm::SmallVector<Device *, 4> matches = plat->devicesOfType(device_type);
  if (matches.empty())
    return CL_DEVICE_NOT_FOUND;
  if (devices)
    for (size_t i = 0; i < std::min<size_t>(num_entries, matches.size()); ++i)
      devices[i] = matches[i]->handle();
  if (num_devices)
    *num_devices = cl_uint(matches.size());
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void *param_value, size_t *param_value_size_ret) {
  Device *dev = Device::fromHandle(device);
  if (!dev)
    return CL_INVALID_DEVICE;
  return getDeviceInfo(*dev, param_name, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret) {
  if (!Device::fromHandle(in_device))
    return CL_INVALID_DEVICE;
  // No partition scheme is supported (CL_DEVICE_PARTITION_PROPERTIES is
  // empty), so every property list, NULL or not, is "not valid or not
  // supported by the device".
  return CL_INVALID_VALUE;
}

// Root devices only: retain and release do nothing, as the spec allows.
cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return Device::fromHandle(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return Device::fromHandle(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp) {
  Device *dev = Device::fromHandle(device);
  if (!dev)
    return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp)
    return CL_INVALID_VALUE;
  // Bracket the device read with two host reads and pair it with their
  // midpoint, so the two values describe the same instant as closely as the
  // clocks allow.
  uint64_t before = hostTimerNs();
  uint64_t deviceNow = dev->mux().timestampNs();
  uint64_t after = hostTimerNs();
  *device_timestamp = deviceNow;
  *host_timestamp = before + (after - before) / 2;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  if (!Device::fromHandle(device))
    return CL_INVALID_DEVICE;
  if (!host_timestamp)
    return CL_INVALID_VALUE;
  *host_timestamp = hostTimerNs();
  return CL_SUCCESS;
}

} // extern "C"
