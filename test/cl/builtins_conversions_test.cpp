// Directed-rounding conversions to floating point (OpenCL C 3.0 6.4.3):
// convert_float{,N}_rt{e,z,p,n} from double, long, ulong, int and uint, and
// convert_double_rt* from long and ulong, where the result is inexact and
// LLVM's casts (round to nearest) alone would be wrong. References come
// from MPFR: the source value set exactly, then rounded once.
#include "cl_test.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include <limits>
#include <mpfr.h>
#include <random>
#include <string>
#include <vector>

using namespace cltest;

namespace {

const char *const kModes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
const mpfr_rnd_t kMpfrModes[] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD};

// out[m * n + i] = convert_TO_<mode m>(in[i]), scalar for i < n / 2, in
// float4/double4 lanes for the rest.
const char *kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CONVERT_(TO, M) convert_##TO##M
#define CONVERT(TO, M) CONVERT_(TO, M)
#define CONVERT4_(TO, M) convert_##TO##4##M
#define CONVERT4(TO, M) CONVERT4_(TO, M)
kernel void convert(global const FROM *in, global TO *out, uint n) {
  size_t i = get_global_id(0);
#define MODE(M, K)                                                                                       \
  if (i < n / 2)                                                                                         \
    out[K * n + i] = CONVERT(TO, M)(in[i]);                                                               \
  else if ((i - n / 2) % 4 == 0)                                                                         \
    vstore4(CONVERT4(TO, M)(vload4(0, in + i)), 0, out + K * n + i);
  MODE(_rte, 0) MODE(_rtz, 1) MODE(_rtp, 2) MODE(_rtn, 3)
}
)";

class DirectedConversionTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG))
      GTEST_SKIP() << "no fp64";
  }

  /// `set` stores an input exactly into an MPFR value of 64 bits.
  template <class From, class To, class Set>
  void check(const char *from, const char *to, std::vector<From> values, Set set) {
    values.resize((values.size() + 7) / 8 * 8, From(1));
    const cl_uint n = static_cast<cl_uint>(values.size());
    std::string options = std::string("-DFROM=") + from + " -DTO=" + to;
    Program program = build(kSource, options.c_str());
    ASSERT_TRUE(program) << options;
    Kernel k = kernel(program, "convert");
    Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(From), values.data());
    Mem output = buffer(CL_MEM_WRITE_ONLY, 4 * n * sizeof(To));
    setArgs(k, input.get(), output.get(), n);
    size_t global = n;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    std::vector<To> out = read<To>(output, 4 * n);
    mpfr_t exact;
    mpfr_init2(exact, 64);
    for (int m = 0; m < 4; ++m)
      for (cl_uint i = 0; i < n; ++i) {
        set(exact, values[i]);
        To expected;
        if constexpr (std::is_same_v<To, float>) {
          // Round once to float's precision and exponent range.
          expected = mpfr_get_flt(exact, kMpfrModes[m]);
        } else {
          expected = mpfr_get_d(exact, kMpfrModes[m]);
        }
        To actual = out[m * n + i];
        bool same = std::isnan(expected)
                        ? std::isnan(actual)
                        : std::bit_cast<std::conditional_t<sizeof(To) == 4, uint32_t, uint64_t>>(expected) ==
                              std::bit_cast<std::conditional_t<sizeof(To) == 4, uint32_t, uint64_t>>(actual);
        ASSERT_TRUE(same) << "convert_" << to << kModes[m] << "((" << from << ")" << std::hexfloat << values[i]
                          << ") lane " << i << ": expected " << expected << ", got " << actual;
      }
    mpfr_clear(exact);
  }
};

template <class T> std::vector<T> integerInputs() {
  std::vector<T> values = {0,
                           1,
                           std::numeric_limits<T>::max(),
                           std::numeric_limits<T>::min(),
                           static_cast<T>(std::numeric_limits<T>::max() - 1),
                           static_cast<T>(std::numeric_limits<T>::min() + 1)};
  for (int shift = 20; shift < static_cast<int>(sizeof(T) * 8) - 1; ++shift)
    for (int delta = -3; delta <= 3; ++delta) {
      T base = static_cast<T>(T(1) << shift);
      values.push_back(static_cast<T>(base + delta));
      values.push_back(static_cast<T>(-base + delta));               // wraps for unsigned: large values
      values.push_back(static_cast<T>(base + (base >> 24) + delta)); // near float ties
      values.push_back(
          static_cast<T>(base + static_cast<T>(static_cast<uint64_t>(base) >> 53) + delta)); // near double ties
    }
  std::mt19937_64 random(77);
  for (int i = 0; i < 400; ++i)
    values.push_back(static_cast<T>(random() >> (random() % 40)));
  return values;
}

TEST_P(DirectedConversionTest, FloatFromDouble) {
  std::vector<double> values = {0.0,
                                -0.0,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::max(),
                                -std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min(),
                                -std::numeric_limits<double>::denorm_min()};
  auto add = [&](double v) {
    for (double s : {1.0, -1.0}) {
      values.push_back(s * v);
      values.push_back(std::nextafter(s * v, INFINITY));
      values.push_back(std::nextafter(s * v, -INFINITY));
    }
  };
  add(std::numeric_limits<float>::max());
  add(std::numeric_limits<float>::denorm_min());
  add(std::numeric_limits<float>::denorm_min() / 2); // tie with zero
  add(std::numeric_limits<float>::min());
  add(1.0 + std::ldexp(1.0, -24)); // tie
  add(1.0 + 3 * std::ldexp(1.0, -24));
  std::mt19937_64 random(5);
  for (int i = 0; i < 600; ++i) {
    uint64_t bits = random();
    // Exponents around float's range, denormals included.
    bits = (bits & 0x800fffffffffffffULL) | (static_cast<uint64_t>(1023 - 160 + random() % 300) << 52);
    values.push_back(std::bit_cast<double>(bits));
  }
  check<double, float>("double", "float", values, [](mpfr_t x, double v) { mpfr_set_d(x, v, MPFR_RNDN); });
}

TEST_P(DirectedConversionTest, FloatFromLong) {
  check<cl_long, float>("long", "float", integerInputs<cl_long>(),
                        [](mpfr_t x, cl_long v) { mpfr_set_sj(x, v, MPFR_RNDN); });
}
TEST_P(DirectedConversionTest, FloatFromULong) {
  check<cl_ulong, float>("ulong", "float", integerInputs<cl_ulong>(),
                         [](mpfr_t x, cl_ulong v) { mpfr_set_uj(x, v, MPFR_RNDN); });
}
TEST_P(DirectedConversionTest, FloatFromInt) {
  check<cl_int, float>("int", "float", integerInputs<cl_int>(),
                       [](mpfr_t x, cl_int v) { mpfr_set_si(x, v, MPFR_RNDN); });
}
TEST_P(DirectedConversionTest, FloatFromUInt) {
  check<cl_uint, float>("uint", "float", integerInputs<cl_uint>(),
                        [](mpfr_t x, cl_uint v) { mpfr_set_ui(x, v, MPFR_RNDN); });
}
TEST_P(DirectedConversionTest, DoubleFromLong) {
  check<cl_long, double>("long", "double", integerInputs<cl_long>(),
                         [](mpfr_t x, cl_long v) { mpfr_set_sj(x, v, MPFR_RNDN); });
}
TEST_P(DirectedConversionTest, DoubleFromULong) {
  check<cl_ulong, double>("ulong", "double", integerInputs<cl_ulong>(),
                          [](mpfr_t x, cl_ulong v) { mpfr_set_uj(x, v, MPFR_RNDN); });
}

CLTEST_INSTANTIATE(DirectedConversionTest);

} // namespace
