// The launch ABI between the SPIR-V compiler (compiler/spirv) and the vulkan
// target's runtime: how a compiled kernel receives its arguments and the
// facts of its launch. The compiler decides the layout per kernel and
// records it in the binary (compiler/vulkan_binary.h); the runtime only
// follows what the binary says, so either side can change the layout
// without the other.
//
// Push constants. Every kernel reads one push-constant block of
// `VulkanKernelBinaryInfo::pushConstantSize` bytes (at most the device's
// maxPushConstantsSize, which the compiler is configured with). It holds
// the launch fields the kernel uses, each at the offset the binary gives
// (kNotUsed: the kernel does not read it and the runtime writes nothing),
// and, unless they do not fit, the kernel arguments.
//
// Arguments. Argument i is stored at `args[i].offset` in the push-constant
// block, or, when `argumentBufferSize` is not 0, in an argument buffer of
// that many bytes in device memory whose device address is the launch field
// ArgumentBuffer. A __global/__constant pointer is its buffer's 64-bit
// device address (VkBufferDeviceAddress + offset; 0 for NULL); a value is
// its host bytes (size `args[i].size`). A __local pointer takes no bytes:
// it is a Workgroup array whose size in bytes is the specialization
// constant `args[i].specConstantId`, set by the runtime to the size given
// to clSetKernelArg rounded up to kLocalArgGranule; it starts at the next
// multiple of `args[i].size` (the alignment of its pointee type) after the
// static __local variables and the __local arguments before it.
//
// Work-group size. The module's entry point takes its local size from the
// specialization constants kLocalSizeXId/YId/ZId (LocalSizeId execution
// mode), so one module serves every local size: the runtime creates one
// pipeline per (kernel, local size, __local argument sizes).
//
// Non-uniform work-groups. Vulkan dispatches only whole work-groups of one
// size. The runtime splits an NDRange whose global size is not a multiple
// of its local size into up to 8 dispatches (the full groups, then the
// partial ones of each dimension), each with its own local size; the
// kernel adds GroupOffset to its WorkgroupId to get the OpenCL group id,
// and reads the enqueued local size and global size from launch fields.
//
// Checked buffer accesses. A kernel reaches __global/__constant memory
// through raw device addresses, where an access outside every buffer loses
// a GPU's whole device (NVIDIA) or faults the process (lavapipe). So every
// such access is checked against the ranges its pointer may lie in: a
// buffer argument `i` whose accesses are checked has `args[i].rangeOffset`
// (not kNotUsed), where the runtime stores an AccessRange of the argument's
// whole buffer ({0, 0} for NULL) in the same block as the arguments; the
// program-scope block's range is the launch field GlobalVariables and the
// block's size. An image argument is its descriptor's buffer
// (compiler/abi/image_abi.h); when the kernel reads or writes texels it
// also has `args[i].texelRangeOffset`, where the runtime stores the
// AccessRange of the texels' buffer (mux::KernelArg::texels).
//
// Images and samplers. As on the CPU targets (image_abi.h): an image
// argument is the device address of its descriptor, a sampler argument
// its CLK_* bits as a 64-bit value; the builtins library's image functions
// read texels at the descriptor's address. An access outside its ranges uses the device's scratch area
// instead (the access is not done), whose address is the 64-bit
// specialization constant kAccessScratchSpecId (one address per device,
// so it takes no push-constant bytes), and the
// work-item fills the AccessReport at the launch field AccessReport before
// it ends; the runtime then fails the command.
//
// __local and private memory. Each is one array of 32-bit words per kernel
// (__local memory of 64-bit words in a kernel with 64-bit __local atomics).
// The kernel clamps the index of every word it writes into the array (to
// its last word), and on a device that runs shaders in the application's
// process (VulkanTargetConfig::clampWordMemoryReads) of every word it reads
// too: an out-of-range __local or private index then reads or overwrites
// some of the kernel's own memory, which OpenCL C leaves undefined, instead
// of the driver's. (A scratch word past the kernel's would keep its data,
// but a device with exactly the 32 KiB of __local memory OpenCL requires,
// as lavapipe has, has no room for one.)
//
// Progress. Every kernel adds the work-items that have finished to the
// 32-bit counter at the launch field Progress as they return: once per
// sub-group (its active work-items), or once per work-item on a device
// without sub-group operations. The runtime zeroes the counter before the
// launch runs, so while it runs the counter against the launch's
// work-items is the progress that cl_polymux_device_status reports.
#pragma once

#include <cstdint>

namespace compiler::abi::vulkan {

/// Launch facts the runtime writes into the push-constant block.
enum class LaunchField : uint32_t {
  GlobalOffset,      ///< uint32[3]: global_work_offset
  GlobalSize,        ///< uint32[3]: global_work_size
  EnqueuedLocalSize, ///< uint32[3]: the local size given at enqueue
  GroupOffset,       ///< uint32[3]: OpenCL group id of this dispatch's group (0,0,0)
  NumGroups,         ///< uint32[3]: work-groups of the whole NDRange, per dimension
  WorkDim,           ///< uint32: get_work_dim()
  PrintfBuffer,      ///< uint64: device address of the printf buffer (compiler/abi/printf_abi.h)
  GlobalVariables,   ///< uint64: device address of the program-scope variable block
  ArgumentBuffer,    ///< uint64: device address of the argument buffer
  AccessReport,      ///< uint64: device address of the launch's AccessReport (zeroed by the runtime)
  KernelExit,        ///< uint64: device address of the launch's exit record (cl_polymux_kernel_exit)
  Progress,          ///< uint64: device address of the launch's uint32 counter of finished work-items
  Count,
};

inline constexpr uint32_t kLaunchFieldCount = static_cast<uint32_t>(LaunchField::Count);

/// Size in bytes of a launch field.
constexpr uint32_t launchFieldSize(LaunchField field) {
  switch (field) {
  case LaunchField::WorkDim:
    return 4;
  case LaunchField::PrintfBuffer:
  case LaunchField::GlobalVariables:
  case LaunchField::ArgumentBuffer:
  case LaunchField::AccessReport:
  case LaunchField::KernelExit:
  case LaunchField::Progress:
    return 8;
  default:
    return 12;
  }
}

/// Offset of a launch field the kernel does not use.
inline constexpr uint32_t kNotUsed = 0xffffffffu;

/// Specialization constant ids of the local size.
inline constexpr uint32_t kLocalSizeXId = 0;
inline constexpr uint32_t kLocalSizeYId = 1;
inline constexpr uint32_t kLocalSizeZId = 2;
/// __local pointer arguments get ids from here on, in argument order.
inline constexpr uint32_t kFirstLocalArgSpecId = 3;
/// The 64-bit device address of the device's kAccessScratchSize bytes for
/// failed accesses (far above the __local argument ids).
inline constexpr uint32_t kAccessScratchSpecId = 0x10000;
/// __local argument sizes are rounded up to a multiple of this.
inline constexpr uint32_t kLocalArgGranule = 16;

/// Alignment of the program-scope variable block and of argument buffers.
inline constexpr uint32_t kBlockAlignment = 16;

/// What the kernel reports back (see "Checked buffer accesses" above), in
/// memory the host reads: zero before the launch; a work-item with an access
/// outside its ranges sets `faulted` to 1 and `address` to that access's
/// address (of one such work-item).
struct AccessReport {
  uint32_t faulted;
  uint32_t reserved;
  uint64_t address;
};
/// Where an access may go: [base, base + size). Aligned to 8.
struct AccessRange {
  uint64_t base;
  uint64_t size;
};
/// The largest access the scratch area takes: a memcpy of up to 1,024
/// words, which the emitter writes as word copies.
inline constexpr uint32_t kAccessScratchSize = 4096;
/// Alignment of the scratch area: at least every access's alignment.
inline constexpr uint32_t kAccessScratchAlignment = 256;

} // namespace compiler::abi::vulkan
