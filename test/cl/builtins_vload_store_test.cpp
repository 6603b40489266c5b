// Vector data load and store builtins (OpenCL C 3.0 6.15.11): vloadN and
// vstoreN for every element type and width at element-aligned (not
// vector-aligned) addresses, vload_half[N] and vloada_halfN, and
// vstore_half[N] / vstorea_halfN in every rounding mode from float and from
// double. Each kernel is built as OpenCL C 1.2 (the builtins taking
// __global, __local, __private and __constant pointers) and 3.0 (the
// __generic ones). References are computed on the host: half values by
// _Float16, rounding by a search among all binary16 values. A device without
// CL_FP_DENORM may read a float denormal as a zero (denormal_flush.h).
#include "cl_test.h"
#include "denormal_flush.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace cltest;

namespace {

const char *const kStandards[] = {"-cl-std=CL1.2", "-cl-std=CL3.0"};
const int kWidths[] = {2, 3, 4, 8, 16};
constexpr int kWidthCount = 5;

// ---- vloadN / vstoreN ---------------------------------------------------------

// Work-item g (of 4) moves the vector at offset g from `in + 1` to `out + 1`
// through each address space; each (space, width) pair has its own region of
// kRegion elements in `out`. The local copy is read back by another
// work-item, after a barrier.
constexpr size_t kItems = 4;
constexpr size_t kRegion = 16 * kItems + 3;
constexpr int kSpaces = 4; // global, constant, local, private

const char *kVectorSource = R"(
#define R 67
#define NW 5
kernel void moves(global const T *in, constant T *cin, global T *out) {
  size_t g = get_global_id(0);
  size_t other = 3 - g;
  local T lbuf[NW * R];
  T pbuf[R];
  int w = 0;
#define CASE(N)                                                                    \
  {                                                                                \
    vstore##N(vload##N(g, in + 1), g, out + (0 * NW + w) * R + 1);                \
    vstore##N(vload##N(g, cin + 1), g, out + (1 * NW + w) * R + 1);               \
    local T *l = lbuf + w * R;                                                     \
    vstore##N(vload##N(g, in + 1), g, l + 1);                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                  \
    vstore##N(vload##N(other, l + 1), other, out + (2 * NW + w) * R + 1);         \
    vstore##N(vload##N(g, in + 1), g, pbuf + 1);                                   \
    vstore##N(vload##N(g, pbuf + 1), g, out + (3 * NW + w) * R + 1);              \
    ++w;                                                                           \
  }
  CASE(2) CASE(3) CASE(4) CASE(8) CASE(16)
}
)";

class VloadStoreTest : public DeviceTest {
protected:
  bool hasDouble() { return deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0; }

  template <class T> void checkMoves(const char *type) {
    if (std::is_same_v<T, cl_double> && !hasDouble())
      GTEST_SKIP() << "no fp64";
    std::mt19937_64 random(sizeof(T) * 977 + type[0]);
    std::vector<T> in(kRegion);
    for (T &value : in) {
      uint64_t bits = random();
      std::memcpy(&value, &bits, sizeof(T));
    }
    const T sentinel = [] {
      T value;
      std::memset(&value, 0xa5, sizeof(T));
      return value;
    }();
    const size_t outCount = kSpaces * kWidthCount * kRegion;
    std::vector<T> initial(outCount, sentinel);
    for (const char *standard : kStandards) {
      std::string options = std::string(standard) + " -DT=" + type;
      if (std::is_same_v<T, cl_double>)
        options += " -DUSE_DOUBLE";
      std::string source =
          std::string("#ifdef USE_DOUBLE\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n") + kVectorSource;
      Program program = build(source, options.c_str());
      ASSERT_TRUE(program) << options;
      Kernel k = kernel(program, "moves");
      Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size() * sizeof(T), in.data());
      Mem constant = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size() * sizeof(T), in.data());
      Mem output = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, outCount * sizeof(T), initial.data());
      setArgs(k, input.get(), constant.get(), output.get());
      size_t global = kItems, local = kItems;
      ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
      std::vector<T> out = read<T>(output, outCount);
      static const char *const spaceNames[] = {"global", "constant", "local", "private"};
      for (int space = 0; space < kSpaces; ++space)
        for (int w = 0; w < kWidthCount; ++w) {
          const size_t width = kWidths[w];
          const T *region = out.data() + (space * kWidthCount + w) * kRegion;
          for (size_t i = 0; i < kRegion; ++i) {
            // Moved: elements 1 .. 4N; every other element is untouched.
            bool moved = i >= 1 && i <= kItems * width;
            const T &expected = moved ? in[i] : sentinel;
            ASSERT_EQ(0, std::memcmp(&expected, &region[i], sizeof(T)))
                << type << width << " " << spaceNames[space] << " " << standard << " element " << i
                << (moved ? " not moved" : " clobbered");
          }
        }
    }
  }
};

TEST_P(VloadStoreTest, Char) { checkMoves<cl_char>("char"); }
TEST_P(VloadStoreTest, UChar) { checkMoves<cl_uchar>("uchar"); }
TEST_P(VloadStoreTest, Short) { checkMoves<cl_short>("short"); }
TEST_P(VloadStoreTest, UShort) { checkMoves<cl_ushort>("ushort"); }
TEST_P(VloadStoreTest, Int) { checkMoves<cl_int>("int"); }
TEST_P(VloadStoreTest, UInt) { checkMoves<cl_uint>("uint"); }
TEST_P(VloadStoreTest, Long) { checkMoves<cl_long>("long"); }
TEST_P(VloadStoreTest, ULong) { checkMoves<cl_ulong>("ulong"); }
TEST_P(VloadStoreTest, Float) { checkMoves<cl_float>("float"); }
TEST_P(VloadStoreTest, Double) { checkMoves<cl_double>("double"); }

CLTEST_INSTANTIATE(VloadStoreTest);

// ---- Half references ------------------------------------------------------------

double halfValue(uint16_t bits) { return static_cast<double>(std::bit_cast<_Float16>(bits)); }

enum Mode { Rte, Rtz, Rtp, Rtn };
const char *const kModeSuffixes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
const Mode kSuffixModes[] = {Rte, Rte, Rtz, Rtp, Rtn};
constexpr int kSuffixCount = 5;

/// `x` rounded to binary16 in `mode`, found among the finite halves: the
/// positive patterns 0 .. 0x7bff increase with their value, and 0x7c00
/// (infinity) takes the place of 2^16 (the next value the exponent range
/// would give), which yields the overflow rules of every mode.
uint16_t referenceHalf(double x, Mode mode) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x))
    return 0x7e00;
  double a = std::fabs(x);
  if (std::isinf(a))
    return sign | 0x7c00;
  auto value = [](uint32_t bits) { return bits == 0x7c00 ? 65536.0 : halfValue(static_cast<uint16_t>(bits)); };
  // The largest pattern whose value is <= a.
  uint32_t low = 0, high = 0x7c00;
  if (a >= 65536.0) {
    low = 0x7c00;
  } else {
    while (low < high) { // invariant: value(low) <= a < value(high + 1)
      uint32_t mid = (low + high + 1) / 2;
      if (value(mid) <= a)
        low = mid;
      else
        high = mid - 1;
    }
  }
  const bool awayFromZero = (mode == Rtp && !sign) || (mode == Rtn && sign);
  if (low == 0x7c00) // beyond the largest finite half
    return sign | (mode == Rte || awayFromZero ? 0x7c00 : 0x7bff);
  if (value(low) == a)
    return sign | low;
  uint32_t up = low + 1;
  uint32_t chosen;
  if (mode == Rte) {
    double middle = (value(low) + value(up)) / 2; // exact: few significant bits
    chosen = a < middle ? low : a > middle ? up : (low % 2 == 0 ? low : up);
  } else {
    chosen = awayFromZero ? up : low;
  }
  return static_cast<uint16_t>(sign | chosen);
}

bool sameHalf(uint16_t expected, uint16_t actual) {
  bool expectedNan = (expected & 0x7c00) == 0x7c00 && (expected & 0x3ff);
  bool actualNan = (actual & 0x7c00) == 0x7c00 && (actual & 0x3ff);
  return expectedNan ? actualNan : expected == actual;
}

/// Values that round differently in each mode: midpoints between halves and
/// their neighbours, half denormals and the values around them, the
/// overflow thresholds, tiny values, zeros, infinities and NaN.
template <class F> std::vector<F> roundingInputs() {
  std::vector<F> values;
  auto add = [&](double v) {
    F f = static_cast<F>(v);
    values.push_back(f);
    values.push_back(-f);
    values.push_back(std::nextafter(f, std::numeric_limits<F>::infinity()));
    values.push_back(std::nextafter(f, -std::numeric_limits<F>::infinity()));
  };
  const uint16_t special[] = {0x0000, 0x0001, 0x0002, 0x0003, 0x01ff, 0x0200, 0x03ff, 0x0400,
                              0x0401, 0x3bff, 0x3c00, 0x3c01, 0x7800, 0x7bfe, 0x7bff};
  for (uint16_t bits : special) {
    add(halfValue(bits));
    add((halfValue(bits) + halfValue(bits + 1)) / 2); // midpoint (bits + 1 may be 0x7c00: 65536 below)
  }
  add(65504.0);
  add(65520.0);
  add(65536.0);
  add(1e6);
  add(std::ldexp(1.0, -25)); // half of the smallest denormal
  add(std::ldexp(1.5, -25));
  add(std::ldexp(1.0, -26));
  add(std::ldexp(1.0, -40));
  add(1e-30);
  add(static_cast<double>(std::numeric_limits<F>::denorm_min()));
  add(static_cast<double>(std::numeric_limits<F>::max()));
  values.push_back(std::numeric_limits<F>::infinity());
  values.push_back(-std::numeric_limits<F>::infinity());
  values.push_back(std::numeric_limits<F>::quiet_NaN());
  values.push_back(-std::numeric_limits<F>::quiet_NaN());
  values.push_back(F(0));
  values.push_back(-F(0));
  std::mt19937_64 random(12345);
  // Every midpoint between neighbouring halves, for a sample of halves, and
  // random values over the half range and beyond.
  for (int i = 0; i < 600; ++i) {
    uint16_t bits = static_cast<uint16_t>(random() % 0x7bff);
    add((halfValue(bits) + halfValue(bits + 1)) / 2);
    double r = std::ldexp(static_cast<double>(random() >> 11) / 9007199254740992.0 + 0.5,
                          static_cast<int>(random() % 50) - 32);
    add(r);
  }
  return values;
}

// ---- vload_half ---------------------------------------------------------------

const char *kLoadHalfSource = R"(
kernel void loads(global const half *h, constant half *ch, global float *out, global float *vout, uint n) {
  size_t i = get_global_id(0);
  size_t lid = get_local_id(0);
  local ushort l[64];
  ushort p[4];
  out[i] = vload_half(i, h);
  out[n + i] = vload_half(i % 4096, ch);
  l[lid] = ((global const ushort *)h)[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[2 * n + i] = vload_half(63 - lid, (local half *)l) ;
  p[i % 4] = ((global const ushort *)h)[i];
  out[3 * n + i] = vload_half(i % 4, (half *)p);
  // Vector forms: work-item i < 8 loads the vectors at offset i of h + 1.
  if (i < 8) {
    global float *o = vout + i * 128;
#define VEC(N, B)                                                                 \
    vstore##N(vload_half##N(i, h + 1), 0, o + B);                                \
    vstore##N(vloada_half##N(i, h), 0, o + B + 16);
    VEC(2, 0) VEC(3, 32) VEC(4, 64) VEC(8, 96)
    vstore16(vload_half16(i, ch + 1), 0, vout + 1024 + i * 32);
    vstore16(vloada_half16(i, ch), 0, vout + 1024 + i * 32 + 16);
  }
}
)";

class VloadStoreHalfTest : public DeviceTest {
protected:
  bool hasDouble() { return deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0; }

  template <class F> void checkStores(const char *type);
};

void expectSameFloat(double expected, float actual, const std::string &what) {
  if (std::isnan(expected))
    EXPECT_TRUE(std::isnan(actual)) << what;
  else
    EXPECT_EQ(std::bit_cast<uint32_t>(static_cast<float>(expected)), std::bit_cast<uint32_t>(actual))
        << what << ": expected " << expected << ", got " << actual;
}

TEST_P(VloadStoreHalfTest, LoadEveryHalf) {
  const cl_uint n = 65536;
  std::vector<uint16_t> halves(n);
  for (uint32_t i = 0; i < n; ++i)
    halves[i] = static_cast<uint16_t>(i);
  for (const char *standard : kStandards) {
    Program program = build(kLoadHalfSource, standard);
    ASSERT_TRUE(program) << standard;
    Kernel k = kernel(program, "loads");
    Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 2, halves.data());
    // A __constant buffer may be limited in size: the first 4096 halves.
    Mem constant = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4096 * 2, halves.data());
    Mem output = buffer(CL_MEM_WRITE_ONLY, 4 * n * sizeof(float));
    Mem vectors = buffer(CL_MEM_WRITE_ONLY, 2048 * sizeof(float));
    setArgs(k, input.get(), constant.get(), output.get(), vectors.get(), n);
    size_t global = n, local = 64;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    std::vector<float> out = read<float>(output, 4 * n);
    for (uint32_t i = 0; i < n; ++i) {
      double expected = halfValue(static_cast<uint16_t>(i));
      std::string what = std::string(standard) + " half pattern " + std::to_string(i);
      expectSameFloat(expected, out[i], "global " + what);
      uint32_t localSource = (i & ~63u) + (63 - (i & 63));
      expectSameFloat(halfValue(static_cast<uint16_t>(localSource)), out[2 * n + i], "local " + what);
      expectSameFloat(expected, out[3 * n + i], "private " + what);
      expectSameFloat(halfValue(static_cast<uint16_t>(i % 4096)), out[n + i], "constant " + what);
      if (HasFailure())
        return;
    }
    std::vector<float> vout = read<float>(vectors, 2048);
    const int widths[] = {2, 3, 4, 8};
    for (uint32_t item = 0; item < 8; ++item) {
      for (int w = 0; w < 4; ++w) {
        const int width = widths[w];
        const int stride = width == 3 ? 4 : width;
        for (int e = 0; e < width; ++e) {
          const float *o = vout.data() + item * 128 + w * 32;
          std::string what = std::string(standard) + " width " + std::to_string(width) + " item " +
                             std::to_string(item) + " lane " + std::to_string(e);
          expectSameFloat(halfValue(static_cast<uint16_t>(1 + item * width + e)), o[e], "vload_half" + what);
          expectSameFloat(halfValue(static_cast<uint16_t>(item * stride + e)), o[16 + e], "vloada_half" + what);
        }
      }
      for (int e = 0; e < 16; ++e) {
        const float *o = vout.data() + 1024 + item * 32;
        expectSameFloat(halfValue(static_cast<uint16_t>(1 + item * 16 + e)), o[e], "vload_half16 constant");
        expectSameFloat(halfValue(static_cast<uint16_t>(item * 16 + e)), o[16 + e], "vloada_half16 constant");
      }
    }
  }
}

// ---- vstore_half ------------------------------------------------------------------

// Each work-item stores its value in every rounding mode through a global,
// a local and a private pointer; the vector forms store lanes of the values
// at offset g. F is float or double.
const char *kStoreHalfSource = R"(
#ifdef USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void stores(global const F *in, global half *out, global ushort *lout, global ushort *pout, uint n) {
  size_t i = get_global_id(0);
  size_t lid = get_local_id(0);
  local ushort l[5 * 64];
  ushort p[5];
  F x = in[i];
#define MODE(M, K)                                                                \
  vstore_half##M(x, i, out + K * n);                                             \
  vstore_half##M(x, lid, (local half *)(l + K * 64));                            \
  vstore_half##M(x, K, (half *)p);
  MODE(, 0) MODE(_rte, 1) MODE(_rtz, 2) MODE(_rtp, 3) MODE(_rtn, 4)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 5; ++k) {
    lout[k * n + i] = l[k * 64 + lid];
    pout[k * n + i] = p[k];
  }
}

// Work-item g stores the vectors at offset g of `in + 1` (vstore_half) and of
// `in` (vstorea_half, half3 at a stride of 4) to regions of 72 halves.
kernel void vectors(global const F *in, global half *out) {
  size_t g = get_global_id(0);
#define VEC(N, M, K)                                                              \
  vstore_half##N##M(vload##N(g, in + 1), g, out + ((K) * 2) * 72 + 1);             \
  vstorea_half##N##M(vload##N(g, in), g, out + ((K) * 2 + 1) * 72);
#define WIDTHS(M, K) VEC(2, M, K * 5) VEC(3, M, K * 5 + 1) VEC(4, M, K * 5 + 2) VEC(8, M, K * 5 + 3) VEC(16, M, K * 5 + 4)
  WIDTHS(, 0) WIDTHS(_rte, 1) WIDTHS(_rtz, 2) WIDTHS(_rtp, 3) WIDTHS(_rtn, 4)
}
)";

template <class F> void VloadStoreHalfTest::checkStores(const char *type) {
  if (std::is_same_v<F, cl_double> && !hasDouble())
    GTEST_SKIP() << "no fp64";
  std::vector<F> values = roundingInputs<F>();
  values.resize((values.size() + 63) / 64 * 64, F(1) / 3);
  const cl_uint n = static_cast<cl_uint>(values.size());
  // Whether `actual` is x rounded in `mode`, or, where float denormals may be
  // flushed, x read as a zero (a half result is a half, not a float: a half
  // denormal stands).
  const bool ftz = std::is_same_v<F, cl_float> && flushesFloatDenormals(device());
  auto stored = [&](F x, Mode mode, uint16_t actual) {
    auto accepts = [&](F v) { return sameHalf(referenceHalf(static_cast<double>(v), mode), actual); };
    return acceptedWithFlushedInputs(ftz, accepts, x);
  };
  for (const char *standard : kStandards) {
    std::string options = std::string(standard) + " -DF=" + type;
    if (std::is_same_v<F, cl_double>)
      options += " -DUSE_DOUBLE";
    Program program = build(kStoreHalfSource, options.c_str());
    ASSERT_TRUE(program) << options;
    Kernel k = kernel(program, "stores");
    Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(F), values.data());
    Mem out = buffer(CL_MEM_WRITE_ONLY, kSuffixCount * n * 2);
    Mem lout = buffer(CL_MEM_WRITE_ONLY, kSuffixCount * n * 2);
    Mem pout = buffer(CL_MEM_WRITE_ONLY, kSuffixCount * n * 2);
    setArgs(k, input.get(), out.get(), lout.get(), pout.get(), n);
    size_t global = n, local = 64;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    std::vector<uint16_t> results[3] = {read<uint16_t>(out, kSuffixCount * n), read<uint16_t>(lout, kSuffixCount * n),
                                        read<uint16_t>(pout, kSuffixCount * n)};
    static const char *const spaces[] = {"global", "local", "private"};
    for (int s = 0; s < kSuffixCount; ++s)
      for (cl_uint i = 0; i < n; ++i) {
        uint16_t expected = referenceHalf(static_cast<double>(values[i]), kSuffixModes[s]);
        for (int space = 0; space < 3; ++space) {
          uint16_t actual = results[space][s * n + i];
          ASSERT_TRUE(stored(values[i], kSuffixModes[s], actual))
              << "vstore_half" << kModeSuffixes[s] << "((" << type << ")" << std::hexfloat << values[i] << ") "
              << spaces[space] << " " << standard << std::hex << ": expected 0x" << expected << ", got 0x" << actual;
        }
      }

    // Vector forms on the first 4 * 16 + 1 values, from offset 0 to 3.
    Kernel v = kernel(program, "vectors");
    const size_t regions = kSuffixCount * kWidthCount * 2;
    std::vector<uint16_t> initial(regions * 72, 0xdead);
    Mem vout = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, initial.size() * 2, initial.data());
    setArgs(v, input.get(), vout.get());
    size_t items = 4;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, v, 1, nullptr, &items, &items, 0, nullptr, nullptr));
    std::vector<uint16_t> vres = read<uint16_t>(vout, initial.size());
    for (int s = 0; s < kSuffixCount; ++s)
      for (int w = 0; w < kWidthCount; ++w) {
        const size_t width = kWidths[w];
        const size_t stride = width == 3 ? 4 : width;
        const uint16_t *plain = vres.data() + ((s * kWidthCount + w) * 2) * 72;
        const uint16_t *aligned = plain + 72;
        for (size_t e = 0; e < 72; ++e) {
          // vstore_half: elements 1 .. 4N; vstorea_half: lanes < N of each
          // stride-sized slot.
          const bool storedPlain = e >= 1 && e <= 4 * width;
          const bool storedAligned = e < 4 * stride && e % stride < width;
          const F plainValue = storedPlain ? values[e] : 0;
          const F alignedValue = storedAligned ? values[e / stride * width + e % stride] : 0;
          uint16_t expectedPlain =
              storedPlain ? referenceHalf(static_cast<double>(plainValue), kSuffixModes[s]) : 0xdead;
          uint16_t expectedAligned =
              storedAligned ? referenceHalf(static_cast<double>(alignedValue), kSuffixModes[s]) : 0xdead;
          ASSERT_TRUE(storedPlain ? stored(plainValue, kSuffixModes[s], plain[e]) : plain[e] == 0xdead)
              << "vstore_half" << width << kModeSuffixes[s] << " " << type << " " << standard << " element " << e
              << std::hex << ": expected 0x" << expectedPlain << ", got 0x" << plain[e];
          ASSERT_TRUE(storedAligned ? stored(alignedValue, kSuffixModes[s], aligned[e]) : aligned[e] == 0xdead)
              << "vstorea_half" << width << kModeSuffixes[s] << " " << type << " " << standard << " element " << e
              << std::hex << ": expected 0x" << expectedAligned << ", got 0x" << aligned[e];
        }
      }
  }
}

TEST_P(VloadStoreHalfTest, StoreFromFloat) { checkStores<cl_float>("float"); }
TEST_P(VloadStoreHalfTest, StoreFromDouble) { checkStores<cl_double>("double"); }

// The reference itself, on values whose rounding is known.
TEST(HalfReference, KnownRoundings) {
  EXPECT_EQ(0x3c00, referenceHalf(1.0, Rte));
  EXPECT_EQ(0x3c00, referenceHalf(1.0 + std::ldexp(1.0, -11), Rte)); // tie to even
  EXPECT_EQ(0x3c02, referenceHalf(1.0 + 3 * std::ldexp(1.0, -11), Rte));
  EXPECT_EQ(0x3c01, referenceHalf(1.0 + std::ldexp(1.0, -11), Rtp));
  EXPECT_EQ(0xbc01, referenceHalf(-1.0 - std::ldexp(1.0, -11), Rtn));
  EXPECT_EQ(0x7c00, referenceHalf(65520.0, Rte));
  EXPECT_EQ(0x7bff, referenceHalf(65519.0, Rte));
  EXPECT_EQ(0x7bff, referenceHalf(1e9, Rtz));
  EXPECT_EQ(0xfc00, referenceHalf(-1e9, Rtn));
  EXPECT_EQ(0xfbff, referenceHalf(-1e9, Rtp));
  EXPECT_EQ(0x0000, referenceHalf(std::ldexp(1.0, -25), Rte));
  EXPECT_EQ(0x0001, referenceHalf(std::ldexp(1.5, -25), Rte));
  EXPECT_EQ(0x0001, referenceHalf(1e-30, Rtp));
  EXPECT_EQ(0x8000, referenceHalf(-1e-30, Rtp));
  EXPECT_EQ(0x0400, referenceHalf(std::ldexp(1.0, -14), Rtz));
}

CLTEST_INSTANTIATE(VloadStoreHalfTest);

} // namespace
