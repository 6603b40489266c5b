#include "sim_workloads.h"

#include "workload_support.h"

#include <CL/cl_ext_polymux.h>

#include <string>
#include <vector>

namespace bench {
namespace {

// A linear congruential chain per work-item: integer multiply-adds and a
// loop, no memory traffic until the end.
const char *kComputeSource = R"(
kernel void lcg(global uint *out, uint steps) {
  uint x = (uint)get_global_id(0);
  for (uint i = 0; i < steps; ++i)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
})";

// One load, one add and one store per work-item.
const char *kMemorySource = R"(
kernel void bump(global uint *dst, global const uint *src) {
  size_t i = get_global_id(0);
  dst[i] = src[i] + 1u;
})";

/// The best of `runs` launches: instructions retired / kernel seconds.
Figure measure(const DeviceSession &session, cl_command_queue queue, cl_kernel kernel, size_t global, size_t runs) {
  double best = 0;
  for (size_t run = 0; run <= runs; ++run) {
    cl_event event = nullptr;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &event),
          "clEnqueueNDRangeKernel");
    check(clWaitForEvents(1, &event), "clWaitForEvents");
    cl_ulong start = 0, end = 0, instructions = 0;
    check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
          "clGetEventProfilingInfo");
    check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
          "clGetEventProfilingInfo");
    check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_INSTRUCTIONS_RETIRED_POLYMUX, sizeof instructions,
                                  &instructions, nullptr),
          "clGetEventProfilingInfo(INSTRUCTIONS_RETIRED)");
    clReleaseEvent(event);
    if (run > 0 && end > start) // the first run warms up
      best = std::max(best, static_cast<double>(instructions) / (static_cast<double>(end - start) * 1e-9) / 1e6);
  }
  Figure figure;
  figure.value = best;
  return figure;
}

} // namespace

bool countsInstructions(cl_device_id device) {
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) != CL_SUCCESS)
    return false;
  std::string extensions(size, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
  return extensions.find(CL_POLYMUX_INSTRUCTION_COUNTERS_EXTENSION_NAME) != std::string::npos;
}

SimulatorRates simulatorRates(const DeviceSession &session, size_t runs) {
  SimulatorRates rates;
  check(clGetDeviceInfo(session.device(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof rates.computeUnits,
                        &rates.computeUnits, nullptr),
        "clGetDeviceInfo");
  cl_int status = CL_SUCCESS;
  cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue queue =
      clCreateCommandQueueWithProperties(session.context(), session.device(), properties, &status);
  check(status, "clCreateCommandQueueWithProperties");
  try {
    {
      const size_t items = 4096;
      const cl_uint steps = 4096;
      MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint));
      BuiltKernel lcg = build(session, kComputeSource, "lcg");
      cl_mem outMem = out.get();
      check(clSetKernelArg(lcg.kernel.get(), 0, sizeof(cl_mem), &outMem), "clSetKernelArg");
      check(clSetKernelArg(lcg.kernel.get(), 1, sizeof(cl_uint), &steps), "clSetKernelArg");
      rates.compute = measure(session, queue, lcg.kernel.get(), items, runs);
      std::vector<cl_uint> result(items);
      check(clEnqueueReadBuffer(queue, outMem, CL_TRUE, 0, items * sizeof(cl_uint), result.data(), 0, nullptr,
                                nullptr),
            "clEnqueueReadBuffer");
      for (size_t i = 0; i < items; ++i) {
        cl_uint x = static_cast<cl_uint>(i);
        for (cl_uint s = 0; s < steps; ++s)
          x = x * 1664525u + 1013904223u;
        if (result[i] != x)
          rates.compute = wrongResult("lcg out[" + std::to_string(i) + "] = " + std::to_string(result[i]));
      }
    }
    {
      const size_t items = size_t{1} << 22;
      std::vector<cl_uint> source(items);
      for (size_t i = 0; i < items; ++i)
        source[i] = static_cast<cl_uint>(i * 2654435761u);
      MemPtr src = createBuffer(session, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_uint),
                                source.data());
      MemPtr dst = createBuffer(session, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint));
      BuiltKernel bump = build(session, kMemorySource, "bump");
      cl_mem dstMem = dst.get(), srcMem = src.get();
      check(clSetKernelArg(bump.kernel.get(), 0, sizeof(cl_mem), &dstMem), "clSetKernelArg");
      check(clSetKernelArg(bump.kernel.get(), 1, sizeof(cl_mem), &srcMem), "clSetKernelArg");
      rates.memory = measure(session, queue, bump.kernel.get(), items, runs);
      std::vector<cl_uint> result(items);
      check(clEnqueueReadBuffer(queue, dstMem, CL_TRUE, 0, items * sizeof(cl_uint), result.data(), 0, nullptr,
                                nullptr),
            "clEnqueueReadBuffer");
      for (size_t i = 0; i < items; ++i)
        if (result[i] != source[i] + 1u) {
          rates.memory = wrongResult("bump dst[" + std::to_string(i) + "] = " + std::to_string(result[i]));
          break;
        }
    }
  } catch (const ClError &error) {
    clReleaseCommandQueue(queue);
    rates.compute = fromError(error);
    rates.memory = fromError(error);
    return rates;
  }
  clReleaseCommandQueue(queue);
  return rates;
}

} // namespace bench
