#include "math_workloads.h"
#include "device_facts.h"
#include "launch_timing.h"
#include "workload_support.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace bench {
namespace {

double powOnePointSeven(double x) { return std::pow(x, 1.7); }
// The float kernel's exponent is 1.7f, which is not 1.7.
double powOnePointSevenF(double x) { return std::pow(x, static_cast<double>(1.7f)); }
double sinD(double x) { return std::sin(x); }
double expD(double x) { return std::exp(x); }
double logD(double x) { return std::log(x); }
double tanhD(double x) { return std::tanh(x); }
double sqrtD(double x) { return std::sqrt(x); }
double erfD(double x) { return std::erf(x); }

constexpr MathCase kCases[] = {
    {"float sqrt", "float", "sqrt(x)", 0.0, 1e6, sqrtD, 0x1p-19},
    {"float exp", "float", "exp(x)", -80.0, 80.0, expD, 0x1p-19},
    {"float log", "float", "log(x)", 1e-3, 1e6, logD, 0x1p-19},
    {"float sin", "float", "sin(x)", -100.0, 100.0, sinD, 0x1p-19},
    {"float pow(x, 1.7f)", "float", "pow(x, 1.7f)", 1e-3, 1e3, powOnePointSevenF, 0x1p-19},
    {"float tanh", "float", "tanh(x)", -10.0, 10.0, tanhD, 0x1p-19},
    {"float erf", "float", "erf(x)", -4.0, 4.0, erfD, 0x1p-19},
    {"float native_exp", "float", "native_exp(x)", -80.0, 80.0, expD, 0x1p-10},
    {"double exp", "double", "exp(x)", -700.0, 700.0, expD, 0x1p-48},
    {"double log", "double", "log(x)", 1e-3, 1e6, logD, 0x1p-48},
    {"double sin", "double", "sin(x)", -100.0, 100.0, sinD, 0x1p-48},
    {"double pow(x, 1.7)", "double", "pow(x, 1.7)", 1e-3, 1e3, powOnePointSeven, 0x1p-48},
};

std::string kernelSource(const MathCase &math) {
  std::string source;
  if (std::string(math.type) == "double")
    source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  source += "__kernel void math(__global const " + std::string(math.type) + " *in, __global " + math.type +
            " *out) {\n  size_t i = get_global_id(0);\n  " + math.type + " x = in[i];\n  out[i] = " + math.expression +
            ";\n}\n";
  return source;
}

template <typename T>
Figure run(const DeviceSession &session, const MathCase &math, size_t elements, const TimingPlan &plan) {
  std::vector<T> input(elements), output(elements);
  for (size_t i = 0; i < elements; ++i)
    input[i] = static_cast<T>(math.low + (math.high - math.low) * (static_cast<double>(i) / elements));
  const size_t bytes = elements * sizeof(T);
  try {
    MemPtr in = createBuffer(session, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, input.data());
    MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, bytes);
    std::string source = kernelSource(math);
    BuiltKernel built = build(session, source.c_str(), "math");
    cl_kernel kernel = built.kernel.get();
    cl_mem inMem = in.get(), outMem = out.get();
    check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &inMem), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &outMem), "clSetKernelArg");
    // Back-to-back launches, timed in batches: on a GPU a launch of these
    // sizes takes about as long as the round trip of one enqueue and
    // clFinish, which would be measured instead of the function.
    Launch launch;
    launch.kernel = kernel;
    launch.global[0] = elements;
    launch.driverChoosesLocal = true;
    const double best = secondsPerLaunch(session, launch, plan);
    check(clEnqueueReadBuffer(session.queue(), outMem, CL_TRUE, 0, bytes, output.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    for (size_t i = 0; i < elements; ++i) {
      double expected = math.reference(static_cast<double>(input[i]));
      double error = std::fabs(static_cast<double>(output[i]) - expected);
      // Relative to the result, or to 1 near a zero of the function (sin).
      if (!(error <= math.tolerance * std::max(std::fabs(expected), 1.0)))
        return wrongResult(std::string(math.label) + "(" + std::to_string(input[i]) +
                           ") = " + std::to_string(output[i]) + ", expected " + std::to_string(expected));
    }
    return {elements / best / 1e6, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace

std::span<const MathCase> mathCases() { return kCases; }

Figure mathThroughput(const DeviceSession &session, const MathCase &math, const Sizes &sizes) {
  const size_t elements = sizes.mathElements;
  const TimingPlan plan = timingPlan(deviceFacts(session.device()), sizes.quick);
  if (std::string(math.type) == "double") {
    if (!deviceHasFp64(session.device()))
      return unsupportedFigure("no fp64");
    return run<double>(session, math, elements, plan);
  }
  return run<float>(session, math, elements, plan);
}

} // namespace bench
