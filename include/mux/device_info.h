// The capability description every Mux device fills in. The OpenCL layer
// answers clGetDeviceInfo from this and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mux {

enum class DeviceType { CPU, GPU, Accelerator, Custom };

/// Floating-point capabilities, mirroring cl_device_fp_config bits.
struct FpConfig {
  bool denorms = false;
  bool infNan = false;
  bool roundToNearest = false;
  bool roundToZero = false;
  bool roundToInf = false;
  bool fma = false;
  bool correctlyRoundedDivideSqrt = false;
  bool softFloat = false;
};

/// Bits of DeviceInfo::atomicMemoryCapabilities and atomicFenceCapabilities:
/// the memory orders and scopes the device's OpenCL C atomics (memory) and
/// atomic_work_item_fence (fence) implement. The values equal the
/// cl_device_atomic_capabilities bits of OpenCL 3.0.
namespace atomic_capability {
inline constexpr uint64_t OrderRelaxed = 1 << 0;
inline constexpr uint64_t OrderAcqRel = 1 << 1;
inline constexpr uint64_t OrderSeqCst = 1 << 2;
inline constexpr uint64_t ScopeWorkItem = 1 << 3;
inline constexpr uint64_t ScopeWorkGroup = 1 << 4;
inline constexpr uint64_t ScopeDevice = 1 << 5;
inline constexpr uint64_t ScopeAllDevices = 1 << 6;
/// The OpenCL 3.0 minimums.
inline constexpr uint64_t MinimumMemory = OrderRelaxed | ScopeWorkGroup;
inline constexpr uint64_t MinimumFence = OrderRelaxed | OrderAcqRel | ScopeWorkGroup;
} // namespace atomic_capability

/// Bits of DeviceInfo::svmCapabilities: the shared virtual memory the device
/// offers (Device::allocateSharedMemory). The values equal the
/// cl_device_svm_capabilities bits of OpenCL 3.0.
namespace svm_capability {
inline constexpr uint64_t CoarseGrainBuffer = 1 << 0;
inline constexpr uint64_t FineGrainBuffer = 1 << 1;
inline constexpr uint64_t FineGrainSystem = 1 << 2;
inline constexpr uint64_t Atomics = 1 << 3;
} // namespace svm_capability

struct DeviceInfo {
  // Identity.
  std::string name;
  std::string vendor;
  uint32_t vendorId = 0;
  std::string driverVersion; ///< e.g. "0.1.0"
  std::string targetName;    ///< the Mux target this device belongs to
  DeviceType type = DeviceType::CPU;
  std::array<uint8_t, 16> uuid{}; ///< stable identity (cl_khr_device_uuid)
  /// The UUID of the driver beneath Polymux that runs this device (Vulkan's
  /// driverUUID); zero where Polymux runs the device itself.
  std::array<uint8_t, 16> underlyingDriverUuid{};

  // Execution resources.
  uint32_t computeUnits = 1;
  uint32_t maxClockMHz = 0;
  uint32_t maxWorkItemDimensions = 3;
  std::array<size_t, 3> maxWorkItemSizes{1, 1, 1};
  size_t maxWorkGroupSize = 1;
  /// CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: local sizes work best as
  /// multiples of this (the SIMD width kernels are vectorised to).
  uint32_t preferredWorkGroupSizeMultiple = 1;

  // Sub-groups (cl_khr_subgroups, __opencl_c_subgroups). A device without
  // them leaves `subGroupSizes` empty and `maxNumSubGroups` 0.
  /// The largest sub-group size of each way the device's kernels can be
  /// compiled; the size used for a given work-group size is
  /// mux::Kernel::subGroupSize(). Where a sub-group is the whole work-group
  /// (CPU targets) this is {maxWorkGroupSize}.
  std::vector<uint32_t> subGroupSizes;
  /// CL_DEVICE_MAX_NUM_SUB_GROUPS: most sub-groups in one work-group (1 where
  /// a sub-group is the whole work-group).
  uint32_t maxNumSubGroups = 0;
  /// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS.
  bool subGroupIndependentForwardProgress = false;

  // Memory.
  uint32_t addressBits = 64;
  bool littleEndian = true;
  uint64_t globalMemSize = 0;
  uint64_t maxMemAllocSize = 0;
  uint64_t globalMemCacheSize = 0;
  uint32_t globalMemCachelineSize = 0;
  bool globalMemCacheReadWrite = true;
  uint64_t localMemSize = 0;
  bool localMemDedicated = false; ///< false: local memory lives in global memory
  uint64_t maxConstantBufferSize = 0;
  uint32_t maxConstantArgs = 8;
  size_t maxParameterSize = 1024;
  uint32_t memBaseAddrAlign = 128; ///< bytes (OpenCL reports bits)
  bool hostUnifiedMemory = false;
  /// svm_capability bits; 0 when the device has no shared virtual memory.
  /// Non-zero only where allocateSharedMemory() gives memory whose host
  /// address is the address kernels use (pointers stored in it work on both
  /// sides). FineGrainBuffer: the host and running kernels may also use it
  /// at the same time without map/unmap (the device reads and writes host
  /// memory itself).
  uint64_t svmCapabilities = 0;
  size_t printfBufferSize = 1 << 20;
  /// Whether commands may read and write host pointers when they run
  /// (CommandBuffer::readBuffer/writeBuffer and their Rect forms). A device
  /// that cannot (a GPU whose commands run on the device) sets false: the
  /// OpenCL layer then stages host data through host-visible buffers and
  /// records only buffer-to-buffer copies.
  bool commandsAccessHostMemory = true;

  // Arithmetic.
  FpConfig singleFp;
  FpConfig doubleFp; ///< all false when fp64 is unsupported
  FpConfig halfFp;   ///< all false when fp16 is unsupported
  bool fp64 = false;
  bool fp16 = false;
  bool int64 = true;
  bool atomics64 = false; ///< 64-bit integer atomics
  /// CL_DEVICE_IMAGE_SUPPORT: kernels read and write images through the
  /// descriptor ABI of compiler/abi/image_abi.h, and `openclCFeatures` holds
  /// __opencl_c_images (+ _read_write_images, _3d_image_writes).
  bool images = false;
  /// CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES (atomic_capability bits). Beyond
  /// the minimum, each order or scope needs its OpenCL C feature in
  /// `openclCFeatures` (__opencl_c_atomic_order_acq_rel, _order_seq_cst,
  /// _scope_device, _scope_all_devices) and the reverse.
  uint64_t atomicMemoryCapabilities = atomic_capability::MinimumMemory;
  /// CL_DEVICE_ATOMIC_FENCE_CAPABILITIES (atomic_capability bits).
  uint64_t atomicFenceCapabilities = atomic_capability::MinimumFence;
  /// Preferred/native vector widths: char, short, int, long, float, double, half.
  std::array<uint32_t, 7> preferredVectorWidth{1, 1, 1, 1, 1, 0, 0};
  std::array<uint32_t, 7> nativeVectorWidth{1, 1, 1, 1, 1, 0, 0};

  // Timing.
  uint64_t profilingTimerResolutionNs = 1;

  /// Extension names (cl_khr_*, ...) the device supports.
  std::vector<std::string> extensions;
  /// OpenCL C 3.0 optional features (__opencl_c_subgroups, ...) the device's
  /// compiler and runtime implement, besides __opencl_c_int64 and
  /// __opencl_c_fp64 which follow `int64` and `fp64`.
  std::vector<std::string> openclCFeatures;
  /// Program-scope global variables (with __opencl_c_program_scope_global_variables).
  uint64_t maxGlobalVariableSize = 0;
  uint64_t globalVariablePreferredTotalSize = 0;
};

} // namespace mux
