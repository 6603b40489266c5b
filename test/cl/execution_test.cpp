// Kernel execution: arithmetic against host references, and every kind of
// kernel argument (scalars, vectors, structs, local pointers, NULL buffers,
// sub-buffers).
#include "cl_test.h"
#include "test_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace cltest;

namespace {

class ExecutionTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    const char *options = "";
    cl_device_fp_config single = deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_SINGLE_FP_CONFIG);
    exactDivSqrt_ = single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    if (exactDivSqrt_)
      options = "-cl-fp32-correctly-rounded-divide-sqrt";
    arithmetic_ = build(kernels::arithmetic, options);
    ASSERT_TRUE(arithmetic_);
  }
  void run1D(cl_kernel k, size_t global, size_t local = 0) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr));
  }
  template <typename T> Mem input(const std::vector<T> &values) {
    return buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T), const_cast<T *>(values.data()));
  }
  Program arithmetic_;
  bool exactDivSqrt_ = false;
};

// Distance in units in the last place between two finite floats.
uint32_t ulps(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0)
    ia = INT32_MIN - ia;
  if (ib < 0)
    ib = INT32_MIN - ib;
  return static_cast<uint32_t>(ia > ib ? int64_t(ia) - ib : int64_t(ib) - ia);
}

} // namespace

TEST_P(ExecutionTest, VectorAdd) {
  constexpr size_t n = 10007;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.25f - 300.0f;
    b[i] = static_cast<float>(n - i) * 1.5f;
  }
  Mem ma = input(a), mb = input(b), mc = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  Kernel k = kernel(arithmetic_, "vector_add");
  setArgs(k, ma.get(), mb.get(), mc.get());
  run1D(k, n);
  auto c = read<float>(mc, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_P(ExecutionTest, Saxpy) {
  // Values whose products and sums are exact, so fused and unfused
  // evaluation agree.
  constexpr size_t n = 4096;
  const float alpha = 2.5f;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 512) * 0.5f;
    y[i] = static_cast<float>(i) - 1000.0f;
  }
  Mem mx = input(x);
  Mem my = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), y.data());
  Kernel k = kernel(arithmetic_, "saxpy");
  setArgs(k, alpha, mx.get(), my.get());
  run1D(k, n, 64);
  auto out = read<float>(my, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], alpha * x[i] + y[i]) << i;
}

TEST_P(ExecutionTest, Mad) {
  constexpr size_t n = 1024;
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 100) - 50.0f;
    b[i] = static_cast<float>(i % 7) * 0.125f;
    c[i] = static_cast<float>(i) * 2.0f;
  }
  Mem ma = input(a), mb = input(b), mc = input(c), out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  Kernel k = kernel(arithmetic_, "mad_kernel");
  setArgs(k, ma.get(), mb.get(), mc.get(), out.get());
  run1D(k, n);
  auto result = read<float>(out, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(result[i], a[i] * b[i] + c[i]) << i;
}

TEST_P(ExecutionTest, IntegerOps) {
  constexpr size_t n = 3000;
  std::vector<cl_int> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<cl_int>(i * 7919 % 20011) - 10000;
    b[i] = static_cast<cl_int>(i * 104729 % 401) - 200;
    if (b[i] == 0)
      b[i] = 3;
  }
  Mem ma = input(a), mb = input(b), out = buffer(CL_MEM_WRITE_ONLY, 8 * n * sizeof(cl_int));
  Kernel k = kernel(arithmetic_, "int_ops");
  setArgs(k, ma.get(), mb.get(), out.get());
  run1D(k, n);
  auto r = read<cl_int>(out, 8 * n);
  for (size_t i = 0; i < n; ++i) {
    cl_int x = a[i], y = b[i];
    cl_int expected[8] = {x + y,
                          x - y,
                          x * y,
                          x / y,
                          x % y,
                          (x & y) ^ (x | static_cast<cl_int>(static_cast<uint32_t>(y) << 3)) ^ (x >> 2),
                          std::min(x, y) + std::max(x, y) * 3,
                          std::clamp(x, -100, 100)};
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(r[8 * i + j], expected[j]) << "element " << i << " op " << j << " x=" << x << " y=" << y;
  }
}

TEST_P(ExecutionTest, UnsignedAnd64BitOps) {
  constexpr size_t n = 2000;
  std::vector<cl_ulong> a(n);
  std::vector<cl_uint> b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    b[i] = static_cast<cl_uint>(i * 2654435761u);
  }
  Mem ma = input(a), mb = input(b), out = buffer(CL_MEM_WRITE_ONLY, 4 * n * sizeof(cl_ulong));
  Kernel k = kernel(arithmetic_, "ulong_ops");
  setArgs(k, ma.get(), mb.get(), out.get());
  run1D(k, n);
  auto r = read<cl_ulong>(out, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    cl_ulong x = a[i];
    cl_uint y = b[i];
    cl_ulong expected[4] = {x * y + (x >> 7), x / (y | 1u), static_cast<cl_uint>(static_cast<cl_uint>(x) * y),
                            static_cast<cl_ulong>(static_cast<cl_long>(x) % 1000) ^ ~x};
    for (int j = 0; j < 4; ++j)
      ASSERT_EQ(r[4 * i + j], expected[j]) << "element " << i << " op " << j;
  }
}

TEST_P(ExecutionTest, FloatMathBuiltins) {
  constexpr size_t n = 2048;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = std::ldexp(static_cast<float>(i * 37 % 1001) - 500.0f, -3) + 0.1f * static_cast<float>(i % 3);
    b[i] = static_cast<float>(i % 17) * 0.3f + 0.7f;
  }
  Mem ma = input(a), mb = input(b), out = buffer(CL_MEM_WRITE_ONLY, 8 * n * sizeof(float));
  Kernel k = kernel(arithmetic_, "float_math");
  setArgs(k, ma.get(), mb.get(), out.get());
  run1D(k, n);
  auto r = read<float>(out, 8 * n);
  // sqrt and divide: correctly rounded when the device says so (and the
  // program was built asking for it), else within the 3 and 2.5 ulp of the
  // OpenCL C full profile.
  const uint32_t sqrtUlps = exactDivSqrt_ ? 0 : 3, divUlps = exactDivSqrt_ ? 0 : 3;
  for (size_t i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    const float *o = &r[8 * i];
    EXPECT_LE(ulps(o[0], std::sqrt(std::fabs(x))), sqrtUlps) << "sqrt element " << i;
    ASSERT_EQ(o[1], std::fabs(x)) << i;
    ASSERT_EQ(o[2], std::fma(x, y, 1.5f)) << "fma element " << i;
    ASSERT_EQ(o[3], std::floor(x)) << i;
    ASSERT_EQ(o[4], std::min(x, y)) << i;
    ASSERT_EQ(o[5], std::max(x, y)) << i;
    ASSERT_EQ(o[6], std::clamp(x, -2.0f, 2.0f)) << i;
    EXPECT_LE(ulps(o[7], x / y), divUlps) << "divide element " << i;
  }
}

TEST_P(ExecutionTest, ScalarArguments) {
  Program program = build(kernels::arguments);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "scalar_args");
  Mem out = buffer(CL_MEM_WRITE_ONLY, 9 * sizeof(cl_long));
  const cl_char c = -100;
  const cl_uchar uc = 200;
  const cl_short s = -30000;
  const cl_ushort us = 60000;
  const cl_int i = -2000000000;
  const cl_uint ui = 4000000000u;
  const cl_long l = -(cl_long(1) << 50) - 3;
  const cl_ulong ul = (cl_ulong(1) << 62) + 5;
  const cl_float f = -3.25f;
  setArgs(k, c, uc, s, us, i, ui, l, ul, f, out.get());
  run1D(k, 1);
  auto r = read<cl_long>(out, 9);
  EXPECT_EQ(r[0], c);
  EXPECT_EQ(r[1], uc);
  EXPECT_EQ(r[2], s);
  EXPECT_EQ(r[3], us);
  EXPECT_EQ(r[4], i);
  EXPECT_EQ(r[5], ui);
  EXPECT_EQ(r[6], l);
  EXPECT_EQ(r[7], static_cast<cl_long>(ul));
  EXPECT_EQ(r[8], -13);
}

TEST_P(ExecutionTest, VectorArguments) {
  Program program = build(kernels::arguments);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "vector_args");
  Mem out = buffer(CL_MEM_WRITE_ONLY, 7 * sizeof(float));
  cl_int4 iv = {{-7, 8, -9, 10}};
  cl_float3 fv = {{0.5f, -1.25f, 1e6f}};
  static_assert(sizeof(cl_float3) == 16, "float3 occupies 16 bytes");
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(iv), &iv));
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(fv), &fv));
  ASSERT_CL(setArg(k, 2, out.get()));
  run1D(k, 1);
  EXPECT_EQ(read<float>(out, 7), (std::vector<float>{-7, 8, -9, 10, 0.5f, -1.25f, 1e6f}));
  // A float3 argument given as 12 bytes is the wrong size.
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 1, 12, &fv));
}

// Vectors of 8- and 16-bit elements and of 8 or 16 elements: types a GPU
// target cannot push as one value (Vulkan has no char4 push constants
// without extra features, nor 8- or 16-element vectors).
TEST_P(ExecutionTest, NarrowAndWideVectorArguments) {
  // Two kernels, so that each fits the 128 bytes of push constants that
  // every Vulkan device offers.
  Program program = build(R"CLC(
    kernel void narrow_args(char3 c, uchar4 uc, short2 s, ushort8 us, float8 f, global long *out) {
      out[0] = c.x; out[1] = c.y; out[2] = c.z;
      out[3] = uc.x; out[4] = uc.w;
      out[5] = s.x; out[6] = s.y;
      out[7] = us.s0; out[8] = us.s7;
      out[9] = (long)(f.s0 * 4); out[10] = (long)(f.s7 * 4);
      out[11] = c.x + uc.y + s.y + us.s3 + (long)f.s4;
    }
    kernel void wide_args(int16 i, long4 l, global long *out) {
      out[0] = i.s0; out[1] = i.s9; out[2] = i.sf;
      out[3] = l.x; out[4] = l.w;
      out[5] = i.s5 + l.z;
    })CLC");
  ASSERT_TRUE(program);
  cl_char3 c = {{-100, 27, -3}};
  cl_uchar4 uc = {{200, 7, 0, 255}};
  cl_short2 s = {{-30000, 1234}};
  cl_ushort8 us = {{60000, 1, 2, 3, 4, 5, 6, 65535}};
  cl_float8 f = {{-3.25f, 0, 0, 0, 10.5f, 0, 0, 2.5f}};
  cl_int16 i = {{-2000000000, 0, 0, 0, 0, 123456, 0, 0, 0, 77, 0, 0, 0, 0, 0, 2000000000}};
  cl_long4 l = {{-(cl_long(1) << 50) - 3, 0, 1 << 20, (cl_long(1) << 62) + 5}};
  Mem out = buffer(CL_MEM_WRITE_ONLY, 12 * sizeof(cl_long));
  Kernel narrow = kernel(program, "narrow_args");
  setArgs(narrow, c, uc, s, us, f, out.get());
  run1D(narrow, 1);
  EXPECT_EQ(read<cl_long>(out, 12), (std::vector<cl_long>{-100, 27, -3, 200, 255, -30000, 1234, 60000, 65535, -13, 10,
                                                          -100 + 7 + 1234 + 3 + 10}));
  Kernel wide = kernel(program, "wide_args");
  setArgs(wide, i, l, out.get());
  run1D(wide, 1);
  EXPECT_EQ(read<cl_long>(out, 6),
            (std::vector<cl_long>{-2000000000, 77, 2000000000, l.s[0], l.s[3], cl_long(i.s[5]) + l.s[2]}));
}

// Copies the optimiser turns into memcpy/memset of a variable length, of a
// length that is not whole words, or between byte-aligned arrays.
TEST_P(ExecutionTest, ByteCopiesOfAnyLength) {
  Program program = build(R"CLC(
    kernel void copies(global const uchar *in, int n, uchar fill, global uchar *out) {
      uchar bytes[64];
      for (int i = 0; i < 64; ++i) bytes[i] = fill;          // memset, variable value
      for (int i = 0; i < n; ++i) bytes[i] = in[i];          // memcpy, variable length
      uchar odd[7];
      for (int i = 0; i < 7; ++i) odd[i] = in[i + 1];        // memcpy of 7 bytes
      for (int i = 0; i < 64; ++i) out[i] = bytes[63 - i];
      for (int i = 0; i < 7; ++i) out[64 + i] = odd[i];
      for (int i = 0; i < n; ++i) out[71 + i] = in[n - 1 - i];
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "copies");
  std::vector<cl_uchar> in(64);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = cl_uchar(3 * i + 1);
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size(), in.data());
  for (cl_int n : {0, 5, 29, 64}) {
    SCOPED_TRACE(n);
    Mem out = buffer(CL_MEM_WRITE_ONLY, 71 + 64);
    const cl_uchar fill = 0xa5;
    setArgs(k, input.get(), n, fill, out.get());
    run1D(k, 1);
    std::vector<cl_uchar> expected(71 + n);
    for (int i = 0; i < 64; ++i)
      expected[i] = 63 - i < n ? in[63 - i] : fill;
    for (int i = 0; i < 7; ++i)
      expected[64 + i] = in[i + 1];
    for (int i = 0; i < n; ++i)
      expected[71 + i] = in[n - 1 - i];
    EXPECT_EQ(read<cl_uchar>(out, 71 + n), expected);
  }
}

// Copies of 2, 4 and 8 bytes at an odd offset into private and __local
// arrays: the optimiser makes them 16-, 32- and 64-bit loads and stores of
// alignment 1, which straddle words in a GPU target's word-addressed
// private and __local memory.
TEST_P(ExecutionTest, UnalignedPrivateAndLocalAccesses) {
  Program program = build(R"CLC(
    #define COPIES(n, o)                                                            \
      for (int i = 0; i < 32; ++i) { priv[i] = 0; loc[i] = 0; }                    \
      for (int j = 0; j < n; ++j) { priv[at + j] = in[j]; loc[at + j] = in[j]; }    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                 \
      for (int j = 0; j < n; ++j) out[o + j] = priv[from + j];                      \
      for (int j = 0; j < n; ++j) out[o + n + j] = loc[from + j];                   \
      barrier(CLK_LOCAL_MEM_FENCE);
    // `from` equals `at`: the optimiser cannot forward the stored bytes.
    kernel void unaligned(global const uchar *in, int at, int from, global uchar *out) {
      uchar priv[32];
      local uchar loc[32];
      COPIES(2, 0)
      COPIES(4, 4)
      COPIES(8, 12)
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "unaligned");
  std::vector<cl_uchar> in(8);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = cl_uchar(17 * i + 5);
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size(), in.data());
  std::vector<cl_uchar> expected;
  for (size_t n = 2; n <= 8; n *= 2)
    for (int copy = 0; copy < 2; ++copy)
      expected.insert(expected.end(), in.begin(), in.begin() + n);
  for (cl_int at : {1, 3, 6}) {
    SCOPED_TRACE(at);
    Mem out = buffer(CL_MEM_WRITE_ONLY, expected.size());
    setArgs(k, input.get(), at, at, out.get());
    run1D(k, 1, 1);
    EXPECT_EQ(read<cl_uchar>(out, expected.size()), expected);
  }
}

// atomic_xchg of float values (OpenCL 1.0's one floating-point atomic),
// on __global and __local memory.
TEST_P(ExecutionTest, FloatAtomicExchange) {
  Program program = build(R"CLC(
    kernel void exchange(volatile global float *slot, global float *old) {
      local float shared;
      if (get_local_id(0) == 0) shared = -1.5f;
      barrier(CLK_LOCAL_MEM_FENCE);
      size_t i = get_global_id(0);
      old[i] = atomic_xchg(slot, (float)i + 0.25f);
      old[64 + i] = atomic_xchg((volatile local float *)&shared, (float)i + 0.5f);
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "exchange");
  const float initial = 7.75f;
  Mem slot = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float), const_cast<float *>(&initial));
  Mem old = buffer(CL_MEM_WRITE_ONLY, 128 * sizeof(float));
  setArgs(k, slot.get(), old.get());
  run1D(k, 64, 64);
  // Every value is seen exactly once: by a later exchange or, on __global,
  // as the one left in the slot (on __local, one value stays unseen).
  std::vector<float> seen = read<float>(old, 128);
  std::multiset<float> global(seen.begin(), seen.begin() + 64);
  global.insert(read<float>(slot, 1)[0]);
  std::multiset<float> expectedGlobal = {initial};
  for (int i = 0; i < 64; ++i)
    expectedGlobal.insert(float(i) + 0.25f);
  EXPECT_EQ(global, expectedGlobal);
  std::set<float> local(seen.begin() + 64, seen.end());
  EXPECT_EQ(local.size(), 64u) << "a __local value seen twice";
  std::set<float> possible = {-1.5f};
  for (int i = 0; i < 64; ++i)
    possible.insert(float(i) + 0.5f);
  EXPECT_TRUE(std::includes(possible.begin(), possible.end(), local.begin(), local.end()));
}

// float division by divisors beyond 2^126 in magnitude, where Vulkan's
// OpFDiv has no error bound (a GPU driver dividing by way of the
// reciprocal gets a flushed denormal and returns 0); OpenCL allows 2.5 ulp.
TEST_P(ExecutionTest, DivisionByHugeDivisors) {
  Program program = build(R"CLC(
    kernel void divide(global const float *x, global const float *y, global float *q) {
      size_t i = get_global_id(0);
      q[i] = x[i] / y[i];
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "divide");
  const std::vector<float> x = {0x1.407c7ap+83f, -3.0f, 0x1p-100f, 7.5f, 0x1.fffffep+127f, 1.0f};
  const std::vector<float> y = {0x1.ed5e26p+126f, -0x1.8p+127f, 0x1.0p+127f, 0x1.fffffep+127f, 0x1.8p+126f, 3.0f};
  Mem xs = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * sizeof(float), const_cast<float *>(x.data()));
  Mem ys = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, y.size() * sizeof(float), const_cast<float *>(y.data()));
  Mem qs = buffer(CL_MEM_WRITE_ONLY, x.size() * sizeof(float));
  setArgs(k, xs.get(), ys.get(), qs.get());
  run1D(k, x.size());
  std::vector<float> q = read<float>(qs, x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double exact = double(x[i]) / double(y[i]);
    if (std::fabs(exact) < 0x1p-126) // a denormal quotient may be flushed without CL_FP_DENORM
      continue;
    const double ulp = std::ldexp(1.0, std::ilogb(exact) - 23);
    EXPECT_LE(std::fabs(q[i] - exact) / ulp, 2.5) << x[i] << " / " << y[i] << " = " << q[i];
  }
}

TEST_P(ExecutionTest, ArgumentsBeyondPushConstantSpace) {
  // Over 300 bytes of arguments: more than any Vulkan device's push
  // constants (128 on lavapipe, 256 on NVIDIA), so they reach the kernel
  // through an argument buffer there.
  Program program = build(R"CLC(
    typedef struct { int a; long b; } Pair;
    kernel void many(global long *out, char c, short s, int i, long l, float f, float4 f4, int8 i8,
                     uchar16 u16, Pair p, local int *scratch, long4 l4, float16 f16, long8 l8, ushort us) {
      scratch[get_local_id(0)] = i + (int)get_local_id(0);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[0] = c;
      out[1] = s;
      out[2] = scratch[0];
      out[3] = l;
      out[4] = (long)f;
      out[5] = (long)(f4.x + f4.y * 10 + f4.z * 100 + f4.w * 1000);
      out[6] = i8.s0 + i8.s3 * 3 + i8.s7 * 7;
      out[7] = u16.s0 + u16.s5 * 5 + u16.sf * 15;
      out[8] = p.a;
      out[9] = p.b;
      out[10] = l4.x + l4.w * 4;
      out[11] = (long)(f16.s0 + f16.s9 * 9 + f16.sf * 15);
      out[12] = l8.s0 + l8.s7 * 7;
      out[13] = us;
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "many");
  struct Pair {
    cl_int a;
    cl_long b;
  };
  const cl_char c = -7;
  const cl_short s = -3000;
  const cl_int i = 123456;
  const cl_long l = -(cl_long(1) << 40) - 5;
  const cl_float f = 2048.0f;
  const cl_float4 f4 = {{1.0f, 2.0f, 3.0f, 4.0f}};
  cl_int8 i8;
  cl_uchar16 u16;
  cl_float16 f16;
  cl_long8 l8;
  for (int e = 0; e < 16; ++e) {
    if (e < 8) {
      i8.s[e] = -100 * (e + 1);
      l8.s[e] = (cl_long(e) << 33) + e;
    }
    u16.s[e] = cl_uchar(200 + e);
    f16.s[e] = 0.5f * float(e) + 1.0f;
  }
  const Pair p{-99, cl_long(3) << 50};
  const cl_long4 l4 = {{11, 22, 33, 44}};
  const cl_ushort us = 65000;
  Mem out = buffer(CL_MEM_WRITE_ONLY, 14 * sizeof(cl_long));
  ASSERT_CL(setArg(k, 0, out.get()));
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(c), &c));
  ASSERT_CL(clSetKernelArg(k, 2, sizeof(s), &s));
  ASSERT_CL(clSetKernelArg(k, 3, sizeof(i), &i));
  ASSERT_CL(clSetKernelArg(k, 4, sizeof(l), &l));
  ASSERT_CL(clSetKernelArg(k, 5, sizeof(f), &f));
  ASSERT_CL(clSetKernelArg(k, 6, sizeof(f4), &f4));
  ASSERT_CL(clSetKernelArg(k, 7, sizeof(i8), &i8));
  ASSERT_CL(clSetKernelArg(k, 8, sizeof(u16), &u16));
  ASSERT_CL(clSetKernelArg(k, 9, sizeof(p), &p));
  ASSERT_CL(clSetKernelArg(k, 10, 4 * sizeof(cl_int), nullptr));
  ASSERT_CL(clSetKernelArg(k, 11, sizeof(l4), &l4));
  ASSERT_CL(clSetKernelArg(k, 12, sizeof(f16), &f16));
  ASSERT_CL(clSetKernelArg(k, 13, sizeof(l8), &l8));
  ASSERT_CL(clSetKernelArg(k, 14, sizeof(us), &us));
  size_t global = 4, local = 4;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  const std::vector<cl_long> expected = {c,
                                         s,
                                         i,
                                         l,
                                         cl_long(f),
                                         cl_long(f4.s[0] + f4.s[1] * 10 + f4.s[2] * 100 + f4.s[3] * 1000),
                                         cl_long(i8.s[0]) + i8.s[3] * 3 + i8.s[7] * 7,
                                         cl_long(u16.s[0]) + u16.s[5] * 5 + u16.s[15] * 15,
                                         p.a,
                                         p.b,
                                         l4.s[0] + l4.s[3] * 4,
                                         cl_long(f16.s[0] + f16.s[9] * 9 + f16.s[15] * 15),
                                         l8.s[0] + l8.s[7] * 7,
                                         us};
  EXPECT_EQ(read<cl_long>(out, 14), expected);
}

TEST_P(ExecutionTest, PackedStructsInGlobalMemory) {
  // Members of a packed struct array lie at any byte offset.
#pragma pack(push, 1)
  struct Packed {
    cl_char c;
    cl_int i;
    cl_long l;
    cl_short s;
    cl_float f;
  };
#pragma pack(pop)
  static_assert(sizeof(Packed) == 19);
  Program program = build(R"CLC(
    typedef struct __attribute__((packed)) { char c; int i; long l; short s; float f; } Packed;
    kernel void packed(global Packed *items, global long *out) {
      size_t n = get_global_id(0);
      Packed p = items[n];
      out[n] = p.c + p.i + p.l + p.s + (long)p.f;
      items[n].i = p.i * 2;
      items[n].l = p.l - 1;
      items[n].s = (short)(p.s + 1);
      items[n].f = p.f * 0.5f;
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "packed");
  constexpr size_t count = 37;
  std::vector<Packed> items(count);
  for (size_t n = 0; n < count; ++n)
    items[n] = {cl_char(n - 20), cl_int(n * 100003), (cl_long(n) << 36) + cl_long(n), cl_short(n * 300), float(n * 4)};
  Mem itemBuffer = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(Packed) * count, items.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, count * sizeof(cl_long));
  setArgs(k, itemBuffer.get(), out.get());
  run1D(k, count);
  std::vector<cl_long> sums = read<cl_long>(out, count);
  std::vector<Packed> after(count);
  ASSERT_CL(clEnqueueReadBuffer(queue_, itemBuffer.get(), CL_TRUE, 0, sizeof(Packed) * count, after.data(), 0, nullptr,
                                nullptr));
  for (size_t n = 0; n < count; ++n) {
    // Members read by value: EXPECT_EQ binds references, which a packed
    // member's address does not allow (UBSan: misaligned reference).
    const Packed &p = items[n];
    EXPECT_EQ(sums[n], p.c + p.i + p.l + p.s + cl_long(p.f)) << n;
    EXPECT_EQ(cl_char(after[n].c), cl_char(p.c)) << n;
    EXPECT_EQ(cl_int(after[n].i), p.i * 2) << n;
    EXPECT_EQ(cl_long(after[n].l), p.l - 1) << n;
    EXPECT_EQ(cl_short(after[n].s), cl_short(p.s + 1)) << n;
    EXPECT_EQ(float(after[n].f), p.f * 0.5f) << n;
  }
}

TEST_P(ExecutionTest, VectorsBuiltFromPiecesOfEverySize) {
  // Like the CTS's vector_creation: hundreds of vectors, each built from
  // vloads of 1 to 16 elements. The optimiser turns some of the shuffles
  // into bitcasts of 128-bit integers and regroupings of vectors
  // (<16 x i8> to <2 x i64>), which a GPU compiler has to take apart again.
  struct Shape {
    const char *type;
    int width;
    size_t elementSize;
  };
  for (const Shape &shape : {Shape{"char", 16, 1}, Shape{"int", 16, 4}}) {
    SCOPED_TRACE(shape.type);
    constexpr int kLines = 48; // the int16 kernel of 40 lines needed the regrouping already
    std::string source = "kernel void build(global const " + std::string(shape.type) + " *src, global " + shape.type +
                         std::to_string(shape.width) + " *result) {\n";
    unsigned seed = 12345;
    for (int line = 0; line < kLines; ++line) {
      std::string pieces;
      for (int at = 0; at < shape.width;) {
        const int sizes[] = {1, 2, 3, 4, 8, 16};
        seed = seed * 1103515245u + 12345u;
        int size = sizes[(seed >> 16) % 6];
        if (at + size > shape.width)
          continue;
        std::string address = "src + " + std::to_string(line + at);
        pieces += std::string(pieces.empty() ? "" : ", ") +
                  (size == 1 ? "src[" + std::to_string(line + at) + "]"
                             : "vload" + std::to_string(size) + "(0, " + address + ")");
        at += size;
      }
      source += "  result[" + std::to_string(line) + "] = (" + shape.type + std::to_string(shape.width) + ")(" +
                pieces + ");\n";
    }
    source += "}\n";
    Program program = build(source);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "build");
    const size_t count = kLines + shape.width;
    std::vector<unsigned char> input(count * shape.elementSize);
    for (size_t i = 0; i < input.size(); ++i)
      input[i] = static_cast<unsigned char>(i * 7 + 3);
    Mem src = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, input.size(), input.data());
    const size_t rowBytes = shape.width * shape.elementSize;
    Mem result = buffer(CL_MEM_WRITE_ONLY, kLines * rowBytes);
    setArgs(k, src.get(), result.get());
    run1D(k, 1);
    std::vector<unsigned char> rows = read<unsigned char>(result, kLines * rowBytes);
    for (int line = 0; line < kLines; ++line)
      ASSERT_EQ(std::memcmp(rows.data() + line * rowBytes, input.data() + line * shape.elementSize, rowBytes), 0)
          << "line " << line;
  }
}

TEST_P(ExecutionTest, PrivateAndLocalPointersShowTheirTypesAlignment) {
  // (ulong)&x of a private or __local variable, or of a __local argument, is
  // a multiple of the alignment of x's type (CTS kernel_memory_alignment_*):
  // on the vulkan target such pointers are offsets that it must align.
  Program program = build(R"CLC(
    kernel void aligned(global ulong *out, local char *a0, local long16 *a1, local short3 *a2, local long8 *a3) {
      local char l0[3];
      local long16 l1[3];
      local int3 l2[3];
      local long4 l3[3];
      private char p0[3];
      private long16 p1[3];
      private short2 p2[3];
      private long8 p3[3];
      size_t i = get_local_id(0);
      l0[i] = 1; l1[i] = 2; l2[i] = 3; l3[i] = 4;
      a0[i] = 1; a1[i] = 2; a2[i] = 3; a3[i] = 4;
      for (int j = 0; j < 3; ++j) {
        p0[j] = (char)j; p1[j] = (long)j; p2[j] = (short)j; p3[j] = (long)j;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (i == 0) {
        out[0] = (ulong)&l0[0]; out[1] = (ulong)&l1[0]; out[2] = (ulong)&l2[0]; out[3] = (ulong)&l3[0];
        out[4] = (ulong)&a0[0]; out[5] = (ulong)&a1[0]; out[6] = (ulong)&a2[0]; out[7] = (ulong)&a3[0];
        out[8] = (ulong)&p0[0]; out[9] = (ulong)&p1[0]; out[10] = (ulong)&p2[0]; out[11] = (ulong)&p3[0];
        // Reading back through the arrays keeps them (and the stores) alive.
        out[12] = l0[2] + l1[2].s0 + l2[2].x + l3[2].x + a0[2] + a1[2].s0 + a2[2].x + a3[2].s0 + p0[2] + p1[2].s0 +
                  p2[2].x + p3[2].s0;
      }
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "aligned");
  Mem out = buffer(CL_MEM_WRITE_ONLY, 13 * sizeof(cl_ulong));
  ASSERT_CL(setArg(k, 0, out.get()));
  const size_t elementSizes[] = {1, 128, 8, 64}; // char, long16, short3 (as short4), long8
  for (cl_uint a = 0; a < 4; ++a)
    ASSERT_CL(clSetKernelArg(k, 1 + a, 3 * elementSizes[a] + 5, nullptr));
  size_t global = 3, local = 3;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_ulong> addresses = read<cl_ulong>(out, 13);
  const cl_ulong alignments[] = {1, 128, 16, 32, 1, 128, 8, 64, 1, 128, 4, 64};
  for (size_t i = 0; i < 12; ++i)
    EXPECT_EQ(addresses[i] % alignments[i], 0u) << "pointer " << i << " = " << addresses[i];
  EXPECT_EQ(addresses[12], cl_ulong(1 + 2 + 3 + 4 + 1 + 2 + 3 + 4 + 2 + 2 + 2 + 2));
}

TEST_P(ExecutionTest, VolatileVectorAccesses) {
  // Whole vectors through volatile pointers (CTS progvar_prog_scope_init
  // stores a uchar2 argument through a `volatile global uchar2 *`): a GPU
  // compiler that keeps them whole cannot emit a uchar2 argument or a
  // float16.
  Program program = build(R"CLC(
    kernel void k(global uchar2 *narrow, global float16 *wide, uchar2 a, float16 b) {
      volatile global uchar2 *p = narrow;
      *p = a;
      volatile global float16 *q = wide;
      *q = b;
      q[1] = *q * 2.0f;
    })CLC");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "k");
  Mem narrow = buffer(CL_MEM_READ_WRITE, sizeof(cl_uchar2));
  Mem wide = buffer(CL_MEM_READ_WRITE, 2 * sizeof(cl_float16));
  const cl_uchar2 a = {{7, 250}};
  cl_float16 b;
  for (int e = 0; e < 16; ++e)
    b.s[e] = 1.5f * float(e) - 4.0f;
  ASSERT_CL(setArg(k, 0, narrow.get()));
  ASSERT_CL(setArg(k, 1, wide.get()));
  ASSERT_CL(clSetKernelArg(k, 2, sizeof(a), &a));
  ASSERT_CL(clSetKernelArg(k, 3, sizeof(b), &b));
  run1D(k, 1);
  EXPECT_EQ(read<cl_uchar>(narrow, 2), (std::vector<cl_uchar>{7, 250}));
  std::vector<cl_float> values = read<cl_float>(wide, 32);
  for (int e = 0; e < 16; ++e) {
    EXPECT_EQ(values[e], b.s[e]) << e;
    EXPECT_EQ(values[16 + e], 2.0f * b.s[e]) << e;
  }
}

TEST_P(ExecutionTest, StructArgument) {
  struct Params {
    cl_int a;
    cl_float b;
    cl_long c;
    cl_char d;
  };
  static_assert(sizeof(Params) == 24);
  Program program = build(kernels::arguments);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "struct_arg");
  Mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_long));
  Params p{};
  p.a = -123456;
  p.b = 7.5f;
  p.c = cl_long(1) << 40;
  p.d = -5;
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(p), &p));
  ASSERT_CL(setArg(k, 1, out.get()));
  run1D(k, 1);
  EXPECT_EQ(read<cl_long>(out, 4), (std::vector<cl_long>{-123456, 15, cl_long(1) << 40, -5}));
}

TEST_P(ExecutionTest, DoubleArgument) {
  if (deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) == 0)
    GTEST_SKIP() << "no double precision";
  Program program = build(kernels::double_args);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "double_arg");
  constexpr size_t n = 256;
  std::vector<double> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<double>(i) / 3.0 - 40.0;
  Mem min = input(in), out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(double));
  const double d = 1.0 / 7.0;
  setArgs(k, d, min.get(), out.get());
  run1D(k, n);
  auto r = read<double>(out, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], std::fma(in[i], d, 0.25)) << i;
}

TEST_P(ExecutionTest, LocalPointerArgument) {
  Program program = build(kernels::arguments);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "local_slot");
  constexpr size_t n = 256, local = 16;
  Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
  ASSERT_CL(clSetKernelArg(k, 0, local * sizeof(cl_int), nullptr));
  ASSERT_CL(setArg(k, 1, out.get()));
  ASSERT_CL(setArg(k, 2, cl_int(3)));
  run1D(k, n, local);
  auto r = read<cl_int>(out, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], static_cast<cl_int>(i * 3 + i % local)) << i;
  // Changing the local size between enqueues.
  ASSERT_CL(clSetKernelArg(k, 0, 64 * sizeof(cl_int), nullptr));
  ASSERT_CL(setArg(k, 2, cl_int(-1)));
  run1D(k, n, 64);
  r = read<cl_int>(out, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], static_cast<cl_int>(-static_cast<int>(i) + static_cast<int>(i % 64))) << i;
}

TEST_P(ExecutionTest, NullBufferArgument) {
  Program program = build(kernels::arguments);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "null_buffer");
  constexpr size_t n = 8;
  Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
  ASSERT_CL(setArg(k, 1, out.get()));
  // arg_value NULL...
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), nullptr));
  run1D(k, n);
  EXPECT_EQ(read<cl_int>(out, n), std::vector<cl_int>(n, 1));
  // ...or pointing at a NULL cl_mem: both pass a NULL pointer.
  Mem real = buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
  ASSERT_CL(setArg(k, 0, real.get()));
  run1D(k, n);
  EXPECT_EQ(read<cl_int>(out, n), std::vector<cl_int>(n, 2));
  EXPECT_EQ(read<cl_int>(real, 1)[0], 7);
  cl_mem none = nullptr;
  ASSERT_CL(setArg(k, 0, none));
  run1D(k, n);
  EXPECT_EQ(read<cl_int>(out, n), std::vector<cl_int>(n, 1));
}

TEST_P(ExecutionTest, SubBufferArgument) {
  size_t align = deviceInfo<cl_uint>(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  size_t total = 3 * align / sizeof(cl_int), first = align / sizeof(cl_int), count = align / sizeof(cl_int);
  std::vector<cl_int> zeros(total, 0);
  Mem parent = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total * sizeof(cl_int), zeros.data());
  cl_buffer_region region{align, align};
  cl_int err = CL_SUCCESS;
  Mem sub(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ASSERT_CL(err);
  Kernel k = kernel(arithmetic_, "set_value");
  setArgs(k, sub.get(), cl_int(6));
  run1D(k, count);
  auto r = read<cl_int>(parent, total);
  for (size_t i = 0; i < total; ++i)
    ASSERT_EQ(r[i], i >= first && i < first + count ? 6 : 0) << i;
}

TEST_P(ExecutionTest, ArgumentsAreCapturedAtEnqueue) {
  // Changing an argument after clEnqueueNDRangeKernel does not affect the
  // enqueued command.
  Kernel k = kernel(arithmetic_, "set_value");
  Mem a = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int)), b = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  setArgs(k, a.get(), cl_int(1));
  run1D(k, 64);
  setArgs(k, b.get(), cl_int(2));
  run1D(k, 64);
  EXPECT_EQ(read<cl_int>(a, 64), std::vector<cl_int>(64, 1));
  EXPECT_EQ(read<cl_int>(b, 64), std::vector<cl_int>(64, 2));
}

CLTEST_INSTANTIATE(ExecutionTest);
