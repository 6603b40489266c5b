// Work-group barriers, end to end: kernels whose work-items exchange values
// through __local and __global memory across barriers placed in straight-line
// code, loops, helper functions and uniform branches, in 1, 2 and 3
// dimensions, with values of many types live across them. Every kernel runs
// optimised and with -cl-opt-disable; results are checked against references
// computed here.
#include "cl_test.h"

#include <array>
#include <numeric>

using namespace cltest;

namespace {

constexpr std::array<const char *, 2> kOptions = {"", "-cl-opt-disable"};

class BarrierTest : public DeviceTest {
protected:
  /// Enqueues `k` over `dims` dimensions and waits for it.
  void run(cl_kernel k, unsigned dims, const size_t *global, const size_t *local) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
  void run1D(cl_kernel k, size_t global, size_t local) { run(k, 1, &global, &local); }
  template <typename T> Mem input(const std::vector<T> &values) {
    return buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T), const_cast<T *>(values.data()));
  }
};

/// Reverses each group's slice of `in`: out[g] = in[mirror of g in its group].
std::vector<cl_int> reversedInGroups(const std::vector<cl_int> &in, size_t local) {
  std::vector<cl_int> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    size_t base = i / local * local, size = std::min(local, in.size() - base);
    out[i] = in[base + size - 1 - (i - base)];
  }
  return out;
}

} // namespace

TEST_P(BarrierTest, StraightLineReverseThroughLocalMemory) {
  const char *source = R"(
__kernel void reverse_var(__global const int *in, __global int *out) {
  __local int tile[64];
  size_t lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_size(0) - 1 - lid];
}
__kernel void reverse_arg(__global const int *in, __global int *out, __local int *tile) {
  size_t lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_size(0) - 1 - lid];
}
)";
  const size_t n = 256, local = 64;
  std::vector<cl_int> in(n);
  std::iota(in.begin(), in.end(), 17);
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    for (const char *name : {"reverse_var", "reverse_arg"}) {
      Kernel k = kernel(program, name);
      Mem src = input(in);
      Mem dst = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
      setArgs(k, src.get(), dst.get());
      if (std::string_view(name) == "reverse_arg")
        ASSERT_CL(clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr));
      run1D(k, n, local);
      EXPECT_EQ(read<cl_int>(dst, n), reversedInGroups(in, local)) << name << " " << options;
    }
  }
}

TEST_P(BarrierTest, LoopWithLoopCarriedValueAndPrivateArray) {
  const char *source = R"(
__kernel void rounds(__global long *out, __global int *scratch, int count) {
  __local int shared[32];
  int lid = get_local_id(0), n = get_local_size(0);
  size_t base = get_group_id(0) * n;
  int history[4] = {0, 0, 0, 0};
  long acc = lid;
  for (int r = 0; r < count; ++r) {
    shared[lid] = (int)acc;
    scratch[base + lid] = (int)(acc >> 1);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    int neighbour = shared[(lid + 1) % n] + scratch[base + (lid + 2) % n];
    history[r & 3] += neighbour;
    acc = acc * 3 + neighbour;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc + history[0] * 7 + history[1] * 5 + history[2] * 3 + history[3];
}
)";
  const size_t n = 96, local = 32;
  const cl_int count = 7;
  std::vector<cl_long> expected(n);
  for (size_t group = 0; group < n / local; ++group) {
    std::vector<cl_long> acc(local);
    std::vector<std::array<cl_int, 4>> history(local, std::array<cl_int, 4>{});
    std::iota(acc.begin(), acc.end(), 0);
    for (int r = 0; r < count; ++r) {
      std::vector<cl_long> before = acc;
      for (size_t l = 0; l < local; ++l) {
        cl_int neighbour =
            static_cast<cl_int>(before[(l + 1) % local]) + static_cast<cl_int>(before[(l + 2) % local] >> 1);
        history[l][r & 3] += neighbour;
        acc[l] = acc[l] * 3 + neighbour;
      }
    }
    for (size_t l = 0; l < local; ++l) {
      const auto &h = history[l];
      expected[group * local + l] = acc[l] + h[0] * 7 + h[1] * 5 + h[2] * 3 + h[3];
    }
  }
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "rounds");
    Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_long));
    Mem scratch = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    setArgs(k, out.get(), scratch.get(), count);
    run1D(k, n, local);
    EXPECT_EQ(read<cl_long>(out, n), expected) << options;
  }
}

TEST_P(BarrierTest, TreeReductionWithTripCountFromLocalSize) {
  const char *source = R"(
__kernel void reduce(__global const int *in, __global int *sums, __local int *tmp) {
  size_t lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = tmp[0];
}
)";
  const size_t n = 512;
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_int>((i * 37) % 101) - 50;
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "reduce");
    for (size_t local : {size_t(64), size_t(8), size_t(1)}) {
      Mem src = input(in);
      Mem sums = buffer(CL_MEM_WRITE_ONLY, n / local * sizeof(cl_int));
      setArgs(k, src.get(), sums.get());
      ASSERT_CL(clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr));
      run1D(k, n, local);
      std::vector<cl_int> expected(n / local);
      for (size_t i = 0; i < n; ++i)
        expected[i / local] += in[i];
      EXPECT_EQ(read<cl_int>(sums, n / local), expected) << "local " << local << " " << options;
    }
  }
}

TEST_P(BarrierTest, BarrierInHelperFunction) {
  const char *source = R"(
void rotate_left(__local int *tmp, int *value) {
  size_t lid = get_local_id(0);
  tmp[lid] = *value;
  barrier(CLK_LOCAL_MEM_FENCE);
  *value = tmp[(lid + 1) % get_local_size(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
}
__kernel void helper(__global int *data, __local int *tmp) {
  int v = data[get_global_id(0)];
  rotate_left(tmp, &v);
  v = v * 2 + 1;
  rotate_left(tmp, &v);
  data[get_global_id(0)] = v;
}
)";
  const size_t n = 120, local = 40;
  std::vector<cl_int> in(n);
  std::iota(in.begin(), in.end(), -30);
  std::vector<cl_int> expected(n);
  for (size_t i = 0; i < n; ++i) {
    size_t base = i / local * local;
    expected[i] = in[base + (i - base + 2) % local] * 2 + 1;
  }
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "helper");
    Mem data = input(in);
    setArgs(k, data.get());
    ASSERT_CL(clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr));
    run1D(k, n, local);
    EXPECT_EQ(read<cl_int>(data, n), expected) << options;
  }
}

TEST_P(BarrierTest, UniformIfElseEachWithABarrier) {
  const char *source = R"(
__kernel void branches(__global int *data, __local int *tmp, int mode) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  int v = data[get_global_id(0)];
  if (mode == 0) {
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = tmp[n - 1 - lid];
  } else {
    tmp[n - 1 - lid] = v * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = tmp[(lid + 1) % n] + v;
  }
  data[get_global_id(0)] = v;
}
)";
  const size_t n = 64, local = 16;
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_int>(i * i % 23);
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "branches");
    for (cl_int mode : {0, 1}) {
      Mem data = input(in);
      setArgs(k, data.get());
      ASSERT_CL(clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr));
      ASSERT_CL(setArg(k, 2, mode));
      run1D(k, n, local);
      std::vector<cl_int> expected(n);
      for (size_t i = 0; i < n; ++i) {
        size_t base = i / local * local, lid = i - base;
        if (mode == 0) {
          expected[i] = in[base + local - 1 - lid];
        } else {
          // tmp[local - 1 - j] = 3 * in[j] so tmp[m] = 3 * in[local - 1 - m].
          size_t m = (lid + 1) % local;
          expected[i] = 3 * in[base + local - 1 - m] + in[i];
        }
      }
      EXPECT_EQ(read<cl_int>(data, n), expected) << "mode " << mode << " " << options;
    }
  }
}

TEST_P(BarrierTest, ValuesOfManyTypesLiveAcrossBarriers) {
  const char *source = R"(
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif
__kernel void types(__global const float4 *in, __global long *out, __global float4 *vout) {
  __local int shared[64];
  size_t lid = get_local_id(0), gid = get_global_id(0);
  float4 x = in[gid];
  float4 v = x * 2.0f;
  real d = (real)x.y * 0.5;
  long l = (long)x.z << 33;
  char c = (char)x.w;
  uchar3 u = (uchar3)((uchar)x.x, 2, 3);
  shared[lid] = (int)gid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int other = shared[get_local_size(0) - 1 - lid];
  v += (float4)((float)other);
  d += other;
  barrier(CLK_LOCAL_MEM_FENCE);
  l += other;
  c += (char)other;
  u += (uchar3)((uchar)other);
  out[gid * 4 + 0] = l;
  out[gid * 4 + 1] = (long)(d * 2);
  out[gid * 4 + 2] = c;
  out[gid * 4 + 3] = u.x + u.y * 1000 + u.z * 1000000;
  vout[gid] = v;
}
)";
  const size_t n = 128, local = 32;
  std::vector<cl_float4> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = {{static_cast<float>(i % 200), static_cast<float>(i * 3), static_cast<float>(i + 5),
              static_cast<float>(i % 90)}};
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "types");
    Mem src = input(in);
    Mem out = buffer(CL_MEM_WRITE_ONLY, n * 4 * sizeof(cl_long));
    Mem vout = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_float4));
    setArgs(k, src.get(), out.get(), vout.get());
    run1D(k, n, local);
    auto longs = read<cl_long>(out, n * 4);
    auto vectors = read<cl_float4>(vout, n);
    for (size_t i = 0; i < n; ++i) {
      size_t base = i / local * local;
      cl_int other = static_cast<cl_int>(base + local - 1 - (i - base));
      ASSERT_EQ(longs[i * 4 + 0], (static_cast<cl_long>(i + 5) << 33) + other) << i << " " << options;
      ASSERT_EQ(longs[i * 4 + 1], static_cast<cl_long>(i * 3) + 2 * other) << i << " " << options;
      ASSERT_EQ(longs[i * 4 + 2], static_cast<cl_char>(static_cast<cl_char>(i % 90) + static_cast<cl_char>(other)))
          << i << " " << options;
      auto byte = [&](unsigned value) { return static_cast<cl_long>(static_cast<cl_uchar>(value + other)); };
      ASSERT_EQ(longs[i * 4 + 3], byte(i % 200) + byte(2) * 1000 + byte(3) * 1000000) << i << " " << options;
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(vectors[i].s[c], in[i].s[c] * 2.0f + static_cast<float>(other)) << i << "." << c << " " << options;
    }
  }
}

TEST_P(BarrierTest, TwoDimensionalGroups) {
  const char *source = R"(
__kernel void mirror2d(__global const int *in, __global int *out) {
  __local int tile[8 * 4];
  size_t lx = get_local_id(0), ly = get_local_id(1), w = get_local_size(0), h = get_local_size(1);
  size_t width = get_global_size(0);
  tile[ly * w + lx] = in[get_global_id(1) * width + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * width + get_global_id(0)] = tile[(h - 1 - ly) * w + (w - 1 - lx)];
}
)";
  const size_t global[2] = {16, 12}, local[2] = {8, 4};
  std::vector<cl_int> in(global[0] * global[1]);
  std::iota(in.begin(), in.end(), 0);
  std::vector<cl_int> expected(in.size());
  for (size_t y = 0; y < global[1]; ++y)
    for (size_t x = 0; x < global[0]; ++x) {
      size_t bx = x / local[0] * local[0], by = y / local[1] * local[1];
      size_t mx = bx + local[0] - 1 - (x - bx), my = by + local[1] - 1 - (y - by);
      expected[y * global[0] + x] = in[my * global[0] + mx];
    }
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "mirror2d");
    Mem src = input(in);
    Mem dst = buffer(CL_MEM_WRITE_ONLY, in.size() * sizeof(cl_int));
    setArgs(k, src.get(), dst.get());
    run(k, 2, global, local);
    EXPECT_EQ(read<cl_int>(dst, in.size()), expected) << options;
  }
}

TEST_P(BarrierTest, ThreeDimensionalGroups) {
  const char *source = R"(
__kernel void sum3d(__global int *out) {
  __local int cells[2 * 3 * 4];
  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
  size_t w = get_local_size(0), h = get_local_size(1), d = get_local_size(2);
  int mine = (int)(get_global_id(0) + 10 * get_global_id(1) + 100 * get_global_id(2));
  cells[(z * h + y) * w + x] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  int total = 0;
  for (size_t i = 0; i < w * h * d; ++i)
    total += cells[i];
  size_t g = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  out[g] = total - mine;
}
)";
  const size_t global[3] = {4, 6, 8}, local[3] = {2, 3, 4};
  const size_t count = global[0] * global[1] * global[2];
  std::vector<cl_int> expected(count);
  for (size_t z = 0; z < global[2]; ++z)
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        cl_int total = 0;
        size_t bx = x / local[0] * local[0], by = y / local[1] * local[1], bz = z / local[2] * local[2];
        for (size_t k = bz; k < bz + local[2]; ++k)
          for (size_t j = by; j < by + local[1]; ++j)
            for (size_t i = bx; i < bx + local[0]; ++i)
              total += static_cast<cl_int>(i + 10 * j + 100 * k);
        expected[x + global[0] * (y + global[1] * z)] = total - static_cast<cl_int>(x + 10 * y + 100 * z);
      }
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "sum3d");
    Mem out = buffer(CL_MEM_WRITE_ONLY, count * sizeof(cl_int));
    setArgs(k, out.get());
    run(k, 3, global, local);
    EXPECT_EQ(read<cl_int>(out, count), expected) << options;
  }
}

TEST_P(BarrierTest, NonUniformWorkGroups) {
  const char *std = deviceSupportsOpenCLC(device(), 3, 0)   ? "-cl-std=CL3.0 "
                    : deviceSupportsOpenCLC(device(), 2, 0) ? "-cl-std=CL2.0 "
                                                            : nullptr;
  if (!std || !deviceInfo<cl_bool>(device(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT))
    GTEST_SKIP() << "no non-uniform work-groups";
  const char *source = R"(
__kernel void reverse(__global const int *in, __global int *out, __local int *tile) {
  size_t lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  out[get_global_id(0)] = tile[get_local_size(0) - 1 - lid];
}
__kernel void mirror2d(__global const int *in, __global int *out, __local int *tile) {
  size_t lx = get_local_id(0), ly = get_local_id(1), w = get_local_size(0), h = get_local_size(1);
  size_t width = get_global_size(0);
  tile[ly * w + lx] = in[get_global_id(1) * width + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * width + get_global_id(0)] = tile[(h - 1 - ly) * w + (w - 1 - lx)];
}
)";
  for (const char *extra : kOptions) {
    std::string options = std::string(std) + extra;
    Program program = build(source, options.c_str());
    ASSERT_TRUE(program);
    {
      const size_t n = 100, local = 16; // the last group has 4 work-items
      std::vector<cl_int> in(n);
      std::iota(in.begin(), in.end(), 3);
      Kernel k = kernel(program, "reverse");
      Mem src = input(in);
      Mem dst = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
      setArgs(k, src.get(), dst.get());
      ASSERT_CL(clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr));
      run1D(k, n, local);
      EXPECT_EQ(read<cl_int>(dst, n), reversedInGroups(in, local)) << options;
    }
    {
      const size_t global[2] = {13, 7}, local[2] = {4, 3};
      std::vector<cl_int> in(global[0] * global[1]);
      std::iota(in.begin(), in.end(), 100);
      std::vector<cl_int> expected(in.size());
      for (size_t y = 0; y < global[1]; ++y)
        for (size_t x = 0; x < global[0]; ++x) {
          size_t bx = x / local[0] * local[0], by = y / local[1] * local[1];
          size_t w = std::min(local[0], global[0] - bx), h = std::min(local[1], global[1] - by);
          size_t mx = bx + w - 1 - (x - bx), my = by + h - 1 - (y - by);
          expected[y * global[0] + x] = in[my * global[0] + mx];
        }
      Kernel k = kernel(program, "mirror2d");
      Mem src = input(in);
      Mem dst = buffer(CL_MEM_WRITE_ONLY, in.size() * sizeof(cl_int));
      setArgs(k, src.get(), dst.get());
      ASSERT_CL(clSetKernelArg(k, 2, local[0] * local[1] * sizeof(cl_int), nullptr));
      run(k, 2, global, local);
      EXPECT_EQ(read<cl_int>(dst, in.size()), expected) << options;
    }
  }
}

TEST_P(BarrierTest, PointerIntoPrivateArrayAcrossBarrier) {
  const char *source = R"(
__kernel void indirect(__global const int *index, __global int *out) {
  int values[8];
  for (int i = 0; i < 8; ++i)
    values[i] = i + (int)get_local_id(0);
  int *p = &values[index[get_global_id(0)] & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  *p += 100;
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += values[i] * (i + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = sum + *p * 1000;
}
)";
  const size_t n = 64, local = 16;
  std::vector<cl_int> index(n);
  for (size_t i = 0; i < n; ++i)
    index[i] = static_cast<cl_int>((i * 5 + 3) % 11);
  std::vector<cl_int> expected(n);
  for (size_t i = 0; i < n; ++i) {
    cl_int values[8];
    for (int j = 0; j < 8; ++j)
      values[j] = j + static_cast<cl_int>(i % local);
    cl_int *p = &values[index[i] & 7];
    *p += 100;
    cl_int sum = 0;
    for (int j = 0; j < 8; ++j)
      sum += values[j] * (j + 1);
    expected[i] = sum + *p * 1000;
  }
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "indirect");
    Mem src = input(index);
    Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
    setArgs(k, src.get(), out.get());
    run1D(k, n, local);
    EXPECT_EQ(read<cl_int>(out, n), expected) << options;
  }
}

TEST_P(BarrierTest, StructArgumentModifiedAcrossBarrier) {
  const char *source = R"(
typedef struct { int scale; int offset; float weights[4]; } Params;
__kernel void params(__global int *data, __local int *tmp, Params p) {
  size_t lid = get_local_id(0);
  p.offset += (int)lid;
  p.weights[lid % 4] = 2.0f;
  tmp[lid] = data[get_global_id(0)] * p.scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[(lid + 3) % get_local_size(0)] + p.offset + (int)(p.weights[0] + p.weights[1]);
}
)";
  struct Params {
    cl_int scale;
    cl_int offset;
    cl_float weights[4];
  };
  const size_t n = 64, local = 8;
  std::vector<cl_int> in(n);
  std::iota(in.begin(), in.end(), 1);
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "params");
    Mem data = input(in);
    Params params{3, 100, {0.5f, 0.25f, 1.0f, 1.0f}};
    setArgs(k, data.get());
    ASSERT_CL(clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr));
    ASSERT_CL(setArg(k, 2, params));
    run1D(k, n, local);
    std::vector<cl_int> expected(n);
    for (size_t i = 0; i < n; ++i) {
      size_t base = i / local * local, lid = i - base;
      float w[4] = {0.5f, 0.25f, 1.0f, 1.0f};
      w[lid % 4] = 2.0f;
      expected[i] =
          in[base + (lid + 3) % local] * 3 + 100 + static_cast<cl_int>(lid) + static_cast<cl_int>(w[0] + w[1]);
    }
    EXPECT_EQ(read<cl_int>(data, n), expected) << options;
  }
}

TEST_P(BarrierTest, KernelWithoutBarrierInTheSameProgram) {
  const char *source = R"(
__kernel void plain(__global int *data) { data[get_global_id(0)] = data[get_global_id(0)] * 2 + (int)get_local_id(0); }
__kernel void swap_pairs(__global int *data, __local int *tmp) {
  size_t lid = get_local_id(0);
  tmp[lid] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[lid ^ 1];
}
)";
  const size_t n = 96, local = 12;
  std::vector<cl_int> in(n);
  std::iota(in.begin(), in.end(), 7);
  for (const char *options : kOptions) {
    Program program = build(source, options);
    ASSERT_TRUE(program);
    Kernel plain = kernel(program, "plain");
    Kernel swap = kernel(program, "swap_pairs");
    Mem data = input(in);
    setArgs(plain, data.get());
    run1D(plain, n, local);
    setArgs(swap, data.get());
    ASSERT_CL(clSetKernelArg(swap, 1, local * sizeof(cl_int), nullptr));
    run1D(swap, n, local);
    std::vector<cl_int> expected(n);
    for (size_t i = 0; i < n; ++i) {
      size_t j = i ^ 1; // pairs stay within groups of 12
      expected[i] = in[j] * 2 + static_cast<cl_int>(j % local);
    }
    EXPECT_EQ(read<cl_int>(data, n), expected) << options;
  }
}

CLTEST_INSTANTIATE(BarrierTest);
