#include "sgemm.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "matrix_check.h"
#include "workload_support.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace bench {
namespace {

constexpr size_t kSizes[] = {256, 1024, 4096};
constexpr size_t kTile = 64;  ///< C tile per work-group, and the multiple n must be
constexpr size_t kGroup = 16; ///< work-items per dimension: 4 x 4 outputs each
/// A size whose single launch would last longer, at the rate the previous
/// size ran, is skipped (n=4096 on lavapipe: about 4 minutes here).
constexpr double kMaxLaunchSeconds = 120;

// Work-item (tx, ty) owns rows ty + 16 i and columns tx + 16 j of the tile:
// neighbouring work-items touch neighbouring local-memory words, and the
// transposed A tile has one word of padding per row so that the transposing
// stores fall into different banks.
const char *kSgemmSource = R"CLC(
#define TILE 64
#define DEPTH 16
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm(const int n, __global const float *A, __global const float *B, __global float *C) {
  __local float As[DEPTH][TILE + 1]; /* As[k][r] = A[row0 + r][k0 + k] */
  __local float Bs[DEPTH][TILE];     /* Bs[k][c] = B[k0 + k][col0 + c] */
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int t = ty * 16 + tx;
  const int row0 = get_group_id(1) * TILE, col0 = get_group_id(0) * TILE;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < n; k0 += DEPTH) {
    /* 256 work-items stage 64 x 16 words of A and 16 x 64 of B, 4 each. */
    for (int l = 0; l < 4; ++l) {
      const int e = t + 256 * l;
      As[e % DEPTH][e / DEPTH] = A[(row0 + e / DEPTH) * n + k0 + e % DEPTH];
      Bs[e / TILE][e % TILE] = B[(k0 + e / TILE) * n + col0 + e % TILE];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < DEPTH; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i)
        a[i] = As[k][ty + 16 * i];
      for (int j = 0; j < 4; ++j)
        b[j] = Bs[k][tx + 16 * j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = mad(a[i], b[j], acc[i][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
}
)CLC";

/// Why a device skips size n, or nothing.
std::string skipReason(const DeviceFacts &facts, bool quick, size_t n) {
  if (facts.maxWorkGroup < kGroup * kGroup)
    return "work-groups of 256 work-items not offered";
  if (facts.kind == DeviceFacts::Kind::Simulated && n > 256)
    return "simulated device: n=256 only";
  if (n >= 4096 && quick && facts.kind != DeviceFacts::Kind::Gpu)
    return "--quick on a device that is not a GPU";
  if (n >= 4096 && facts.globalMem < (cl_ulong{1} << 30))
    return "less than 1 GiB of global memory";
  if (n * n * sizeof(float) > facts.maxAlloc)
    return "matrix larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE";
  return {};
}

Figure runSize(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes, cl_kernel kernel, size_t n,
               bool first) {
  return measureProduct(session, n, CL_MEM_WRITE_ONLY, "", [&](cl_mem a, cl_mem b, cl_mem c) {
    const cl_int size = static_cast<cl_int>(n);
    check(clSetKernelArg(kernel, 0, sizeof size, &size), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &a), "clSetKernelArg");
    check(clSetKernelArg(kernel, 2, sizeof(cl_mem), &b), "clSetKernelArg");
    check(clSetKernelArg(kernel, 3, sizeof(cl_mem), &c), "clSetKernelArg");
    Launch launch;
    launch.kernel = kernel;
    launch.dims = 2;
    launch.global = {n / 4, n / 4};
    launch.local = {kGroup, kGroup};
    TimingPlan plan = timingPlan(facts, sizes.quick);
    // Compilation at enqueue happens once per kernel; a CPU's n=4096
    // launch lasts long enough not to repeat it just to warm up.
    plan.warmUp = first || facts.kind == DeviceFacts::Kind::Gpu;
    return secondsPerLaunch(session, launch, plan);
  });
}

/// An n/a figure for size n, and why on stderr beside the sizes run.
Figure unsupported(size_t n, std::string why) {
  std::fprintf(stderr, "  SGEMM: n=%zu skipped: %s\n", n, why.c_str());
  return unsupportedFigure(std::move(why));
}

} // namespace

std::span<const std::string> sgemmLabels() {
  static const std::vector<std::string> labels = [] {
    std::vector<std::string> all;
    for (size_t n : kSizes)
      all.push_back("SGEMM n=" + std::to_string(n) + ", 64x64 tiles, same kernel (GFLOPS)");
    return all;
  }();
  return labels;
}

std::vector<Figure> sgemm(const DeviceSession &session, const Sizes &sizes) {
  std::vector<Figure> figures(sgemmLabels().size());
  try {
    const DeviceFacts facts = deviceFacts(session.device());
    // Sizes skipped stay n/a even when the kernel then fails to build.
    std::vector<size_t> run;
    for (size_t i = 0; i < std::size(kSizes); ++i) {
      const std::string skip = skipReason(facts, sizes.quick, kSizes[i]);
      if (skip.empty())
        run.push_back(i);
      else
        figures[i] = unsupported(kSizes[i], skip);
    }
    if (run.empty())
      return figures;
    BuiltKernel built = build(session, kSgemmSource, "sgemm");
    const Figure *previous = nullptr;
    for (size_t i : run) {
      const double flops = 2.0 * std::pow(static_cast<double>(kSizes[i]), 3);
      const double projected = previous && previous->value ? flops / (*previous->value * 1e9) : 0;
      if (projected > kMaxLaunchSeconds) {
        figures[i] =
            unsupported(kSizes[i], "one launch would take about " + std::to_string(static_cast<int>(projected)) +
                                       " s at the smaller size's rate");
        continue;
      }
      std::fprintf(stderr, "  SGEMM: n=%zu\n", kSizes[i]);
      figures[i] = runSize(session, facts, sizes, built.kernel.get(), kSizes[i], i == run.front());
      previous = &figures[i];
    }
  } catch (const ClError &error) {
    for (Figure &figure : figures)
      if (!figure.unsupported)
        figure = fromError(error);
  }
  return figures;
}

} // namespace bench
