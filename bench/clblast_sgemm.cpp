#include "clblast_sgemm.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "matrix_check.h"
#include "workload_support.h"

#include <cstdio>
#include <dlfcn.h>

namespace bench {
namespace {

constexpr size_t kSizes[] = {512, 1024, 2048};

std::string skipReason(const DeviceFacts &facts, bool quick, size_t n) {
  if (facts.kind == DeviceFacts::Kind::Simulated)
    return "simulated device";
  if (n >= 2048 && quick && facts.kind != DeviceFacts::Kind::Gpu)
    return "--quick on a device that is not a GPU";
  if (n * n * sizeof(float) > facts.maxAlloc)
    return "matrix larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE";
  return {};
}

Figure runSize(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes, SgemmFunction sgemm,
               size_t n) {
  return measureProduct(session, n, CL_MEM_READ_WRITE, "CLBlast ", [&](cl_mem a, cl_mem b, cl_mem c) {
    cl_command_queue queue = session.queue();
    auto call = [&] {
      const int status =
          sgemm(kRowMajor, kNoTranspose, kNoTranspose, n, n, n, 1.0f, a, 0, n, b, 0, n, 0.0f, c, 0, n, &queue, nullptr);
      if (status != 0)
        throw ClError("CLBlastSgemm", status);
    };
    // The first call compiles CLBlast's kernels for the device: warm up.
    TimingPlan plan = timingPlan(facts, sizes.quick);
    plan.warmUp = true;
    return secondsPerCall(session, call, plan);
  });
}

} // namespace

SgemmFunction loadSgemm(std::string &why) {
  static std::string error;
  static SgemmFunction function = []() -> SgemmFunction {
    void *library = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library)
      library = dlopen("libclblast.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      error = "CLBlast not installed (libclblast.so.1)";
      return nullptr;
    }
    auto *symbol = reinterpret_cast<SgemmFunction>(dlsym(library, "CLBlastSgemm"));
    if (!symbol)
      error = "libclblast has no CLBlastSgemm";
    return symbol;
  }();
  why = error;
  return function;
}

std::span<const std::string> clblastSgemmLabels() {
  static const std::vector<std::string> labels = [] {
    std::vector<std::string> all;
    for (size_t n : kSizes)
      all.push_back("CLBlast SGEMM n=" + std::to_string(n) + " (GFLOPS)");
    return all;
  }();
  return labels;
}

std::vector<Figure> clblastSgemm(const DeviceSession &session, const Sizes &sizes) {
  std::vector<Figure> figures(clblastSgemmLabels().size());
  std::string why;
  SgemmFunction sgemm = loadSgemm(why);
  const DeviceFacts facts = deviceFacts(session.device());
  for (size_t i = 0; i < std::size(kSizes); ++i) {
    if (!sgemm) {
      figures[i] = unsupportedFigure(why);
      continue;
    }
    if (std::string skip = skipReason(facts, sizes.quick, kSizes[i]); !skip.empty()) {
      figures[i] = unsupportedFigure(skip);
      continue;
    }
    std::fprintf(stderr, "  CLBlast SGEMM: n=%zu\n", kSizes[i]);
    figures[i] = runSize(session, facts, sizes, sgemm, kSizes[i]);
  }
  return figures;
}

} // namespace bench
