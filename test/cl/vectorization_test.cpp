// Kernels shaped like the cases a work-item vectoriser must get right
// (divergent branches and switches, early returns, gathers and scatters,
// private arrays indexed per work-item, loops that carry varying values,
// atomics under a mask, vector types, pointer induction variables, math with
// rare slow paths), each at work-group sizes that leave partial groups of
// lanes. Every device runs them; the host checks each work-item's result
// against its own computation of the same C code.
#include "cl_test.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace cltest;

namespace {

const char *kSource = R"(
int classify(int v, int n) {
  int r = 0;
  if (v % 3 == 0) {
    r = v * 2;
    if (v > n / 2)
      r += 7;
    else
      r -= 1;
  } else if (v % 3 == 1) {
    switch (v % 5) {
    case 0: r = 100; break;
    case 2: r = 200 + v; break;
    case 4: r = -v; break;
    default: r = v ^ 0x55;
    }
  } else {
    r = n > 10 ? v + n : v - n; // a uniform branch inside divergent code
  }
  return r;
}

__kernel void divergent(__global const int *in, __global int *out, int n) {
  int g = get_global_id(0);
  if (g >= n)
    return;
  if (in[g] < 0) {
    out[g] = -1;
    return;
  }
  out[g] = classify(in[g], n);
}

__kernel void strided(__global const float *in, __global float *out, int n) {
  int g = get_global_id(0);
  out[3 * g + 1] = in[(g * 7) % n] + in[n - 1 - g];
  out[3 * g] = (float)g;
  out[3 * g + 2] = in[g] * 0.5f;
}

__kernel void private_array(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float t[8];
  for (int k = 0; k < 8; ++k)
    t[k] = in[g] * k + g;
  t[g % 8] += 1.0f;
  out[g] = t[g % 8] + t[(g * 3) % 8];
}

__kernel void loop_chain(__global const float *in, __global float *out, int count) {
  int g = get_global_id(0);
  float x = in[g];
  float s = 0.0f;
  for (int k = 0; k < count; ++k) {
    if (((int)x + k) & 1)
      s += x * k;
    else
      s -= 0.25f * k;
    x = x * 0.5f + 1.0f;
  }
  out[g] = s;
}

__kernel void masked_atomics(__global const int *in, __global int *counter, __global int *histogram, int limit) {
  int g = get_global_id(0);
  int v = in[g];
  if (v > limit) {
    atomic_inc(counter);
    atomic_add(&histogram[v % 16], v);
  }
}

__kernel void vector_types(__global const float4 *in, __global float4 *out) {
  int g = get_global_id(0);
  float4 v = in[g];
  if (g % 3 == 0)
    v = v.wzyx;
  out[g] = v * (float)g + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}

// Vector types through every form the vectoriser widens: a gathered
// float4, a loop carrying one, an element inserted, a swizzle chosen by a
// divergent branch, bit casts, a vector compare and select, a float3 store.
__kernel void vector_mix(__global const float4 *in, __global float4 *out, __global float *threes, int n, int steps) {
  int g = get_global_id(0);
  float4 v = in[(g * 5) % n];
  float4 acc = (float4)(0.0f);
  for (int k = 0; k < steps; ++k)
    acc = mad(acc, (float4)(0.5f), v);
  float4 w = acc;
  w.y = v.x;
  if (v.x > 0.0f)
    w = w.zwxy;
  w = as_float4(as_uint4(w) ^ (uint4)(0x80000000u, 0u, 0u, 0x80000000u));
  w = select(w, (float4)(-1.0f), w < (float4)(1.0f));
  out[g] = w;
  vstore3(w.xyz, g, threes);
}

// Barriers in both arms of a branch whose condition the vectoriser sees as
// varying (it is computed from the local id) but which is the same for the
// whole work-group, as OpenCL requires of barriers in branches.
__kernel void barrier_branches(__global const float *in, __global float *out, __global const int *flags) {
  size_t i = get_global_id(0);
  float x = in[i];
  if (flags[get_local_id(0) / get_local_size(0)] > 0) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    x = x * 2.0f + 1.0f;
  } else {
    barrier(CLK_GLOBAL_MEM_FENCE);
    x -= 1.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  out[i] = x;
}

__kernel void uniform_loads(__global const int *table, __global int *out, int k, int n) {
  int g = get_global_id(0);
  if (g * 2 < n)
    out[g] = table[0] + table[k] * g;
  else
    out[g] = table[1];
}

__kernel void pointer_walk(__global const int *in, __global int *out, int steps, int stride) {
  __global const int *p = in + get_global_id(0);
  int sum = 0;
  for (int k = 0; k < steps; ++k, p += stride)
    sum += *p * (k + 1);
  out[get_global_id(0)] = sum;
}

__kernel void two_sided(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], y;
  if (x > 0.0f) {
    y = sqrt(x * x + 1.0f) - 2.0f; y = sqrt(y * y + 3.0f) - 4.0f; y = sqrt(y * y + 5.0f) - 6.0f;
    y = sqrt(y * y + 7.0f) - 8.0f; y = sqrt(y * y + 9.0f) - 1.0f; y = sqrt(y * y + 2.0f) - 3.0f;
  } else {
    y = sqrt(x * x + 2.0f) + 1.0f; y = sqrt(y * y + 4.0f) + 3.0f; y = sqrt(y * y + 6.0f) + 5.0f;
    y = sqrt(y * y + 8.0f) + 7.0f; y = sqrt(y * y + 1.0f) + 9.0f; y = sqrt(y * y + 3.0f) + 2.0f;
  }
  out[g] = y;
}

__kernel void divergent_loops(__global const int *in, __global int *out, __global float *x_out) {
  int g = get_global_id(0);
  int v = in[g];
  // A trip count per work-item, a branch inside, values used after the loop.
  int s = 0, k;
  for (k = 0; k < v % 23; ++k) {
    if (k & 1)
      s += k * v;
    else
      s -= k;
  }
  // A data-dependent exit at the bottom.
  float x = (float)(v % 7) + 0.5f;
  int steps = 0;
  do {
    x = x * 1.5f - 0.25f;
    ++steps;
  } while (x < 100.0f && steps < 40);
  out[2 * g] = s + k;
  out[2 * g + 1] = steps;
  x_out[g] = x;
}

__kernel void rare_slow_paths(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g];
  out[g] = sin(x) + (x > 0.0f ? log(x) : exp(x));
}

// Phases between barriers: a private array and other per-work-item values
// live across them (each lane keeps its own), a counter every work-item
// computes alike (kept once for all lanes), divergent code inside a phase.
__kernel void barrier_phases(__global const float *in, __global float *out) {
  __local float tile[1024];
  int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = in[g] * (i + 1);
  int rounds = 0;
  for (int r = 0; r < 3; ++r) {
    tile[l] = acc[0] + acc[3] + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    float mirror = tile[n - 1 - l];
    if (l % 3 == 0) {
      acc[1] += mirror;
      acc[2] -= r;
    } else {
      acc[3] -= mirror * 0.5f;
    }
    for (int i = 0; i < 4; ++i)
      acc[i] *= 0.75f;
    rounds += r + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = acc[0] + acc[1] * 2.0f + acc[2] * 4.0f + acc[3] * 8.0f + rounds;
}
)";

int classify(int v, int n) {
  int r = 0;
  if (v % 3 == 0) {
    r = v * 2;
    r += v > n / 2 ? 7 : -1;
  } else if (v % 3 == 1) {
    switch (v % 5) {
    case 0:
      r = 100;
      break;
    case 2:
      r = 200 + v;
      break;
    case 4:
      r = -v;
      break;
    default:
      r = v ^ 0x55;
    }
  } else {
    r = n > 10 ? v + n : v - n;
  }
  return r;
}

/// Global and local sizes: whole vectors of lanes, partial ones, groups
/// narrower than a vector, and the implementation's choice (local 0).
struct Geometry {
  size_t global;
  size_t local;
};
const Geometry kGeometries[] = {{1, 1},   {7, 7},     {64, 64}, {100, 25}, {99, 33}, {1000, 40},
                                {48, 16}, {300, 100}, {257, 0}, {1024, 0}, {1000, 1}};

class VectorizationTest : public DeviceTest {
protected:
  void run(cl_kernel k, const Geometry &geometry) {
    const size_t *local = geometry.local ? &geometry.local : nullptr;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &geometry.global, local, 0, nullptr, nullptr))
        << "global " << geometry.global << " local " << geometry.local;
  }

  /// Runs `k(in, out, extra...)` over `geometry`; returns the `outCount`
  /// elements of `out`.
  template <typename T, typename... Extra>
  std::vector<T> runOnBuffer(cl_kernel k, const Geometry &geometry, std::vector<T> &in, size_t outCount,
                             const Extra &...extra) {
    Mem inMem = buffer(CL_MEM_COPY_HOST_PTR, in.size() * sizeof(T), in.data());
    Mem outMem = buffer(CL_MEM_READ_WRITE, outCount * sizeof(T));
    setArgs(k, inMem.get(), outMem.get(), extra...);
    run(k, geometry);
    return read<T>(outMem, outCount);
  }

  void SetUp() override {
    DeviceTest::SetUp();
    program_ = build(kSource);
    ASSERT_TRUE(program_);
  }

  Program program_;
};

std::string where(const Geometry &geometry, size_t item) {
  return "global " + std::to_string(geometry.global) + " local " + std::to_string(geometry.local) + " work-item " +
         std::to_string(item);
}

TEST_P(VectorizationTest, DivergentBranchesSwitchesAndEarlyReturns) {
  Kernel k = kernel(program_, "divergent");
  for (const Geometry &geometry : kGeometries) {
    cl_int n = static_cast<cl_int>(geometry.global - geometry.global / 5); // the last fifth returns early
    std::vector<cl_int> in(geometry.global), out(geometry.global, 12345);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = i % 11 == 4 ? -static_cast<cl_int>(i) : static_cast<cl_int>(i * 37 % 101);
    Mem inMem = buffer(CL_MEM_COPY_HOST_PTR, in.size() * 4, in.data());
    Mem outMem = buffer(CL_MEM_COPY_HOST_PTR, out.size() * 4, out.data());
    setArgs(k, inMem.get(), outMem.get(), n);
    run(k, geometry);
    std::vector<cl_int> result = read<cl_int>(outMem, out.size());
    for (size_t i = 0; i < result.size(); ++i) {
      cl_int expected = static_cast<cl_int>(i) >= n ? 12345 : in[i] < 0 ? -1 : classify(in[i], n);
      ASSERT_EQ(expected, result[i]) << where(geometry, i);
    }
  }
}

TEST_P(VectorizationTest, GathersAndScatters) {
  Kernel k = kernel(program_, "strided");
  for (const Geometry &geometry : kGeometries) {
    cl_int n = static_cast<cl_int>(geometry.global);
    std::vector<cl_float> in(n);
    for (cl_int i = 0; i < n; ++i)
      in[i] = static_cast<float>(i) * 1.25f - 3.0f;
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, 3 * n, n);
    for (cl_int g = 0; g < n; ++g) {
      ASSERT_EQ(static_cast<float>(g), result[3 * g]) << where(geometry, g);
      ASSERT_EQ(in[(g * 7) % n] + in[n - 1 - g], result[3 * g + 1]) << where(geometry, g);
      ASSERT_EQ(in[g] * 0.5f, result[3 * g + 2]) << where(geometry, g);
    }
  }
}

TEST_P(VectorizationTest, PrivateArraysIndexedPerWorkItem) {
  Kernel k = kernel(program_, "private_array");
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_float> in(geometry.global);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>(i % 17) - 8.0f;
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size());
    for (size_t g = 0; g < in.size(); ++g) {
      float t[8];
      // Small integers: exact whether or not the device contracts to fma.
      for (int j = 0; j < 8; ++j)
        t[j] = in[g] * static_cast<float>(j) + static_cast<float>(g);
      t[g % 8] += 1.0f;
      ASSERT_EQ(t[g % 8] + t[(g * 3) % 8], result[g]) << where(geometry, g);
    }
  }
}

TEST_P(VectorizationTest, LoopsCarryingVaryingValuesWithDivergenceInside) {
  Kernel k = kernel(program_, "loop_chain");
  const cl_int count = 9;
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_float> in(geometry.global);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>(i % 29);
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size(), count);
    for (size_t g = 0; g < in.size(); ++g) {
      double x = in[g], s = 0.0;
      for (int j = 0; j < count; ++j) {
        s += ((static_cast<int>(x) + j) & 1) ? x * j : -0.25 * j;
        x = x * 0.5 + 1.0;
      }
      ASSERT_NEAR(s, result[g], 1e-3 * (1.0 + std::fabs(s))) << where(geometry, g);
    }
  }
}

TEST_P(VectorizationTest, AtomicsUnderAMask) {
  Kernel k = kernel(program_, "masked_atomics");
  const cl_int limit = 40;
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_int> in(geometry.global), histogram(16, 0), counter(1, 0);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<cl_int>(i * 13 % 97);
    Mem inMem = buffer(CL_MEM_COPY_HOST_PTR, in.size() * 4, in.data());
    Mem counterMem = buffer(CL_MEM_COPY_HOST_PTR, 4, counter.data());
    Mem histogramMem = buffer(CL_MEM_COPY_HOST_PTR, 16 * 4, histogram.data());
    setArgs(k, inMem.get(), counterMem.get(), histogramMem.get(), limit);
    run(k, geometry);
    cl_int expectedCount = 0;
    std::vector<cl_int> expected(16, 0);
    for (cl_int v : in)
      if (v > limit) {
        ++expectedCount;
        expected[v % 16] += v;
      }
    EXPECT_EQ(expectedCount, read<cl_int>(counterMem, 1)[0]) << where(geometry, 0);
    EXPECT_EQ(expected, read<cl_int>(histogramMem, 16)) << where(geometry, 0);
  }
}

TEST_P(VectorizationTest, VectorTypesPerWorkItem) {
  Kernel k = kernel(program_, "vector_types");
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_float> in(4 * geometry.global);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>(i % 23) - 5.0f;
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size());
    for (size_t g = 0; g < geometry.global; ++g)
      for (size_t c = 0; c < 4; ++c) {
        float v = in[4 * g + (g % 3 == 0 ? 3 - c : c)];
        ASSERT_EQ(v * static_cast<float>(g) + static_cast<float>(c + 1), result[4 * g + c]) << where(geometry, g);
      }
  }
}

TEST_P(VectorizationTest, VectorTypesWidenedAcrossWorkItems) {
  Kernel k = kernel(program_, "vector_mix");
  const cl_int steps = 6;
  for (const Geometry &geometry : kGeometries) {
    const size_t n = geometry.global;
    std::vector<cl_float> in(4 * n);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>(static_cast<int>(i % 19) - 7) * 0.25f;
    Mem threesMem = buffer(CL_MEM_READ_WRITE, 3 * n * sizeof(cl_float));
    std::vector<cl_float> result =
        runOnBuffer(k, geometry, in, in.size(), threesMem.get(), static_cast<cl_int>(n), steps);
    std::vector<cl_float> threes = read<cl_float>(threesMem, 3 * n);
    for (size_t g = 0; g < n; ++g) {
      const float *v = &in[4 * ((g * 5) % n)];
      std::array<float, 4> acc{};
      for (int s = 0; s < steps; ++s)
        for (size_t c = 0; c < 4; ++c)
          acc[c] = acc[c] * 0.5f + v[c]; // exact: fused or not
      std::array<float, 4> w = acc;
      w[1] = v[0];
      if (v[0] > 0.0f)
        w = {w[2], w[3], w[0], w[1]};
      w[0] = -w[0];
      w[3] = -w[3];
      for (float &c : w)
        c = c < 1.0f ? -1.0f : c;
      for (size_t c = 0; c < 4; ++c)
        ASSERT_EQ(w[c], result[4 * g + c]) << where(geometry, g) << " element " << c;
      for (size_t c = 0; c < 3; ++c)
        ASSERT_EQ(w[c], threes[3 * g + c]) << where(geometry, g) << " vstore3 element " << c;
    }
  }
}

TEST_P(VectorizationTest, BarriersInBranchesTheWholeGroupTakes) {
  Kernel k = kernel(program_, "barrier_branches");
  for (cl_int flag : {1, -1}) {
    Mem flagMem = buffer(CL_MEM_COPY_HOST_PTR, sizeof flag, &flag);
    for (const Geometry &geometry : kGeometries) {
      std::vector<cl_float> in(geometry.global);
      for (size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<float>(i % 37) - 9.0f;
      std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size(), flagMem.get());
      for (size_t g = 0; g < in.size(); ++g)
        ASSERT_EQ(flag > 0 ? in[g] * 2.0f + 1.0f : in[g] - 1.0f, result[g]) << where(geometry, g) << " flag " << flag;
    }
  }
}

TEST_P(VectorizationTest, UniformLoadsInDivergentCode) {
  Kernel k = kernel(program_, "uniform_loads");
  const std::vector<cl_int> table = {5, -9, 3, 11};
  Mem tableMem = buffer(CL_MEM_COPY_HOST_PTR, table.size() * 4, const_cast<cl_int *>(table.data()));
  for (const Geometry &geometry : kGeometries) {
    cl_int n = static_cast<cl_int>(geometry.global), index = 3;
    Mem outMem = buffer(CL_MEM_READ_WRITE, n * 4);
    setArgs(k, tableMem.get(), outMem.get(), index, n);
    run(k, geometry);
    std::vector<cl_int> result = read<cl_int>(outMem, n);
    for (cl_int g = 0; g < n; ++g)
      ASSERT_EQ(g * 2 < n ? table[0] + table[index] * g : table[1], result[g]) << where(geometry, g);
  }
}

TEST_P(VectorizationTest, PointerInductionVariables) {
  Kernel k = kernel(program_, "pointer_walk");
  const cl_int steps = 5;
  for (const Geometry &geometry : kGeometries) {
    cl_int stride = static_cast<cl_int>(geometry.global);
    std::vector<cl_int> in(geometry.global * steps);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<cl_int>(i % 1000);
    std::vector<cl_int> result = runOnBuffer(k, geometry, in, geometry.global, steps, stride);
    for (size_t g = 0; g < geometry.global; ++g) {
      cl_int sum = 0;
      for (cl_int j = 0; j < steps; ++j)
        sum += in[g + j * stride] * (j + 1);
      ASSERT_EQ(sum, result[g]) << where(geometry, g);
    }
  }
}

TEST_P(VectorizationTest, LoopsWhoseExitDiffersBetweenWorkItems) {
  Kernel k = kernel(program_, "divergent_loops");
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_int> in(geometry.global);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<cl_int>(i * 31 % 211);
    Mem inMem = buffer(CL_MEM_COPY_HOST_PTR, in.size() * 4, in.data());
    Mem outMem = buffer(CL_MEM_READ_WRITE, 2 * in.size() * 4);
    Mem xMem = buffer(CL_MEM_READ_WRITE, in.size() * 4);
    setArgs(k, inMem.get(), outMem.get(), xMem.get());
    run(k, geometry);
    std::vector<cl_int> out = read<cl_int>(outMem, 2 * in.size());
    std::vector<cl_float> xs = read<cl_float>(xMem, in.size());
    for (size_t g = 0; g < in.size(); ++g) {
      cl_int v = in[g], s = 0, j = 0;
      for (; j < v % 23; ++j)
        s += (j & 1) ? j * v : -j;
      float x = static_cast<float>(v % 7) + 0.5f;
      cl_int steps = 0;
      do {
        x = x * 1.5f - 0.25f; // exact in float: halves and quarters of small numbers
        ++steps;
      } while (x < 100.0f && steps < 40);
      ASSERT_EQ(s + j, out[2 * g]) << where(geometry, g);
      ASSERT_EQ(steps, out[2 * g + 1]) << where(geometry, g);
      ASSERT_EQ(x, xs[g]) << where(geometry, g);
    }
  }
}

TEST_P(VectorizationTest, MathWithRareSlowPathsInSomeLanes) {
  Kernel k = kernel(program_, "rare_slow_paths");
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_float> in(geometry.global);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = i % 31 == 6   ? 1.0e30f * static_cast<float>(i % 5 + 1) // sin's long argument reduction
              : i % 29 == 3 ? -static_cast<float>(i % 50)             // exp, not log
                            : static_cast<float>(i) * 0.37f + 0.01f;
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size());
    for (size_t g = 0; g < in.size(); ++g) {
      double x = in[g];
      double expected = std::sin(x) + (x > 0.0 ? std::log(x) : std::exp(x));
      ASSERT_NEAR(expected, result[g], 1e-5 * (1.0 + std::fabs(expected))) << where(geometry, g) << " x " << x;
    }
  }
}

TEST_P(VectorizationTest, BothSidesOfABranchWhenOnlyOneSideHasLanes) {
  Kernel k = kernel(program_, "two_sided");
  auto side = [](double y, const double(&constants)[12]) {
    for (int step = 0; step < 6; ++step)
      y = std::sqrt(y * y + constants[2 * step]) + constants[2 * step + 1];
    return y;
  };
  const double positive[12] = {1, -2, 3, -4, 5, -6, 7, -8, 9, -1, 2, -3};
  const double negative[12] = {2, 1, 4, 3, 6, 5, 8, 7, 1, 9, 3, 2};
  for (const Geometry &geometry : kGeometries) {
    std::vector<cl_float> in(geometry.global);
    // Runs of 16 work-items on one side (whole vectors of lanes that take
    // one side only), and single ones on the other side among them.
    for (size_t i = 0; i < in.size(); ++i)
      in[i] =
          ((i / 16) % 3 == 1) != (i % 29 == 3) ? -static_cast<float>(i % 7) : static_cast<float>(i % 13) * 0.5f + 0.25f;
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size());
    for (size_t g = 0; g < in.size(); ++g) {
      double expected = in[g] > 0.0f ? side(in[g], positive) : side(in[g], negative);
      ASSERT_NEAR(expected, result[g], 1e-4 * (1.0 + std::fabs(expected))) << where(geometry, g);
    }
  }
}

TEST_P(VectorizationTest, BarrierPhasesWithPrivateValuesAcrossBarriers) {
  Kernel k = kernel(program_, "barrier_phases");
  for (const Geometry &geometry : kGeometries) {
    if (!geometry.local)
      continue; // the reference needs the work-group size
    std::vector<cl_float> in(geometry.global);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>((i * 37) % 101) * 0.125f - 3.0f;
    std::vector<cl_float> result = runOnBuffer(k, geometry, in, in.size());
    const size_t n = geometry.local;
    for (size_t first = 0; first < in.size(); first += n) {
      std::vector<std::array<float, 4>> acc(n);
      for (size_t l = 0; l < n; ++l)
        for (int i = 0; i < 4; ++i)
          acc[l][i] = in[first + l] * static_cast<float>(i + 1);
      int rounds = 0;
      for (int r = 0; r < 3; ++r) {
        std::vector<float> tile(n);
        for (size_t l = 0; l < n; ++l)
          tile[l] = acc[l][0] + acc[l][3] + static_cast<float>(r);
        for (size_t l = 0; l < n; ++l) {
          float mirror = tile[n - 1 - l];
          if (l % 3 == 0) {
            acc[l][1] += mirror;
            acc[l][2] -= static_cast<float>(r);
          } else {
            acc[l][3] -= mirror * 0.5f;
          }
          for (float &value : acc[l])
            value *= 0.75f;
        }
        rounds += r + 1;
      }
      for (size_t l = 0; l < n; ++l) {
        float expected =
            acc[l][0] + acc[l][1] * 2.0f + acc[l][2] * 4.0f + acc[l][3] * 8.0f + static_cast<float>(rounds);
        ASSERT_EQ(expected, result[first + l]) << where(geometry, first + l);
      }
    }
  }
}

/// Tiles indexed through quotients and remainders of a flattened local id
/// (as CLBlast's Xgemm indexes its tiles): `tid / 8` is the same for a
/// vector's lanes when they are 8 or fewer consecutive ids starting at a
/// multiple of their count, `tid % 8` steps by one. One kernel requires its
/// work-group size (the vectoriser may then rely on it), the other takes
/// any, with the row length it assumes passed in.
const char *kTileSource = R"(
#define TILE(tid, n)                                                            \
  int group = get_group_id(1) * get_num_groups(0) + get_group_id(0);            \
  tile[tid] = in[group * n + (tid / 8) * 8 + tid % 8] + (float)(tid / 4);       \
  barrier(CLK_LOCAL_MEM_FENCE);                                                 \
  int j = ((tid >> 2) & 30) | 1;                                                \
  out[group * n + tid] = tile[n - 1 - tid] * 2.0f + (float)j +                  \
                         (float)(tid & 15) * 0.5f + (float)((tid + 8) / 16) +   \
                         (float)((tid - 8) % 16);

__kernel __attribute__((reqd_work_group_size(8, 16, 1)))
void tiles_required(__global const float *in, __global float *out) {
  __local float tile[128];
  int tid = get_local_id(1) * 8 + get_local_id(0);
  TILE(tid, 128)
}

__kernel void tiles_any(__global const float *in, __global float *out, int row) {
  __local float tile[256];
  int tid = get_local_id(1) * row + get_local_id(0);
  int n = row * get_local_size(1);
  TILE(tid, n)
}
)";

/// The host's computation of TILE for work-group `groupIndex` of `n`
/// work-items.
std::vector<float> expectedTiles(const std::vector<float> &in, size_t groupIndex, size_t n) {
  std::vector<float> tile(n), out(n);
  const float *group = &in[groupIndex * n];
  for (size_t tid = 0; tid < n; ++tid)
    tile[tid] = group[tid] + static_cast<float>(tid / 4);
  for (size_t tid = 0; tid < n; ++tid) {
    int t = static_cast<int>(tid);
    int j = ((t >> 2) & 30) | 1;
    out[tid] = tile[n - 1 - tid] * 2.0f + static_cast<float>(j) + static_cast<float>(t & 15) * 0.5f +
               static_cast<float>((t + 8) / 16) + static_cast<float>((t - 8) % 16);
  }
  return out;
}

TEST_P(VectorizationTest, TilesIndexedByQuotientsOfTheLocalId) {
  Program program = build(kTileSource);
  ASSERT_TRUE(program);
  struct Shape {
    const char *kernel;
    size_t local[2];
    size_t groups[2];
  };
  // Rows of 8, 16 and 32 work-items, and rows narrower than a vector.
  const Shape shapes[] = {{"tiles_required", {8, 16}, {3, 2}}, {"tiles_any", {8, 16}, {2, 2}},
                          {"tiles_any", {16, 4}, {3, 1}},      {"tiles_any", {32, 2}, {1, 3}},
                          {"tiles_any", {4, 8}, {2, 2}},       {"tiles_any", {2, 3}, {2, 1}}};
  for (const Shape &shape : shapes) {
    const size_t n = shape.local[0] * shape.local[1];
    const size_t groupCount = shape.groups[0] * shape.groups[1];
    std::vector<cl_float> in(n * groupCount);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>((i * 29) % 53) * 0.25f - 4.0f;
    Kernel k = kernel(program, shape.kernel);
    Mem inMem = buffer(CL_MEM_COPY_HOST_PTR, in.size() * 4, in.data());
    Mem outMem = buffer(CL_MEM_READ_WRITE, in.size() * 4);
    if (std::strcmp(shape.kernel, "tiles_any") == 0)
      setArgs(k, inMem.get(), outMem.get(), static_cast<cl_int>(shape.local[0]));
    else
      setArgs(k, inMem.get(), outMem.get());
    const size_t global[2] = {shape.local[0] * shape.groups[0], shape.local[1] * shape.groups[1]};
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, shape.local, 0, nullptr, nullptr));
    std::vector<cl_float> result = read<cl_float>(outMem, in.size());
    for (size_t group = 0; group < groupCount; ++group) {
      std::vector<float> expected = expectedTiles(in, group, n);
      for (size_t tid = 0; tid < n; ++tid)
        ASSERT_EQ(expected[tid], result[group * n + tid]) << shape.kernel << " local " << shape.local[0] << "x"
                                                          << shape.local[1] << " group " << group << " tid " << tid;
    }
  }
}

// Without a required size the host's vector width is the code's choice;
// quotients of the local id by it are then one value per vector. Group
// sizes that are not multiples of it end in partial vectors.
TEST_P(VectorizationTest, QuotientsOfTheLocalIdWithoutARequiredSize) {
  Program program = build(R"(
__kernel void quotients(__global const float *in, __global float *out) {
  int lid = get_local_id(0);
  int base = get_group_id(0) * get_local_size(0);
  out[base + lid] = in[base + lid / 16] * 2.0f + (float)(lid / 8) + in[base + lid % 16] + (float)(lid / 4 * 3);
})");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "quotients");
  const size_t groups = 3;
  for (size_t local : {64u, 48u, 24u, 20u, 16u, 8u, 5u}) {
    const size_t n = local * groups;
    std::vector<cl_float> in(n);
    for (size_t i = 0; i < n; ++i)
      in[i] = static_cast<float>((i * 37) % 61) * 0.5f - 7.0f;
    Mem inMem = buffer(CL_MEM_COPY_HOST_PTR, n * 4, in.data());
    Mem outMem = buffer(CL_MEM_READ_WRITE, n * 4);
    setArgs(k, inMem.get(), outMem.get());
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, &local, 0, nullptr, nullptr));
    std::vector<cl_float> result = read<cl_float>(outMem, n);
    for (size_t group = 0; group < groups; ++group)
      for (size_t lid = 0; lid < local; ++lid) {
        const size_t base = group * local;
        // lid % 16 and lid / 16 stay inside the group for these sizes.
        const float expected = in[base + lid / 16] * 2.0f + static_cast<float>(lid / 8) + in[base + lid % 16] +
                               static_cast<float>(lid / 4 * 3);
        ASSERT_EQ(expected, result[base + lid]) << "local " << local << " group " << group << " lid " << lid;
      }
  }
}

CLTEST_INSTANTIATE(VectorizationTest);

} // namespace
