#include "compiler/cpu_capabilities.h"

#include <algorithm>

namespace compiler {
namespace {

mux::FpConfig ieeeFpConfig(bool correctlyRoundedDivideSqrt) {
  mux::FpConfig config;
  config.denorms = true;
  config.infNan = true;
  config.roundToNearest = true;
  config.roundToZero = true;
  config.roundToInf = true;
  config.fma = true;
  config.correctlyRoundedDivideSqrt = correctlyRoundedDivideSqrt;
  return config;
}

} // namespace

void describeCpuPipelineCapabilities(mux::DeviceInfo &info, uint32_t subGroupSize) {
  // Sub-groups of `subGroupSize` consecutive work-items, whose builtins the
  // compiler implements (LowerGroupBuiltinsPass). The sub-groups of a
  // work-group run one after the other between barriers: one spinning on
  // another would never finish, so there is no independent forward progress
  // and sub-groups are the OpenCL 3.0 feature, not cl_khr_subgroups (which
  // requires it).
  info.subGroupSizes = {subGroupSize};
  info.maxNumSubGroups = static_cast<uint32_t>((info.maxWorkGroupSize + subGroupSize - 1) / subGroupSize);
  info.subGroupIndependentForwardProgress = false;

  info.singleFp = ieeeFpConfig(true);
  info.doubleFp = ieeeFpConfig(false);
  // Half arithmetic is float arithmetic rounded to half after each
  // operation (LLVM promotes it; float has more than twice half's
  // precision, so +, -, *, / and sqrt round as if done in half), with
  // denormals; LLVM computes a half fma in double, which for halves is
  // exact wherever the result is in half's range, so it rounds once. The
  // builtins library computes the math functions in float.
  info.halfFp = {};
  info.halfFp.denorms = true;
  info.halfFp.infNan = true;
  info.halfFp.roundToNearest = true;
  info.halfFp.fma = true;
  info.fp64 = true;
  info.fp16 = true;
  info.int64 = true;
  info.atomics64 = true;
  info.extensions = {
      "cl_khr_byte_addressable_store",
      "cl_khr_fp64",
      "cl_khr_fp16",
      "cl_khr_int64_base_atomics",
      "cl_khr_int64_extended_atomics",
      "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",
      "cl_polymux_sized_integers",
      "cl_polymux_kernel_exit",
  };
  info.openclCFeatures = {
      "__opencl_c_work_group_collective_functions",
      "__opencl_c_subgroups",
      "__opencl_c_generic_address_space",
      "__opencl_c_program_scope_global_variables",
      // C11 atomics (LowerAtomicBuiltinsPass): every order and scope is an
      // exact LLVM atomic instruction, device-wide on a CPU-like device.
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device",
      "__opencl_c_atomic_scope_all_devices",
      // Images: the builtins library's image_*.cl on image descriptors.
      "__opencl_c_images",
      "__opencl_c_read_write_images",
      "__opencl_c_3d_image_writes",
  };
  info.images = true;
  info.extensions.push_back("cl_khr_3d_image_writes");
  using namespace mux::atomic_capability;
  constexpr uint64_t orders = OrderRelaxed | OrderAcqRel | OrderSeqCst;
  info.atomicMemoryCapabilities = orders | ScopeWorkGroup | ScopeDevice | ScopeAllDevices;
  info.atomicFenceCapabilities = orders | ScopeWorkItem | ScopeWorkGroup | ScopeDevice | ScopeAllDevices;
}

std::vector<std::string> clExtensionsFor(const mux::DeviceInfo &info) {
  // Polymux's own extensions are passed on too: the front end defines
  // their macros and declares what they add to OpenCL C.
  std::vector<std::string> extensions = info.extensions;
  auto add = [&](const std::string &name) {
    if (std::find(extensions.begin(), extensions.end(), name) == extensions.end())
      extensions.push_back(name);
  };
  if (info.int64)
    add("__opencl_c_int64");
  if (info.fp64)
    add("__opencl_c_fp64");
  if (info.fp16)
    add("__opencl_c_fp16");
  for (const std::string &feature : info.openclCFeatures)
    add(feature);
  return extensions;
}

} // namespace compiler
