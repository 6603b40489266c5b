// Sub-group reduce and scan throughput (see the header).
#include "sub_group_workloads.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "workload_support.h"

#include <algorithm>
#include <utility>

namespace bench {
namespace {

constexpr size_t kWorkGroupSize = 64;

constexpr const char *kSource = R"(
#if !defined(__opencl_c_subgroups) && defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
kernel void collectives(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  int x = in[g];
  out[g] = sub_group_reduce_add(x) + sub_group_scan_inclusive_add(x);
}
kernel void mapping(global uint *ids) {
  ids[get_global_id(0)] = get_sub_group_id() << 16 | get_sub_group_local_id();
}
)";

/// The OpenCL C version that has the sub-group builtins on `device`: 3.0
/// (with the __opencl_c_subgroups feature) on an OpenCL 3.0 device, whose
/// CL_DEVICE_OPENCL_C_VERSION still says 1.2; else 2.0 with cl_khr_subgroups.
std::string clStdOption(cl_device_id device) {
  char version[128] = {};
  check(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version - 1, version, nullptr), "clGetDeviceInfo");
  return std::string(version).rfind("OpenCL 3.", 0) == 0 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
}

size_t elements(const DeviceFacts &facts, bool quick) {
  size_t count = facts.byKind(quick ? size_t{1} << 24 : size_t{1} << 26, quick ? size_t{1} << 22 : size_t{1} << 24,
                              size_t{1} << 12);
  count = std::min<size_t>(count, facts.maxAlloc / sizeof(cl_int));
  return std::max<size_t>(count / kWorkGroupSize * kWorkGroupSize, kWorkGroupSize);
}

/// The expected output, from the sub-group ids each work-item reported.
std::vector<cl_int> expected(const std::vector<cl_int> &in, const std::vector<cl_uint> &ids) {
  std::vector<cl_int> out(in.size());
  std::vector<std::pair<cl_uint, size_t>> members(kWorkGroupSize);
  for (size_t first = 0; first < in.size(); first += kWorkGroupSize) {
    // The work-group's items by sub-group id, then sub-group local id.
    for (size_t i = 0; i < kWorkGroupSize; ++i)
      members[i] = {ids[first + i], first + i};
    std::sort(members.begin(), members.end());
    for (size_t begin = 0; begin < kWorkGroupSize;) {
      size_t end = begin;
      cl_uint sum = 0;
      while (end < kWorkGroupSize && members[end].first >> 16 == members[begin].first >> 16)
        sum += static_cast<cl_uint>(in[members[end++].second]);
      cl_uint prefix = 0;
      for (size_t m = begin; m < end; ++m) {
        prefix += static_cast<cl_uint>(in[members[m].second]);
        out[members[m].second] = static_cast<cl_int>(sum + prefix);
      }
      begin = end;
    }
  }
  return out;
}

} // namespace

const std::string &subGroupCollectivesLabel() {
  static const std::string label = "sub-group reduce + scan, int, groups of 64 (G elements/s)";
  return label;
}

Figure subGroupCollectives(const DeviceSession &session, const Sizes &sizes) {
  try {
    cl_uint maxSubGroups = 0;
    if (clGetDeviceInfo(session.device(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof maxSubGroups, &maxSubGroups, nullptr) !=
            CL_SUCCESS ||
        maxSubGroups == 0)
      return unsupportedFigure("no sub-groups");
    cl_int status = CL_SUCCESS;
    const char *source = kSource;
    ProgramPtr program(clCreateProgramWithSource(session.context(), 1, &source, nullptr, &status));
    check(status, "clCreateProgramWithSource");
    cl_device_id device = session.device();
    const std::string options = clStdOption(device);
    if (clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS)
      return unsupportedFigure("the sub-group builtins do not build");
    KernelPtr collectives(clCreateKernel(program.get(), "collectives", &status));
    check(status, "clCreateKernel");
    KernelPtr mapping(clCreateKernel(program.get(), "mapping", &status));
    check(status, "clCreateKernel");

    const DeviceFacts facts = deviceFacts(device);
    const size_t count = elements(facts, sizes.quick);
    std::vector<cl_int> in(count);
    for (size_t i = 0; i < count; ++i)
      in[i] = static_cast<cl_int>((i * 2654435761u) >> 7) % 2001 - 1000;
    MemPtr input = createBuffer(session, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(cl_int), in.data());
    MemPtr output = createBuffer(session, CL_MEM_WRITE_ONLY, count * sizeof(cl_int));
    cl_mem inputMem = input.get(), outputMem = output.get();
    check(clSetKernelArg(collectives.get(), 0, sizeof(cl_mem), &inputMem), "clSetKernelArg");
    check(clSetKernelArg(collectives.get(), 1, sizeof(cl_mem), &outputMem), "clSetKernelArg");
    Launch launch;
    launch.kernel = collectives.get();
    launch.global[0] = count;
    launch.local[0] = kWorkGroupSize;
    const double seconds = secondsPerLaunch(session, launch, timingPlan(facts, sizes.quick));

    std::vector<cl_int> actual(count);
    check(clEnqueueReadBuffer(session.queue(), outputMem, CL_TRUE, 0, count * sizeof(cl_int), actual.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    // The mapping of the same range (reusing the input buffer's size).
    MemPtr ids = createBuffer(session, CL_MEM_WRITE_ONLY, count * sizeof(cl_uint));
    cl_mem idsMem = ids.get();
    check(clSetKernelArg(mapping.get(), 0, sizeof(cl_mem), &idsMem), "clSetKernelArg");
    const size_t global = count, local = kWorkGroupSize;
    check(clEnqueueNDRangeKernel(session.queue(), mapping.get(), 1, nullptr, &global, &local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    std::vector<cl_uint> subGroupIds(count);
    check(clEnqueueReadBuffer(session.queue(), idsMem, CL_TRUE, 0, count * sizeof(cl_uint), subGroupIds.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
    std::vector<cl_int> reference = expected(in, subGroupIds);
    for (size_t i = 0; i < count; ++i)
      if (actual[i] != reference[i])
        return wrongResult("sub-group reduce + scan of element " + std::to_string(i) + " = " +
                           std::to_string(actual[i]) + ", expected " + std::to_string(reference[i]));
    return {static_cast<double>(count) / seconds / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace bench
