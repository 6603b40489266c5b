#include "integer_peak.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "workload_support.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace bench {
namespace {

constexpr unsigned kMadsPerItem = 4096;
constexpr unsigned kUnroll = 16;
// x * 1 + 3 from at most 1023: the chain ends below 2^14, inside the 24-bit
// range (the multiplier is a kernel argument, which the compiler cannot
// fold away).
constexpr cl_int kMultiplier = 1;
constexpr cl_int kAddend = 3;

struct Form {
  const char *label;
  const char *step; ///< one link of the chain, on x, a and b
};

constexpr Form kForms[] = {
    {"peak integer compute, int x * a + b chains (GIOPS)", "x = x * a + b;"},
    {"peak integer compute, int mul24(x, a) + b chains (GIOPS)", "x = mul24(x, a) + b;"},
    {"peak integer compute, int mad24(x, a, b) chains (GIOPS)", "x = mad24(x, a, b);"},
};

std::string kernelSource(const Form &form) {
  std::string source = "kernel void peak(global int *out, int a, int b) {\n"
                       "  const size_t g = get_global_id(0);\n"
                       "  int x = (int)(g & 1023);\n"
                       "  for (int i = 0; i < " +
                       std::to_string(kMadsPerItem / kUnroll) + "; ++i) {\n";
  for (unsigned i = 0; i < kUnroll; ++i)
    source += std::string("    ") + form.step + "\n";
  return source + "  }\n  out[g] = x;\n}\n";
}

cl_int hostResult(size_t item) {
  uint32_t x = static_cast<uint32_t>(item & 1023);
  for (unsigned i = 0; i < kMadsPerItem; ++i)
    x = x * static_cast<uint32_t>(kMultiplier) + static_cast<uint32_t>(kAddend);
  return static_cast<cl_int>(x);
}

size_t workItems(const DeviceFacts &facts, bool quick) {
  size_t items = facts.byKind(quick ? size_t{1} << 22 : size_t{1} << 24, // as the float chains
                              facts.computeUnits * (quick ? size_t{2048} : size_t{16384}),
                              1024); // simulated: 4M guest mads per form
  items = std::min<size_t>(items, facts.maxAlloc / sizeof(cl_int));
  return std::max<size_t>(items / 1024 * 1024, 1024);
}

Figure runForm(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes, const Form &form, cl_mem out,
               size_t items) {
  try {
    const std::string source = kernelSource(form);
    BuiltKernel built = build(session, source.c_str(), "peak");
    cl_kernel kernel = built.kernel.get();
    setKernelArguments(kernel, out, kMultiplier, kAddend);
    const double seconds = secondsPerLaunch(session, kernel, items, timingPlan(facts, sizes.quick));

    std::vector<cl_int> result(items);
    check(clEnqueueReadBuffer(session.queue(), out, CL_TRUE, 0, items * sizeof(cl_int), result.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    for (size_t item : sampleIndices(items, 512))
      if (result[item] != hostResult(item))
        return wrongResult(std::string(form.step) + " chain of work-item " + std::to_string(item) + " = " +
                           std::to_string(result[item]) + ", expected " + std::to_string(hostResult(item)));
    return {2.0 * kMadsPerItem * static_cast<double>(items) / seconds / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace

std::span<const std::string> integerComputeLabels() {
  static const std::vector<std::string> labels = [] {
    std::vector<std::string> all;
    for (const Form &form : kForms)
      all.emplace_back(form.label);
    return all;
  }();
  return labels;
}

std::vector<Figure> integerCompute(const DeviceSession &session, const Sizes &sizes) {
  std::vector<Figure> figures;
  try {
    const DeviceFacts facts = deviceFacts(session.device());
    const size_t items = workItems(facts, sizes.quick);
    MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, items * sizeof(cl_int));
    for (const Form &form : kForms)
      figures.push_back(runForm(session, facts, sizes, form, out.get(), items));
  } catch (const ClError &error) {
    figures.assign(std::size(kForms), fromError(error));
  }
  return figures;
}

} // namespace bench
