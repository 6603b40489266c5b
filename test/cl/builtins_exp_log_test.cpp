// Exponential, logarithm, power and hyperbolic builtins (OpenCL C 3.0
// 6.15.2): exp exp2 exp10 expm1 log log2 log10 log1p pow pown powr rootn
// sinh cosh tanh asinh acosh atanh, for float and double:
//  - special values (±0, ±inf, NaN, denormals, domain edges, the pow/pown/
//    powr/rootn tables of C99 Annex F and OpenCL C 7.5.1) exactly;
//  - a few thousand sampled inputs per function (including the overflow and
//    underflow thresholds) against MPFR, within the full-profile ULP bounds
//    of the OpenCL C spec section 7.4 (the worst error is printed);
//  - every vector width gives the scalar results, bit for bit.
// A device without CL_FP_DENORM may flush float denormals (denormal_flush.h):
// a special case with a denormal operand then also accepts the result of
// its flushed twin, the case with that operand a zero of the same sign,
// which the tables hold for that reason.
#include "cl_test.h"
#include "denormal_flush.h"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace cltest;

namespace {

enum class Arg { None, Real, Int }; // the second argument

struct Function {
  const char *name;
  Arg second;
  double ulps; // OpenCL C 7.4, full profile (the same for float and double)
};

const Function kFunctions[] = {
    {"exp", Arg::None, 3},   {"exp2", Arg::None, 3},  {"exp10", Arg::None, 3}, {"expm1", Arg::None, 3},
    {"log", Arg::None, 3},   {"log2", Arg::None, 3},  {"log10", Arg::None, 3}, {"log1p", Arg::None, 2},
    {"sinh", Arg::None, 4},  {"cosh", Arg::None, 4},  {"tanh", Arg::None, 5},  {"asinh", Arg::None, 4},
    {"acosh", Arg::None, 4}, {"atanh", Arg::None, 5}, {"pow", Arg::Real, 16},  {"powr", Arg::Real, 16},
    {"pown", Arg::Int, 16},  {"rootn", Arg::Int, 16},
};

const Function &functionNamed(const std::string &name) {
  for (const Function &f : kFunctions)
    if (name == f.name)
      return f;
  ADD_FAILURE() << "no function " << name;
  return kFunctions[0];
}

// One kernel per function: k1_<name> for scalars, and with `vectors`
// k<N>_<name> for the vector widths N = 2, 3, 4, 8, 16.
std::string kernelSource(const char *type, bool vectors) {
  std::string s = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s += "typedef " + std::string(type) + " T;\n";
  s += R"(
#define ARGS __global const T *x, __global const T *y, __global const int *n, __global T *r
#define K1(F) __kernel void k1_##F(ARGS) { size_t i = get_global_id(0); r[i] = F(x[i]); }
#define K2(F) __kernel void k1_##F(ARGS) { size_t i = get_global_id(0); r[i] = F(x[i], y[i]); }
#define KI(F) __kernel void k1_##F(ARGS) { size_t i = get_global_id(0); r[i] = F(x[i], n[i]); }
#define V1_(F, N) __kernel void k##N##_##F(ARGS) { size_t i = get_global_id(0); vstore##N(F(vload##N(i, x)), i, r); }
#define V2_(F, N) __kernel void k##N##_##F(ARGS) { \
    size_t i = get_global_id(0); vstore##N(F(vload##N(i, x), vload##N(i, y)), i, r); }
#define VI_(F, N) __kernel void k##N##_##F(ARGS) { \
    size_t i = get_global_id(0); vstore##N(F(vload##N(i, x), vload##N(i, n)), i, r); }
#define V1(F) V1_(F, 2) V1_(F, 3) V1_(F, 4) V1_(F, 8) V1_(F, 16)
#define V2(F) V2_(F, 2) V2_(F, 3) V2_(F, 4) V2_(F, 8) V2_(F, 16)
#define VI(F) VI_(F, 2) VI_(F, 3) VI_(F, 4) VI_(F, 8) VI_(F, 16)
)";
  for (const Function &f : kFunctions) {
    const char *k = f.second == Arg::None ? "1" : f.second == Arg::Real ? "2" : "I";
    s += std::string("K") + k + "(" + f.name + ")\n";
    if (vectors)
      s += std::string("V") + k + "(" + f.name + ")\n";
  }
  return s;
}

// ---- MPFR references --------------------------------------------------------

constexpr mpfr_prec_t kPrecision = 192;

struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, kPrecision); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp &) = delete;
  Mp &operator=(const Mp &) = delete;
};

// The exact result of `name` at (x, y, n), to kPrecision bits (NaN outside
// the domain). Arguments are exact in MPFR.
void reference(mpfr_t r, const std::string &name, double x, double y, int n) {
  Mp a, b;
  mpfr_set_d(a.v, x, MPFR_RNDN);
  mpfr_set_d(b.v, y, MPFR_RNDN);
  const mpfr_rnd_t rn = MPFR_RNDN;
  if (name == "exp")
    mpfr_exp(r, a.v, rn);
  else if (name == "exp2")
    mpfr_exp2(r, a.v, rn);
  else if (name == "exp10")
    mpfr_exp10(r, a.v, rn);
  else if (name == "expm1")
    mpfr_expm1(r, a.v, rn);
  else if (name == "log")
    mpfr_log(r, a.v, rn);
  else if (name == "log2")
    mpfr_log2(r, a.v, rn);
  else if (name == "log10")
    mpfr_log10(r, a.v, rn);
  else if (name == "log1p")
    mpfr_log1p(r, a.v, rn);
  else if (name == "sinh")
    mpfr_sinh(r, a.v, rn);
  else if (name == "cosh")
    mpfr_cosh(r, a.v, rn);
  else if (name == "tanh")
    mpfr_tanh(r, a.v, rn);
  else if (name == "asinh")
    mpfr_asinh(r, a.v, rn);
  else if (name == "acosh")
    mpfr_acosh(r, a.v, rn);
  else if (name == "atanh")
    mpfr_atanh(r, a.v, rn);
  else if (name == "pow" || name == "powr")
    mpfr_pow(r, a.v, b.v, rn);
  else if (name == "pown")
    mpfr_pow_si(r, a.v, n, rn);
  else if (name == "rootn") {
    // x^(1/n): the |n|-th root, inverted for n < 0 (both at 192 bits).
    mpfr_rootn_ui(r, a.v, static_cast<unsigned long>(n < 0 ? -static_cast<long>(n) : n), rn);
    if (n < 0)
      mpfr_ui_div(r, 1, r, rn);
  } else
    ADD_FAILURE() << "no reference for " << name;
}

// |got - ref| in units of the last place of ref in T (CTS convention: the
// ulp of the denormal range below the smallest normal; an infinite result
// counts as 2^emax; a reference that rounds to infinity accepts infinity).
template <class T> double ulpError(T got, const mpfr_t ref, bool flushDenormals) {
  using L = std::numeric_limits<T>;
  if (mpfr_nan_p(ref))
    return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got))
    return INFINITY;
  const T rounded = std::is_same_v<T, double> ? static_cast<T>(mpfr_get_d(ref, MPFR_RNDN))
                                              : static_cast<T>(mpfr_get_flt(ref, MPFR_RNDN));
  if (std::isinf(rounded) && got == rounded)
    return 0;
  if (flushDenormals && got == 0 && std::fabs(rounded) <= L::min())
    return 0;
  Mp g, d;
  if (std::isinf(got))
    mpfr_set_si_2exp(g.v, got > 0 ? 1 : -1, L::max_exponent, MPFR_RNDN);
  else
    mpfr_set_d(g.v, static_cast<double>(got), MPFR_RNDN);
  if (mpfr_inf_p(ref))
    return mpfr_inf_p(g.v) && mpfr_sgn(g.v) == mpfr_sgn(ref) ? 0 : INFINITY;
  long e = mpfr_zero_p(ref) ? L::min_exponent - 1 : std::max<long>(mpfr_get_exp(ref) - 1, L::min_exponent - 1);
  mpfr_sub(d.v, g.v, ref, MPFR_RNDN);
  mpfr_mul_2si(d.v, d.v, -(e - (L::digits - 1)), MPFR_RNDN);
  return std::fabs(mpfr_get_d(d.v, MPFR_RNDN));
}

// ---- Inputs -----------------------------------------------------------------

template <class T> struct Inputs {
  std::vector<T> x, y;
  std::vector<cl_int> n;
  void add(T a, T b = 0, cl_int k = 0) {
    x.push_back(a);
    y.push_back(b);
    n.push_back(k);
  }
  size_t size() const { return x.size(); }
};

template <class T> T ldexpT(double m, int e) { return static_cast<T>(std::ldexp(m, e)); }

// Sampled inputs for the accuracy test: uniform over the interesting range,
// log-uniform magnitudes, and the neighbourhoods of thresholds.
template <class T> Inputs<T> sampledInputs(const std::string &name, std::mt19937_64 &rng, int count) {
  using L = std::numeric_limits<T>;
  const bool dbl = std::is_same_v<T, double>;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto uniform = [&](double lo, double hi) { return static_cast<T>(lo + (hi - lo) * unit(rng)); };
  // sign * 2^[emin, emax) with a random mantissa, denormals included.
  auto logUniform = [&](int emin, int emax) {
    double m = 1.0 + unit(rng);
    int e = emin + static_cast<int>(unit(rng) * (emax - emin));
    return static_cast<T>(std::ldexp(m, e));
  };
  const int lowExp = L::min_exponent - L::digits - 1, highExp = L::max_exponent - 1;
  // ln of the largest finite value and of half the smallest denormal.
  const double lnMax = dbl ? 709.782712893384 : 88.72283905206835;
  const double lnMin = dbl ? -745.1332191019412 : -103.97207708399179;
  Inputs<T> in;
  auto around = [&](double v) {
    T t = static_cast<T>(v);
    for (int i = 0; i < 4; ++i) {
      in.add(t);
      t = std::nextafter(t, L::infinity());
    }
    t = static_cast<T>(v);
    for (int i = 0; i < 4; ++i)
      in.add(t = std::nextafter(t, -L::infinity()));
  };
  for (int i = 0; i < count; ++i) {
    const bool half = i % 2 == 0;
    const T s = (i & 2) ? T(-1) : T(1);
    if (name == "exp" || name == "expm1")
      in.add(half ? uniform(lnMin - 1, lnMax + 1) : s * logUniform(lowExp, 3));
    else if (name == "exp2")
      in.add(half ? uniform(L::min_exponent - L::digits - 2, L::max_exponent + 1) : s * logUniform(lowExp, 4));
    else if (name == "exp10")
      in.add(half ? uniform(lnMin / 2.302585092994046 - 1, lnMax / 2.302585092994046 + 1) : s * logUniform(lowExp, 3));
    else if (name == "log" || name == "log2" || name == "log10")
      in.add(half ? logUniform(lowExp, highExp) : uniform(0.5, 2.0));
    else if (name == "log1p")
      in.add(half ? logUniform(lowExp, highExp) : s > 0 ? s * logUniform(lowExp, 2) : uniform(-1.0, 0.0));
    else if (name == "sinh" || name == "cosh")
      in.add(half ? uniform(-(lnMax + 2), lnMax + 2) : s * logUniform(lowExp, 3));
    else if (name == "tanh")
      in.add(half ? uniform(-25, 25) : s * logUniform(lowExp, 5));
    else if (name == "asinh")
      in.add(half ? s * logUniform(lowExp, highExp) : uniform(-4, 4));
    else if (name == "acosh")
      in.add(half ? static_cast<T>(1 + std::ldexp(1.0, -static_cast<int>(unit(rng) * L::digits)) * unit(rng))
                  : logUniform(0, highExp));
    else if (name == "atanh")
      in.add(half ? uniform(-1, 1) : s * (1 - logUniform(-L::digits, 0) / 2));
    else if (name == "pow" || name == "powr" || name == "pown") {
      // |y ln x| up to ~1.1 ln(max): overflow and underflow both occur.
      T x = logUniform(lowExp, highExp);
      double l = std::log(static_cast<double>(x));
      double limit = 1.1 * lnMax / std::max(std::fabs(l), 1e-300);
      if (i % 5 == 4) // x near 1, large y
        x = static_cast<T>(1 + (unit(rng) - 0.5) * std::ldexp(1.0, -static_cast<int>(unit(rng) * L::digits)));
      if (i % 5 == 4)
        limit = 1.1 * lnMax / std::max(std::fabs(std::log(static_cast<double>(x))), 1e-300);
      T y = static_cast<T>((2 * unit(rng) - 1) * std::min(limit, static_cast<double>(L::max())));
      if (name == "pown") {
        int k = static_cast<int>(std::clamp(static_cast<double>(y), -2e9, 2e9));
        if (i % 3 == 0)
          k = static_cast<int>(unit(rng) * 80) - 40;
        in.add(i % 4 == 1 ? -x : x, 0, k);
      } else if (name == "pow" && i % 4 == 1) {
        in.add(-x, std::round(y)); // a negative base needs an integer y
      } else {
        in.add(x, y);
      }
    } else if (name == "rootn") {
      int k = static_cast<int>(unit(rng) * 60) - 30;
      if (k == 0)
        k = 1;
      T x = logUniform(lowExp, highExp);
      in.add((k & 1) && (i & 2) ? -x : x, 0, i % 16 == 15 ? (i & 4 ? 1 << 20 : -(1 << 20) + 1) : k);
    }
  }
  if (name == "exp" || name == "expm1" || name == "sinh" || name == "cosh") {
    around(lnMax);
    around(lnMin);
    around(dbl ? 710.4758600739439 : 89.41598629223294); // sinh/cosh overflow
    around(dbl ? -710.4758600739439 : -89.41598629223294);
  } else if (name == "exp2") {
    around(L::max_exponent);
    around(L::min_exponent - L::digits - 1);
  } else if (name == "exp10") {
    around(lnMax / 2.302585092994046);
    around(lnMin / 2.302585092994046);
    for (int k = -10; k <= 22; ++k)
      in.add(static_cast<T>(k));
  } else if (name == "log1p" || name == "atanh") {
    around(-1 + L::epsilon());
    around(1 - L::epsilon());
  }
  return in;
}

// ---- Fixture ----------------------------------------------------------------

class ExpLogBuiltinsTest : public DeviceTest {
protected:
  // Builds the scalar kernels, or the vector ones (without optimisation:
  // 90 kernels that inline their lanes' builtins take long to optimise, and
  // the library itself is optimised either way).
  template <class T> bool prepare(bool vectors = false) {
    if (std::is_same_v<T, double>) {
      if (!deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG)) {
        skipped_ = true;
        return false;
      }
      flush_ = false;
    } else {
      flush_ = flushesFloatDenormals(device());
    }
    program_ = build(kernelSource(clTypeName<T>(), vectors), vectors ? "-cl-opt-disable" : "");
    return static_cast<bool>(program_);
  }

  // F applied by the kernel k<width>_<name> to every input.
  template <class T> std::vector<T> run(const std::string &name, const Inputs<T> &in, int width = 1) {
    size_t count = in.size();
    size_t padded = (count + 15) / 16 * 16;
    std::vector<T> x(in.x), y(in.y);
    std::vector<cl_int> n(in.n);
    x.resize(padded, T(1));
    y.resize(padded, T(1));
    n.resize(padded, 1);
    Kernel k = kernel(program_, ("k" + std::to_string(width) + "_" + name).c_str());
    Mem bx = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, padded * sizeof(T), x.data());
    Mem by = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, padded * sizeof(T), y.data());
    Mem bn = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, padded * sizeof(cl_int), n.data());
    Mem br = buffer(CL_MEM_WRITE_ONLY, padded * sizeof(T));
    setArgs(k, bx.get(), by.get(), bn.get(), br.get());
    size_t global = padded / width;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    std::vector<T> r = read<T>(br, padded);
    r.resize(count);
    return r;
  }

  template <class T> void checkSpecial(const std::string &name, const Inputs<T> &in, const std::vector<T> &expected);
  template <class T> void specialValues();
  template <class T> void accuracy();
  template <class T> void vectorWidths();

  Program program_;
  bool flush_ = false;
  bool skipped_ = false;
};

template <class T> std::string show(T v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
  return buf;
}

// Each result must be the expected value bit for bit (any NaN for a NaN).
// Where denormals may be flushed, a case with a denormal operand also
// accepts the expected value of its flushed twin, and denormal results may
// be zeros (matchesAfterResultFlush).
template <class T>
void ExpLogBuiltinsTest::checkSpecial(const std::string &name, const Inputs<T> &in, const std::vector<T> &expected) {
  using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  const Function &f = functionNamed(name);
  // The case with in.x[i] and in.y[i] flushed, or -1 where no operand is a
  // denormal. Every case with a denormal operand needs one, so that a
  // flushing device can be judged: its absence is a failure on any device.
  auto flushedTwin = [&](size_t i) -> ptrdiff_t {
    const T y = f.second == Arg::Real ? in.y[i] : T(0);
    if (!anyDenormal(in.x[i], y))
      return -1;
    for (size_t j = 0; j < in.size(); ++j)
      if (std::bit_cast<Bits>(in.x[j]) == std::bit_cast<Bits>(flushDenormal(in.x[i])) &&
          std::bit_cast<Bits>(in.y[j]) == std::bit_cast<Bits>(flushDenormal(y)) && in.n[j] == in.n[i])
        return static_cast<ptrdiff_t>(j);
    ADD_FAILURE() << name << "(" << show(in.x[i]) << ", " << show(y) << ", " << in.n[i]
                  << "): no case with its denormal operands flushed to zero";
    return -1;
  };
  auto matches = [&](T want, T got) {
    if (std::isnan(want))
      return static_cast<bool>(std::isnan(got));
    return std::bit_cast<Bits>(want) == std::bit_cast<Bits>(got) || (flush_ && matchesAfterResultFlush(want, got));
  };
  std::vector<T> got = run<T>(name, in);
  for (size_t i = 0; i < in.size(); ++i) {
    std::string args = show(in.x[i]);
    if (f.second == Arg::Real)
      args += ", " + show(in.y[i]);
    else if (f.second == Arg::Int)
      args += ", " + std::to_string(in.n[i]);
    const ptrdiff_t twin = flushedTwin(i);
    if (matches(expected[i], got[i]) || (flush_ && twin >= 0 && matches(expected[twin], got[i])))
      continue;
    if (std::isnan(expected[i]))
      ADD_FAILURE() << clTypeName<T>() << " " << name << "(" << args << ") = " << show(got[i]) << ", expected nan";
    else
      ADD_FAILURE() << clTypeName<T>() << " " << name << "(" << args << ") = " << show(got[i]) << ", expected "
                    << show(expected[i]);
  }
}

template <class T> void ExpLogBuiltinsTest::specialValues() {
  if (!prepare<T>()) {
    if (skipped_)
      GTEST_SKIP() << "no fp64";
    return;
  }
  using L = std::numeric_limits<T>;
  const T inf = L::infinity(), nan = L::quiet_NaN(), big = L::max(), tiny = L::denorm_min();
  const T dn = flush_ ? L::min() : L::denorm_min() * 3; // a denormal when supported
  struct Case1 {
    const char *name;
    T x, r;
  };
  // clang-format off
  const std::vector<Case1> unary = {
      {"exp", 0, 1}, {"exp", -0.0, 1}, {"exp", inf, inf}, {"exp", -inf, 0}, {"exp", nan, nan},
      {"exp", big, inf}, {"exp", -big, 0}, {"exp", tiny, 1}, {"exp", -tiny, 1},
      {"exp2", 0, 1}, {"exp2", -0.0, 1}, {"exp2", inf, inf}, {"exp2", -inf, 0}, {"exp2", nan, nan},
      {"exp2", big, inf}, {"exp2", -big, 0}, {"exp2", 10, 1024}, {"exp2", -3, 0.125},
      {"exp2", T(L::min_exponent - L::digits), tiny}, {"exp2", T(L::max_exponent - 1), ldexpT<T>(1, L::max_exponent - 1)},
      {"exp10", 0, 1}, {"exp10", -0.0, 1}, {"exp10", inf, inf}, {"exp10", -inf, 0}, {"exp10", nan, nan},
      {"exp10", big, inf}, {"exp10", -big, 0}, {"exp10", 1, 10}, {"exp10", 3, 1000},
      {"expm1", 0, 0}, {"expm1", -0.0, -0.0}, {"expm1", inf, inf}, {"expm1", -inf, -1}, {"expm1", nan, nan},
      {"expm1", big, inf}, {"expm1", -big, -1}, {"expm1", dn, dn}, {"expm1", -dn, -dn},
      {"log", 0, -inf}, {"log", -0.0, -inf}, {"log", 1, 0}, {"log", -1, nan}, {"log", -inf, nan},
      {"log", inf, inf}, {"log", nan, nan}, {"log", -tiny, nan},
      {"log2", 0, -inf}, {"log2", -0.0, -inf}, {"log2", 1, 0}, {"log2", -1, nan}, {"log2", inf, inf},
      {"log2", nan, nan}, {"log2", 1024, 10}, {"log2", 0.125, -3},
      {"log2", flush_ ? L::min() : tiny, T(flush_ ? L::min_exponent - 1 : L::min_exponent - L::digits)},
      {"log2", ldexpT<T>(1, L::max_exponent - 1), T(L::max_exponent - 1)},
      {"log10", 0, -inf}, {"log10", -0.0, -inf}, {"log10", 1, 0}, {"log10", -1, nan}, {"log10", inf, inf},
      {"log10", nan, nan}, {"log10", 10, 1}, {"log10", 1000, 3}, {"log10", 100, 2},
      {"log1p", 0, 0}, {"log1p", -0.0, -0.0}, {"log1p", -1, -inf}, {"log1p", -2, nan}, {"log1p", -inf, nan},
      {"log1p", inf, inf}, {"log1p", nan, nan}, {"log1p", dn, dn}, {"log1p", -dn, -dn},
      {"sinh", 0, 0}, {"sinh", -0.0, -0.0}, {"sinh", inf, inf}, {"sinh", -inf, -inf}, {"sinh", nan, nan},
      {"sinh", big, inf}, {"sinh", -big, -inf}, {"sinh", dn, dn}, {"sinh", -dn, -dn},
      {"cosh", 0, 1}, {"cosh", -0.0, 1}, {"cosh", inf, inf}, {"cosh", -inf, inf}, {"cosh", nan, nan},
      {"cosh", big, inf}, {"cosh", -big, inf}, {"cosh", dn, 1},
      {"tanh", 0, 0}, {"tanh", -0.0, -0.0}, {"tanh", inf, 1}, {"tanh", -inf, -1}, {"tanh", nan, nan},
      {"tanh", big, 1}, {"tanh", -big, -1}, {"tanh", 30, 1}, {"tanh", dn, dn}, {"tanh", -dn, -dn},
      {"asinh", 0, 0}, {"asinh", -0.0, -0.0}, {"asinh", inf, inf}, {"asinh", -inf, -inf}, {"asinh", nan, nan},
      {"asinh", dn, dn}, {"asinh", -dn, -dn},
      {"acosh", 1, 0}, {"acosh", inf, inf}, {"acosh", -inf, nan}, {"acosh", nan, nan}, {"acosh", 0.5, nan},
      {"acosh", 0, nan}, {"acosh", -1, nan},
      {"atanh", 0, 0}, {"atanh", -0.0, -0.0}, {"atanh", 1, inf}, {"atanh", -1, -inf}, {"atanh", nan, nan},
      {"atanh", 1.5, nan}, {"atanh", -inf, nan}, {"atanh", inf, nan}, {"atanh", dn, dn}, {"atanh", -dn, -dn},
  };
  // clang-format on
  for (const Function &f : kFunctions) {
    if (f.second != Arg::None)
      continue;
    Inputs<T> in;
    std::vector<T> expected;
    for (const Case1 &c : unary)
      if (std::string(c.name) == f.name) {
        in.add(c.x);
        expected.push_back(c.r);
      }
    ASSERT_FALSE(in.x.empty()) << f.name;
    checkSpecial<T>(f.name, in, expected);
  }

  // pow: C99 F.9.4.4 (the OpenCL C spec refers to it).
  {
    Inputs<T> in;
    std::vector<T> e;
    auto add = [&](T x, T y, T r) {
      in.add(x, y);
      e.push_back(r);
    };
    for (T x : {T(0), T(-0.0), T(2), T(-2), T(0.5), inf, -inf, nan, T(1), T(-1)}) {
      add(x, 0, 1); // pow(x, ±0) = 1 for any x, even NaN
      add(x, -0.0, 1);
    }
    for (T y : {T(0), T(3), T(-3), T(0.5), inf, -inf, nan})
      add(1, y, 1); // pow(+1, y) = 1 for any y, even NaN
    add(nan, 2, nan), add(2, nan, nan), add(-1, nan, nan), add(nan, nan, nan);
    add(0, -3, inf), add(-0.0, -3, -inf); // ±0, odd integer y < 0
    add(0, -2, inf), add(-0.0, -2, inf);  // ±0, y < 0 not an odd integer
    add(0, -0.5, inf), add(-0.0, -0.5, inf);
    add(0, -inf, inf), add(-0.0, -inf, inf);
    add(0, -big, inf), add(-0.0, -big, inf);
    add(0, 3, 0), add(-0.0, 3, -0.0); // ±0, odd integer y > 0
    add(0, 2, 0), add(-0.0, 2, 0), add(-0.0, 0.5, 0), add(-0.0, inf, 0), add(-0.0, big, 0);
    add(-1, inf, 1), add(-1, -inf, 1);
    add(0.5, -inf, inf), add(-0.5, -inf, inf), add(2, -inf, 0), add(-2, -inf, 0);
    add(0.5, inf, 0), add(-0.5, inf, 0), add(2, inf, inf), add(-2, inf, inf);
    add(-inf, -3, -0.0), add(-inf, -2, 0), add(-inf, -0.5, 0);
    add(-inf, 3, -inf), add(-inf, 2, inf), add(-inf, 0.5, inf);
    add(inf, -2, 0), add(inf, -0.5, 0), add(inf, 0.5, inf), add(inf, 3, inf);
    add(-2, 0.5, nan), add(-2, -1.5, nan), add(-big, 0.5, nan), add(-tiny, T(1.25), nan), add(-0.0, T(1.25), 0);
    add(-2, 3, -8), add(-2, -3, -0.125), add(-2, 2, 4), add(-1, big, 1), add(-1, T(-3), -1);
    add(2, 10, 1024), add(4, 0.5, 2), add(2, T(L::min_exponent - L::digits), tiny);
    add(2, T(L::max_exponent), inf), add(-2, T(L::max_exponent - 1), -ldexpT<T>(1, L::max_exponent - 1));
    add(big, 2, inf), add(-big, 3, -inf), add(tiny, 2, 0), add(-tiny, 3, -0.0), add(big, -2, 0);
    checkSpecial<T>("pow", in, e);
  }
  // pown: OpenCL C 7.5.1 (pown(x, 0) = 1 for any x) and pow's integer cases.
  {
    Inputs<T> in;
    std::vector<T> e;
    auto add = [&](T x, int n, T r) {
      in.add(x, 0, n);
      e.push_back(r);
    };
    for (T x : {T(0), T(-0.0), T(3), inf, -inf, nan})
      add(x, 0, 1);
    add(0, -3, inf), add(-0.0, -3, -inf), add(0, -2, inf), add(-0.0, -2, inf);
    add(0, 3, 0), add(-0.0, 3, -0.0), add(0, 2, 0), add(-0.0, 2, 0);
    add(inf, 3, inf), add(-inf, 3, -inf), add(-inf, 2, inf), add(inf, -1, 0), add(-inf, -1, -0.0), add(-inf, -2, 0);
    add(nan, 1, nan), add(nan, -2, nan);
    add(-2, 3, -8), add(-2, -1, -0.5), add(2, 10, 1024), add(-1, std::numeric_limits<int>::min(), 1),
        add(-1, std::numeric_limits<int>::max(), -1), add(1, std::numeric_limits<int>::min(), 1);
    add(2, L::max_exponent, inf), add(-2, L::max_exponent + 1, -inf), add(2, L::min_exponent - L::digits, tiny);
    add(2, L::min_exponent - L::digits - 2, 0), add(-2, (L::min_exponent - L::digits - 3) | 1, -0.0);
    checkSpecial<T>("pown", in, e);
  }
  // powr: OpenCL C 7.5.1 (x^y = exp(y log x) for x >= 0).
  {
    Inputs<T> in;
    std::vector<T> e;
    auto add = [&](T x, T y, T r) {
      in.add(x, y);
      e.push_back(r);
    };
    add(2, 0, 1), add(2, -0.0, 1), add(0.5, 0, 1), add(big, -0.0, 1), add(tiny, 0, 1);
    add(0, -3, inf), add(-0.0, -3, inf), add(0, -0.5, inf), add(-0.0, -big, inf);
    add(0, -inf, inf), add(-0.0, -inf, inf);
    add(0, 3, 0), add(-0.0, 3, 0), add(0, 0.5, 0), add(-0.0, inf, 0);
    add(1, 3, 1), add(1, -0.5, 1), add(1, big, 1), add(1, 0, 1);
    add(-2, 2, nan), add(-0.5, 3, nan), add(-inf, 2, nan), add(-tiny, 1, nan), add(-0.0, 1, 0);
    add(0, 0, nan), add(-0.0, 0, nan), add(0, -0.0, nan), add(-0.0, -0.0, nan);
    add(inf, 0, nan), add(inf, -0.0, nan);
    add(1, inf, nan), add(1, -inf, nan);
    add(2, nan, nan), add(0, nan, nan), add(1, nan, nan), add(nan, 2, nan), add(nan, 0, nan);
    add(inf, 2, inf), add(inf, -2, 0), add(inf, inf, inf), add(inf, -inf, 0);
    add(0.5, inf, 0), add(0.5, -inf, inf), add(2, inf, inf), add(2, -inf, 0);
    add(2, 10, 1024), add(4, 0.5, 2), add(4, -0.5, 0.5);
    checkSpecial<T>("powr", in, e);
  }
  // rootn: OpenCL C 7.5.1.
  {
    Inputs<T> in;
    std::vector<T> e;
    auto add = [&](T x, int n, T r) {
      in.add(x, 0, n);
      e.push_back(r);
    };
    add(0, -3, inf), add(-0.0, -3, -inf), add(0, -2, inf), add(-0.0, -2, inf);
    add(0, 2, 0), add(-0.0, 2, 0), add(0, 3, 0), add(-0.0, 3, -0.0);
    add(-8, 2, nan), add(-1, 4, nan), add(-inf, 2, nan), add(-tiny, -2, nan);
    add(2, 0, nan), add(0, 0, nan), add(-8, 0, nan), add(nan, 0, nan), add(nan, 3, nan);
    add(inf, 3, inf), add(-inf, 3, -inf), add(inf, 2, inf), add(inf, -3, 0), add(-inf, -3, -0.0), add(inf, -2, 0);
    add(8, 3, 2), add(-8, 3, -2), add(16, 4, 2), add(16, -4, 0.5), add(-27, -3, T(-1.0 / 3)), add(5, 1, 5),
        add(-5, 1, -5), add(4, -1, 0.25), add(1, 7, 1), add(1, -8, 1), add(-1, 5, -1);
    add(ldexpT<T>(1, L::min_exponent - L::digits + 1), -1, inf), add(0, -1, inf);
    checkSpecial<T>("rootn", in, e);
  }
}

template <class T> void ExpLogBuiltinsTest::accuracy() {
  if (!prepare<T>()) {
    if (skipped_)
      GTEST_SKIP() << "no fp64";
    return;
  }
  std::mt19937_64 rng(std::is_same_v<T, double> ? 2024 : 1957);
  Mp ref;
  for (const Function &f : kFunctions) {
    Inputs<T> in = sampledInputs<T>(f.name, rng, 3000);
    std::vector<T> got = run<T>(f.name, in);
    double worst = 0;
    size_t worstAt = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      if (flush_ && std::fpclassify(in.x[i]) == FP_SUBNORMAL)
        continue;
      reference(ref.v, f.name, static_cast<double>(in.x[i]), static_cast<double>(in.y[i]), in.n[i]);
      double err = ulpError<T>(got[i], ref.v, flush_);
      if (err > worst || std::isnan(err)) {
        worst = err;
        worstAt = i;
      }
    }
    std::string at = show(in.x[worstAt]);
    if (f.second == Arg::Real)
      at += ", " + show(in.y[worstAt]);
    else if (f.second == Arg::Int)
      at += ", " + std::to_string(in.n[worstAt]);
    std::printf("  %-6s %-5s worst %.3f ulp (bound %g) at %s(%s) = %s\n", clTypeName<T>(), f.name, worst, f.ulps,
                f.name, at.c_str(), show(got[worstAt]).c_str());
    EXPECT_LE(worst, f.ulps) << clTypeName<T>() << " " << f.name << "(" << at << ") = " << show(got[worstAt]);
  }
}

template <class T> void ExpLogBuiltinsTest::vectorWidths() {
  if (!prepare<T>(/*vectors=*/true)) {
    if (skipped_)
      GTEST_SKIP() << "no fp64";
    return;
  }
  std::mt19937_64 rng(77);
  for (const Function &f : kFunctions) {
    Inputs<T> in = sampledInputs<T>(f.name, rng, 48);
    in.x.resize(48), in.y.resize(48), in.n.resize(48);
    std::vector<T> scalar = run<T>(f.name, in);
    for (int width : {2, 3, 4, 8, 16}) {
      std::vector<T> vec = run<T>(f.name, in, width);
      for (size_t i = 0; i < in.size(); ++i)
        if (!(std::isnan(scalar[i]) && std::isnan(vec[i])))
          ASSERT_EQ(show(scalar[i]), show(vec[i]))
              << clTypeName<T>() << " " << f.name << " width " << width << " lane " << i << " x " << show(in.x[i]);
    }
  }
}

TEST_P(ExpLogBuiltinsTest, SpecialValuesFloat) { specialValues<float>(); }
TEST_P(ExpLogBuiltinsTest, SpecialValuesDouble) { specialValues<double>(); }
TEST_P(ExpLogBuiltinsTest, AccuracyFloat) { accuracy<float>(); }
TEST_P(ExpLogBuiltinsTest, AccuracyDouble) { accuracy<double>(); }
TEST_P(ExpLogBuiltinsTest, VectorWidthsFloat) { vectorWidths<float>(); }
TEST_P(ExpLogBuiltinsTest, VectorWidthsDouble) { vectorWidths<double>(); }

CLTEST_INSTANTIATE(ExpLogBuiltinsTest);

} // namespace
