// Accuracy of the OpenCL C 3.0 built-in math functions (6.15.2) against
// correctly rounded MPFR references (math_reference.h), with the bounds of
// the OpenCL C spec 7.4 (math_ulp_table.h).
//
// For every function and type (float, double) one program is built and run
// over a few thousand deterministic inputs: the edge cases of the format
// (±0, subnormals, ±FLT_MIN/DBL_MIN, ±1, ±inf, nan, huge values), points
// where the function is delicate (multiples of pi/2, 1 for log, overflow
// thresholds, poles...) with their neighbours, and pseudo-random samples
// (random bit patterns, spread over the exponent range, and uniform samples
// in the function's useful range). Each program has a scalar kernel and
// vector kernels (float4 and float16 / double2 and double8) whose results
// must agree with the scalar ones bit for bit; functions with pointer
// results are also built with -cl-std=CL3.0 (the __generic overloads,
// where the default build calls the __private and __global ones) and must
// agree too. The reference is evaluated once per input on the host; the
// context and queue are shared by all tests of a device.
//
// Suites (one test per function and type, e.g.
// Math/MathFullProfile.WithinUlpBound/dev0_<device>_sin_double):
//  - MathFullProfile: full-profile ULP bounds; special values (nan vs number,
//    infinities, sign of zero where C99 Annex F / OpenCL 7.5.1 fix it) must
//    be exact. Devices without CL_FP_DENORM for float get the flush-to-zero
//    allowances of 7.5.3.
//  - MathFastRelaxed: a float subset built with -cl-fast-relaxed-math
//    -cl-denorms-are-zero against the relaxed bounds (finite inputs and
//    results only; a subnormal input may be read as zero and a subnormal
//    result may be flushed to zero; zeros of either sign are accepted).
//  - MathHalfNative: half_* within 8192 ulp, native_* finite and within
//    2^-8 * max(|exact|, 1), over benign inputs (float, scalar and float4).
// A table of the worst errors per function and type is printed at the end.
#include "cl_test.h"
#include "denormal_flush.h"
#include "math_reference.h"
#include "math_ulp_table.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace cltest;
using namespace cltest::math;

namespace {

// Random samples per function and type (on top of the edge cases).
constexpr size_t kRandomSamples = 2048;

// ---- Function descriptions -------------------------------------------------

enum class Sig {
  F_F,    // T f(T)
  F_FF,   // T f(T, T)
  F_FFF,  // T f(T, T, T)
  F_FI,   // T f(T, int)        ldexp, pown, rootn
  I_F,    // int f(T)           ilogb
  F_FpF,  // T f(T, T *)        fract, modf, sincos
  F_FpI,  // T f(T, int *)      frexp, lgamma_r
  F_FFpI, // T f(T, T, int *)   remquo
  F_N,    // T f(uint / ulong)  nan
};

bool hasPointer(Sig s) { return s == Sig::F_FpF || s == Sig::F_FpI || s == Sig::F_FFpI; }
int floatArgs(Sig s) {
  switch (s) {
  case Sig::F_FF:
  case Sig::F_FFpI:
    return 2;
  case Sig::F_FFF:
    return 3;
  case Sig::F_N:
    return 0;
  default:
    return 1;
  }
}

struct Range {
  double lo, hi;
};

struct FuncInfo {
  std::string name;
  Sig sig;
  std::vector<Range> ranges;        // uniform samples of the first argument
  std::vector<Range> ranges64 = {}; // double, when different
  std::vector<double> critical = {};
  std::vector<Range> ranges2 = {}; // second argument (default: ranges)
  Range n32 = {-8, 8};             // integer argument
  Range n64 = {-8, 8};
};

const double kPi = 3.14159265358979323846;

std::vector<double> piMultiples() {
  std::vector<double> v;
  for (int k = 1; k <= 16; ++k)
    v.push_back(k * kPi / 2);
  for (double k : {101.0, 1000.0, 12345.0, 1e5 + 1, 1048576.0, 3.0e7})
    v.push_back(k * kPi / 2);
  // The arguments closest to a multiple of pi/2 (hardest for the argument
  // reduction) in float, 16367173 * 2^72, and double, 6381956970095103 *
  // 2^797 (J.-M. Muller, "Elementary Functions", table 11.1).
  v.push_back(std::ldexp(16367173.0, 72));
  v.push_back(std::ldexp(6381956970095103.0, 797));
  return v;
}

const std::vector<FuncInfo> &fullFunctions() {
  static const std::vector<FuncInfo> list = [] {
    const std::vector<double> pis = piMultiples();
    const std::vector<double> halves = {
        0.25,         0.5,    0.75,       1,      1.25,   1.5,          2,      2.5,        3,      7.5,
        0x1p22 + 0.5, 0x1p23, 0x1p23 + 1, 0x1p24, 0x1p25, 0x1p51 + 0.5, 0x1p52, 0x1p52 + 1, 0x1p53, 0x1p54};
    // Overflow and underflow (normal, subnormal) thresholds of exp for float and double.
    const std::vector<double> expT = {88.7228394,
                                      88.72283935546875,
                                      -87.3365448,
                                      -103.972076,
                                      -103.278929,
                                      709.782712893384,
                                      -708.3964185322641,
                                      -745.1332191019411,
                                      -744.4400719213812,
                                      1e-5,
                                      0.5,
                                      -0.5,
                                      1,
                                      20};
    const std::vector<double> logT = {1, 2, 0.5, 2.718281828459045, 10, 0.1, 1e-5, 4, 1.0000001, 0.9999999};
    const std::vector<double> roundT = {0.5,          1.5,    2.5,        -0.5,         -1.5,   -2.5,      0.49999997,
                                        0x1p23 - 0.5, 0x1p23, 0x1p23 + 1, 0x1p52 - 0.5, 0x1p52, 0x1p52 + 1};
    const std::vector<double> gammaT = {1,        2,        3,       0.5,    -0.5,     -1,  -2,    -2.5,
                                        -100.5,   35.04,    35.0401, 171.62, 171.6243, 2.5, 1e-30, -1e-30,
                                        -0.99999, -1.00001, 4.5,     10,     100,      1e6};
    std::vector<FuncInfo> l = {
        {"acos", Sig::F_F, {{-1, 1}}, {}, {1, -1, 0.5, -0.5, 0.9999, 1e-10}},
        {"acosh", Sig::F_F, {{1, 10}, {1, 1e6}}, {}, {1, 1.0001, 2, 10, 1e20}},
        {"acospi", Sig::F_F, {{-1, 1}}, {}, {1, -1, 0.5, -0.5}},
        {"asin", Sig::F_F, {{-1, 1}}, {}, {1, -1, 0.5, -0.5, 1e-10}},
        {"asinh", Sig::F_F, {{-10, 10}, {-1e6, 1e6}}, {}, {1, 0.5, 1e-10, 1e20}},
        {"asinpi", Sig::F_F, {{-1, 1}}, {}, {1, -1, 0.5, -0.5}},
        {"atan", Sig::F_F, {{-10, 10}, {-1e6, 1e6}}, {}, {1, -1, 1e10, 1e-10, 0.4375, 2.4375}},
        {"atan2", Sig::F_FF, {{-10, 10}}, {}, {1, -1, 0.5, 2}},
        {"atanh", Sig::F_F, {{-1, 1}}, {}, {1, -1, 0.5, -0.5, 0.9999, 1e-10}},
        {"atanpi", Sig::F_F, {{-10, 10}, {-1e6, 1e6}}, {}, {1, -1, 1e10}},
        {"atan2pi", Sig::F_FF, {{-10, 10}}, {}, {1, -1, 0.5, 2}},
        {"cbrt", Sig::F_F, {{-100, 100}}, {}, {8, 27, -8, 1e-30, 0.125}},
        {"ceil", Sig::F_F, {{-10, 10}, {-1e7, 1e7}}, {}, roundT},
        {"copysign", Sig::F_FF, {{-10, 10}}},
        {"cos", Sig::F_F, {{-10, 10}, {-1e4, 1e4}}, {}, pis},
        {"cosh",
         Sig::F_F,
         {{-10, 10}, {-90, 90}},
         {{-10, 10}, {-711, 711}},
         {89.41598629223294, 89.4159851, 710.4758600739439, 710.4758, 1e-5}},
        {"cospi", Sig::F_F, {{-4, 4}, {-1e5, 1e5}}, {}, halves},
        {"erfc", Sig::F_F, {{-6, 12}}, {{-6, 28}}, {0.5, 1, 2, 3.9, 4, 6, 10.0546, 26.54, 27.2, -1}},
        {"erf", Sig::F_F, {{-6, 6}}, {}, {0.5, 1, 2, 3.9, 4, 6, 1e-10, -1}},
        {"exp", Sig::F_F, {{-104, 89}, {-1, 1}}, {{-746, 710}, {-1, 1}}, expT},
        {"exp2",
         Sig::F_F,
         {{-150, 129}, {-1, 1}},
         {{-1075, 1025}, {-1, 1}},
         {127, 128, -126, -149, -150, 1023, 1024, -1022, -1074, -1075, 0.5}},
        {"exp10",
         Sig::F_F,
         {{-46, 39}, {-1, 1}},
         {{-324, 309}, {-1, 1}},
         {38.5318394191, -37.929779, -44.8534, -45.1, 308.2547155599, -307.65, -323.306, -323.6, 1, 2, 3}},
        {"expm1", Sig::F_F, {{-20, 89}, {-1, 1}}, {{-40, 710}, {-1, 1}}, expT},
        {"fabs", Sig::F_F, {{-10, 10}}},
        {"fdim", Sig::F_FF, {{-10, 10}}},
        {"floor", Sig::F_F, {{-10, 10}, {-1e7, 1e7}}, {}, roundT},
        {"fma", Sig::F_FFF, {{-10, 10}}},
        {"fmax", Sig::F_FF, {{-10, 10}}},
        {"fmin", Sig::F_FF, {{-10, 10}}},
        {"fmod", Sig::F_FF, {{-100, 100}, {-1e10, 1e10}}, {}, {3, 5, 0.75, 0x1p20, 1e-40}, {{-10, 10}}},
        {"fract", Sig::F_FpF, {{-10, 10}, {-1e7, 1e7}}, {}, {-1e-30, -0.5, 0.5, -1e-8, -1e-17}},
        {"frexp", Sig::F_FpI, {{-1e6, 1e6}}},
        {"hypot", Sig::F_FF, {{-1e3, 1e3}}, {}, {3, 4, 1e19, 1e-20, 1e154, 1e-160}},
        {"ilogb", Sig::I_F, {{-1e6, 1e6}}},
        {"ldexp", Sig::F_FI, {{-10, 10}}, {}, {}, {}, {-300, 300}, {-2200, 2200}},
        {"lgamma", Sig::F_F, {{-10, 10}, {0, 1e4}}, {}, gammaT},
        {"lgamma_r", Sig::F_FpI, {{-10, 10}, {0, 1e4}}, {}, gammaT},
        {"log", Sig::F_F, {{0, 10}, {0, 1e10}, {0.9, 1.1}}, {}, logT},
        {"log2", Sig::F_F, {{0, 10}, {0, 1e10}, {0.9, 1.1}}, {}, logT},
        {"log10", Sig::F_F, {{0, 10}, {0, 1e10}, {0.9, 1.1}}, {}, logT},
        {"log1p", Sig::F_F, {{-1, 1}, {-1, 100}}, {}, {-1, -0.5, 1e-5, 1.718281828459045, -0.9999}},
        {"logb", Sig::F_F, {{-1e6, 1e6}}},
        {"mad", Sig::F_FFF, {{-10, 10}}},
        {"maxmag", Sig::F_FF, {{-10, 10}}},
        {"minmag", Sig::F_FF, {{-10, 10}}},
        {"modf", Sig::F_FpF, {{-10, 10}, {-1e7, 1e7}}, {}, roundT},
        {"nan", Sig::F_N, {}},
        {"nextafter", Sig::F_FF, {{-10, 10}}},
        {"pow", Sig::F_FF, {{-10, 10}}, {}, {-1, 0.5, 2, 3, 0x1p24 + 1, 0x1p53 + 1, 1e30, 10}, {{-20, 20}}},
        {"pown", Sig::F_FI, {{-10, 10}}, {}, {-1, 0.5, 2, 3, 10}, {}, {-40, 40}, {-40, 40}},
        {"powr", Sig::F_FF, {{0, 10}}, {}, {0.5, 2, 3, 10}, {{-20, 20}}},
        {"remainder", Sig::F_FF, {{-100, 100}, {-1e10, 1e10}}, {}, {3, 5, 0.75, 0x1p20, 1e-40}, {{-10, 10}}},
        {"remquo", Sig::F_FFpI, {{-100, 100}, {-1e10, 1e10}}, {}, {3, 5, 0.75, 0x1p20, 1e-40}, {{-10, 10}}},
        {"rint", Sig::F_F, {{-10, 10}, {-1e7, 1e7}}, {}, roundT},
        {"rootn", Sig::F_FI, {{-100, 100}}, {}, {8, 27, -8, -27, 0.125, 1e-30}, {}, {-12, 12}, {-12, 12}},
        {"round", Sig::F_F, {{-10, 10}, {-1e7, 1e7}}, {}, roundT},
        {"rsqrt", Sig::F_F, {{0, 100}}, {}, {4, 0.25, 2, 1e-40}},
        {"sin", Sig::F_F, {{-10, 10}, {-1e4, 1e4}}, {}, pis},
        {"sincos", Sig::F_FpF, {{-10, 10}, {-1e4, 1e4}}, {}, pis},
        {"sinh",
         Sig::F_F,
         {{-10, 10}, {-90, 90}},
         {{-10, 10}, {-711, 711}},
         {89.41598629223294, 89.4159851, 710.4758600739439, 710.4758, 1e-5}},
        {"sinpi", Sig::F_F, {{-4, 4}, {-1e5, 1e5}}, {}, halves},
        {"sqrt", Sig::F_F, {{0, 100}}, {}, {4, 0.25, 2, 1e-40}},
        {"tan", Sig::F_F, {{-10, 10}, {-1e4, 1e4}}, {}, pis},
        {"tanh", Sig::F_F, {{-20, 20}}, {}, {9.01, 19.06, 0.55, 1e-5, 0.625}},
        {"tanpi", Sig::F_F, {{-4, 4}, {-1e5, 1e5}}, {}, halves},
        {"tgamma", Sig::F_F, {{-40, 36}}, {{-180, 172}}, gammaT},
        {"trunc", Sig::F_F, {{-10, 10}, {-1e7, 1e7}}, {}, roundT},
    };
    return l;
  }();
  return list;
}

// half_* and native_*: benign domains, float only.
const std::vector<FuncInfo> &halfNativeFunctions() {
  static const std::vector<FuncInfo> list = {
      {"cos", Sig::F_F, {{-3, 3}}},
      {"divide", Sig::F_FF, {{-100, 100}}, {}, {}, {{0.5, 100}}},
      {"exp", Sig::F_F, {{-10, 10}}},
      {"exp2", Sig::F_F, {{-20, 20}}},
      {"exp10", Sig::F_F, {{-6, 6}}},
      {"log", Sig::F_F, {{0.01, 1000}}},
      {"log2", Sig::F_F, {{0.01, 1000}}},
      {"log10", Sig::F_F, {{0.01, 1000}}},
      {"powr", Sig::F_FF, {{0.1, 10}}, {}, {}, {{-3, 3}}},
      {"recip", Sig::F_F, {{0.01, 100}}},
      {"rsqrt", Sig::F_F, {{0.01, 100}}},
      {"sin", Sig::F_F, {{-3, 3}}},
      {"sqrt", Sig::F_F, {{0, 1000}}},
      {"tan", Sig::F_F, {{-1.2, 1.2}}},
  };
  return list;
}

const FuncInfo *findFull(std::string_view name) {
  for (const FuncInfo &f : fullFunctions())
    if (f.name == name)
      return &f;
  return nullptr;
}

// ---- Inputs ------------------------------------------------------------------

// splitmix64: deterministic, seeded per function and type.
class Rng {
public:
  explicit Rng(std::string_view seed) {
    for (char c : seed)
      state_ = (state_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  }
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }
  double in(Range r) { return r.lo + (r.hi - r.lo) * uniform(); }

private:
  uint64_t state_ = 0xcbf29ce484222325ull;
};

struct Inputs {
  std::vector<double> a, b, c;
  std::vector<long long> n;
  void add(double x, double y = 0, double z = 0, long long k = 0) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
    n.push_back(k);
  }
  size_t size() const { return a.size(); }
};

double nextUp(Format fmt, double x, int steps) {
  for (int i = 0; i < std::abs(steps); ++i)
    x = fmt == Format::F32
            ? static_cast<double>(std::nextafter(static_cast<float>(x), steps > 0 ? INFINITY : -INFINITY))
            : std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
  return x;
}

double randomBits(Format fmt, Rng &rng) {
  uint64_t bits = rng.next();
  if (fmt == Format::F32) {
    uint32_t b32 = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b32, sizeof f);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// The format's edge cases, both signs, and nan.
std::vector<double> edgeCases(Format fmt, bool reduced) {
  std::vector<double> mags = {
      0, formatDenormMin(fmt), formatMinNormal(fmt), 0.5, 1, 1.5, 2, 3, 1e30, formatMax(fmt), INFINITY};
  if (!reduced) {
    for (double m : {formatMinNormal(fmt) - formatDenormMin(fmt), 10.0, 100.0, 0.1, 1e-30, 1e-300, 1e300})
      mags.push_back(m);
  }
  std::vector<double> v;
  for (double m : mags) {
    m = toFormat(fmt, m);
    if (std::isinf(m) && m != INFINITY)
      continue;
    v.push_back(m);
    v.push_back(-m);
  }
  v.push_back(NAN);
  std::sort(v.begin(), v.end(), [](double x, double y) { return std::isnan(y) ? !std::isnan(x) : x < y; });
  v.erase(std::unique(v.begin(), v.end(), [](double x, double y) { return sameResult(x, y); }), v.end());
  return v;
}

// Function-specific points, both signs, with their neighbours (±1, ±2 ulp).
std::vector<double> criticalPoints(const FuncInfo &f, Format fmt) {
  std::vector<double> v;
  for (double p : f.critical) {
    double x = toFormat(fmt, p);
    if (!std::isfinite(x))
      continue;
    for (double s : {x, -x})
      for (int k = -2; k <= 2; ++k)
        v.push_back(nextUp(fmt, s, k));
  }
  return v;
}

std::vector<long long> intEdgeCases(Range r) {
  std::vector<long long> v = {0,    1,     -1,      2,        -2,      3,       -3,          4,          -4,
                              5,    7,     -7,      8,        127,     -127,    128,         -128,       149,
                              -149, 150,   -150,    1023,     -1023,   1024,    -1024,       1074,       -1074,
                              1075, -1075, 1000000, -1000000, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1};
  for (long long k = static_cast<long long>(r.lo); k <= static_cast<long long>(r.hi) && k - r.lo < 30; ++k)
    v.push_back(k);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

double sample(const std::vector<Range> &ranges, Format fmt, Rng &rng) {
  if (ranges.empty() || rng.next() % 2 == 0)
    return randomBits(fmt, rng);
  return toFormat(fmt, rng.in(ranges[rng.next() % ranges.size()]));
}

Inputs makeInputs(const FuncInfo &f, Format fmt, size_t randomCount) {
  Inputs in;
  Rng rng(f.name + (fmt == Format::F32 ? "/f32" : "/f64"));
  const std::vector<Range> &r1 = fmt == Format::F64 && !f.ranges64.empty() ? f.ranges64 : f.ranges;
  const std::vector<Range> &r2 = f.ranges2.empty() ? r1 : f.ranges2;
  const std::vector<double> crit = criticalPoints(f, fmt);
  switch (f.sig) {
  case Sig::F_F:
  case Sig::I_F:
  case Sig::F_FpF:
  case Sig::F_FpI: {
    for (double x : edgeCases(fmt, false))
      in.add(x);
    for (double x : crit)
      in.add(x);
    for (size_t i = 0; i < randomCount; ++i)
      in.add(sample(r1, fmt, rng));
    break;
  }
  case Sig::F_FF:
  case Sig::F_FFpI: {
    const std::vector<double> edges = edgeCases(fmt, true);
    for (double x : edges)
      for (double y : edges)
        in.add(x, y);
    for (double p : crit)
      for (double e : {1.0, -1.0, 2.0, 0.5, 3.0, 0.0})
        in.add(p, toFormat(fmt, e)), in.add(toFormat(fmt, e), p);
    for (size_t i = 0; i < randomCount; ++i) {
      double x = sample(r1, fmt, rng), y = sample(r2, fmt, rng);
      in.add(x, y);
    }
    if (f.name == "pow") // negative bases need integer exponents
      for (size_t i = 0; i < 256; ++i)
        in.add(toFormat(fmt, rng.in({-10, 10})), static_cast<double>(static_cast<int>(rng.next() % 61) - 30));
    break;
  }
  case Sig::F_FFF: {
    std::vector<double> edges;
    for (double m : {0.0, formatDenormMin(fmt), 1.0, 3.0, formatMax(fmt), double(INFINITY)})
      edges.push_back(m), edges.push_back(-m);
    edges.push_back(NAN);
    for (double x : edges)
      for (double y : edges)
        for (double z : edges)
          in.add(x, y, z);
    for (size_t i = 0; i < randomCount; ++i) {
      double x = sample(r1, fmt, rng), y = sample(r1, fmt, rng), z = sample(r1, fmt, rng);
      in.add(x, y, z);
    }
    // Products that nearly cancel the addend.
    for (size_t i = 0; i < 256; ++i) {
      double x = toFormat(fmt, rng.in({-10, 10})), y = toFormat(fmt, rng.in({-10, 10}));
      in.add(x, y, -toFormat(fmt, x * y));
    }
    break;
  }
  case Sig::F_FI: {
    Range nr = fmt == Format::F32 ? f.n32 : f.n64;
    for (double x : edgeCases(fmt, true))
      for (long long k : intEdgeCases(nr))
        in.add(x, 0, 0, k);
    for (double x : crit)
      for (long long k : {0, 1, -1, 2, -2, 3, -3, 5})
        in.add(x, 0, 0, k);
    for (size_t i = 0; i < randomCount; ++i) {
      double x = sample(r1, fmt, rng);
      long long k = static_cast<long long>(rng.in({nr.lo, nr.hi + 1}));
      in.add(x, 0, 0, std::min<long long>(k, static_cast<long long>(nr.hi)));
    }
    break;
  }
  case Sig::F_N: {
    for (long long k : {0ll, 1ll, 2ll, 0x3fffffll, 0x7fffffll, 0xffffffffll})
      in.add(0, 0, 0, k);
    for (size_t i = 0; i < 64; ++i)
      in.add(0, 0, 0, static_cast<long long>(rng.next() & (fmt == Format::F32 ? 0xffffffffull : 0x7ffffffffffffull)));
    break;
  }
  }
  return in;
}

// ---- Kernels -------------------------------------------------------------------

struct Types {
  std::string t, i, n, r, r2; // float arg, int arg, nan code, result, 2nd result
};

Types typesFor(Sig sig, Format fmt, int width) {
  std::string w = width > 1 ? std::to_string(width) : "";
  std::string t = (fmt == Format::F32 ? "float" : "double") + w;
  Types ty{t, "int" + w, (fmt == Format::F32 ? "uint" : "ulong") + w, t, t};
  if (sig == Sig::I_F)
    ty.r = "int" + w;
  if (sig == Sig::F_FpI || sig == Sig::F_FFpI)
    ty.r2 = "int" + w;
  return ty;
}

std::string kernelText(const std::string &kernelName, const std::string &fn, Sig sig, Format fmt, int width,
                       bool privatePointer) {
  Types ty = typesFor(sig, fmt, width);
  std::ostringstream s;
  s << "__kernel void " << kernelName << "(__global const " << ty.t << " *x, __global const " << ty.t
    << " *y, __global const " << ty.t << " *z, __global const " << (sig == Sig::F_N ? ty.n : ty.i) << " *n, __global "
    << ty.r << " *r, __global " << ty.r2 << " *r2) {\n  size_t i = get_global_id(0);\n  ";
  std::string ptr = privatePointer ? "&t" : "&r2[i]";
  std::string pre = privatePointer ? ty.r2 + " t; " : "";
  std::string post = privatePointer ? " r2[i] = t;" : "";
  switch (sig) {
  case Sig::F_F:
  case Sig::I_F:
    s << "r[i] = " << fn << "(x[i]);";
    break;
  case Sig::F_FF:
    s << "r[i] = " << fn << "(x[i], y[i]);";
    break;
  case Sig::F_FFF:
    s << "r[i] = " << fn << "(x[i], y[i], z[i]);";
    break;
  case Sig::F_FI:
    s << "r[i] = " << fn << "(x[i], n[i]);";
    break;
  case Sig::F_N:
    s << "r[i] = " << fn << "(n[i]);";
    break;
  case Sig::F_FpF:
  case Sig::F_FpI:
    s << pre << "r[i] = " << fn << "(x[i], " << ptr << ");" << post;
    break;
  case Sig::F_FFpI:
    s << pre << "r[i] = " << fn << "(x[i], y[i], " << ptr << ");" << post;
    break;
  }
  s << "\n}\n";
  return s.str();
}

// A scalar kernel (pointer results through a private variable) and vector
// kernels (pointer results straight to __global) of `width` and, if not 0,
// `wideWidth` lanes.
std::string programText(const std::string &fn, Sig sig, Format fmt, int width, int wideWidth = 0) {
  std::string text = fmt == Format::F64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  text += kernelText("scalar_k", fn, sig, fmt, 1, true);
  text += kernelText("vector_k", fn, sig, fmt, width, false);
  if (wideWidth)
    text += kernelText("wide_k", fn, sig, fmt, wideWidth, false);
  return text;
}

// ---- Device side ------------------------------------------------------------

struct DeviceOut {
  std::vector<double> r, r2;      // float results (as doubles)
  std::vector<long long> ir, ir2; // integer results
};

// One context and queue per device for the whole suite.
struct Shared {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};
std::mutex sharedMutex;
std::map<cl_device_id, Shared> &sharedMap() {
  static std::map<cl_device_id, Shared> m;
  return m;
}

// ---- Worst-error table -------------------------------------------------------

struct Row {
  Row(std::string m, std::string n, std::string t, std::string b)
      : mode(std::move(m)), name(std::move(n)), type(std::move(t)), bound(std::move(b)) {}
  std::string mode, name, type, bound, worstAt;
  double worst = 0;
  size_t failures = 0, count = 0;
  bool buildFailed = false;
};
std::vector<Row> &rows() {
  static std::vector<Row> r;
  return r;
}

std::string hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

std::string boundText(double b) {
  if (std::isinf(b))
    return "none";
  std::ostringstream s;
  s << b;
  return s.str();
}

class MathTableEnvironment : public testing::Environment {
public:
  void TearDown() override {
    if (!rows().empty()) {
      std::printf("\n[ MATH ULP ] worst error per function and type (ulp unless marked abs)\n");
      std::printf("[ MATH ULP ] %-8s %-16s %-7s %12s %10s %14s  %s\n", "mode", "function", "type", "worst", "bound",
                  "fail/inputs", "worst at");
      for (const Row &r : rows()) {
        char worst[32];
        if (r.buildFailed)
          std::snprintf(worst, sizeof worst, "no build");
        else
          std::snprintf(worst, sizeof worst, "%.4g", r.worst);
        std::printf("[ MATH ULP ] %-8s %-16s %-7s %12s %10s %7zu/%-6zu  %s\n", r.mode.c_str(), r.name.c_str(),
                    r.type.c_str(), worst, r.bound.c_str(), r.failures, r.count, r.worstAt.c_str());
      }
      std::fflush(stdout);
    }
    std::lock_guard<std::mutex> lock(sharedMutex);
    for (auto &[device, shared] : sharedMap()) {
      if (shared.queue)
        clReleaseCommandQueue(shared.queue);
      if (shared.context)
        clReleaseContext(shared.context);
    }
    sharedMap().clear();
  }
};
[[maybe_unused]] testing::Environment *const mathTableEnvironment =
    testing::AddGlobalTestEnvironment(new MathTableEnvironment);

// ---- Fixture -------------------------------------------------------------------

enum class Mode { Full, Relaxed, Half, Native };

struct Case {
  const FuncInfo *f;
  Format fmt;
  Mode mode;
};

std::string caseName(const Case &c) {
  std::string prefix = c.mode == Mode::Half ? "half_" : c.mode == Mode::Native ? "native_" : "";
  return prefix + c.f->name + (c.fmt == Format::F32 ? "_float" : "_double");
}
void PrintTo(const Case &c, std::ostream *os) { *os << caseName(c); }

class MathAccuracyTest : public testing::TestWithParam<std::tuple<cl_device_id, Case>> {
protected:
  cl_device_id device() const { return std::get<0>(GetParam()); }
  const Case &param() const { return std::get<1>(GetParam()); }
  Format fmt() const { return param().fmt; }
  size_t typeSize() const { return fmt() == Format::F32 ? 4 : 8; }

  void SetUp() override {
    std::lock_guard<std::mutex> lock(sharedMutex);
    Shared &s = sharedMap()[device()];
    if (!s.context) {
      cl_int err = CL_SUCCESS;
      cl_device_id dev = device();
      s.context = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
      ASSERT_CL(err);
      s.queue = clCreateCommandQueueWithProperties(s.context, dev, nullptr, &err);
      ASSERT_CL(err);
    }
    context_ = s.context;
    queue_ = s.queue;
    if (fmt() == Format::F64 && deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) == 0)
      GTEST_SKIP() << "the device has no double precision";
  }

  // Builds `text`; on failure records a failure with the log.
  Program build(const std::string &text, const char *options) {
    const char *src = text.c_str();
    size_t length = text.size();
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &src, &length, &err));
    EXPECT_CL(err);
    if (err != CL_SUCCESS)
      return {};
    cl_device_id dev = device();
    err = clBuildProgram(program, 1, &dev, options, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      std::string log = programBuildLog(program, dev);
      if (log.size() > 3000)
        log = log.substr(0, 3000) + "\n[...]";
      ADD_FAILURE() << "clBuildProgram(\"" << options << "\"): " << errorName(err) << "\n" << log;
      return {};
    }
    return program;
  }

  Mem makeBuffer(size_t bytes, const void *data) {
    cl_int err = CL_SUCCESS;
    Mem m(clCreateBuffer(context_, data ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                         std::max<size_t>(bytes, 16), const_cast<void *>(data), &err));
    EXPECT_CL(err);
    return m;
  }

  std::vector<unsigned char> packFloats(const std::vector<double> &v) const {
    std::vector<unsigned char> bytes(v.size() * typeSize());
    for (size_t i = 0; i < v.size(); ++i) {
      if (fmt() == Format::F32) {
        float f = static_cast<float>(v[i]);
        std::memcpy(&bytes[i * 4], &f, 4);
      } else {
        std::memcpy(&bytes[i * 8], &v[i], 8);
      }
    }
    return bytes;
  }

  // Runs `kernelName` over `in` (padded to a multiple of `width`).
  bool run(cl_program program, const char *kernelName, const Inputs &in, Sig sig, int width, DeviceOut &out) {
    const size_t count = in.size();
    cl_int err = CL_SUCCESS;
    Kernel k(clCreateKernel(program, kernelName, &err));
    EXPECT_CL(err) << kernelName;
    if (err != CL_SUCCESS)
      return false;
    auto a = packFloats(in.a), b = packFloats(in.b), c = packFloats(in.c);
    const bool nanCode = sig == Sig::F_N;
    const size_t nSize = nanCode ? typeSize() : 4;
    std::vector<unsigned char> nBytes(count * nSize);
    for (size_t i = 0; i < count; ++i) {
      if (nSize == 8) {
        uint64_t v = static_cast<uint64_t>(in.n[i]);
        std::memcpy(&nBytes[i * 8], &v, 8);
      } else {
        uint32_t v = static_cast<uint32_t>(in.n[i]);
        std::memcpy(&nBytes[i * 4], &v, 4);
      }
    }
    const size_t rSize = sig == Sig::I_F ? 4 : typeSize();
    const size_t r2Size = sig == Sig::F_FpI || sig == Sig::F_FFpI ? 4 : typeSize();
    Mem ma = makeBuffer(a.size(), a.data()), mb = makeBuffer(b.size(), b.data()), mc = makeBuffer(c.size(), c.data()),
        mn = makeBuffer(nBytes.size(), nBytes.data()), mr = makeBuffer(count * rSize, nullptr),
        mr2 = makeBuffer(count * r2Size, nullptr);
    cl_mem args[] = {ma, mb, mc, mn, mr, mr2};
    for (cl_uint i = 0; i < 6; ++i)
      EXPECT_CL(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    size_t global = count / width;
    EXPECT_CL(err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    if (err != CL_SUCCESS)
      return false;
    std::vector<unsigned char> r(count * rSize), r2(count * r2Size);
    EXPECT_CL(clEnqueueReadBuffer(queue_, mr, CL_TRUE, 0, r.size(), r.data(), 0, nullptr, nullptr));
    EXPECT_CL(clEnqueueReadBuffer(queue_, mr2, CL_TRUE, 0, r2.size(), r2.data(), 0, nullptr, nullptr));
    auto unpack = [&](const std::vector<unsigned char> &bytes, size_t size, std::vector<double> &f,
                      std::vector<long long> &iv) {
      f.assign(count, 0);
      iv.assign(count, 0);
      for (size_t i = 0; i < count; ++i) {
        if (size == 4) {
          float fv;
          int32_t v;
          std::memcpy(&fv, &bytes[i * 4], 4);
          std::memcpy(&v, &bytes[i * 4], 4);
          f[i] = fv;
          iv[i] = v;
        } else {
          std::memcpy(&f[i], &bytes[i * 8], 8);
        }
      }
    };
    unpack(r, rSize, out.r, out.ir);
    unpack(r2, r2Size, out.r2, out.ir2);
    return true;
  }

  // Bitwise agreement of two runs (any nan matches any nan).
  void expectSame(const DeviceOut &ref, const DeviceOut &other, const Inputs &in, Sig sig, const char *what) {
    size_t reported = 0;
    for (size_t i = 0; i < in.size() && reported < 5; ++i) {
      bool same = sig == Sig::I_F ? ref.ir[i] == other.ir[i] : sameResult(ref.r[i], other.r[i]);
      if (sig == Sig::F_FpF)
        same = same && sameResult(ref.r2[i], other.r2[i]);
      if (sig == Sig::F_FpI || sig == Sig::F_FFpI)
        same = same && ref.ir2[i] == other.ir2[i];
      if (!same) {
        ++reported;
        ADD_FAILURE() << caseName(param()) << ": " << what << " differs from the scalar result at " << describe(in, i)
                      << ": scalar " << outputs(ref, sig, i) << ", other " << outputs(other, sig, i);
      }
    }
  }

  // The results of input i, as text.
  static std::string outputs(const DeviceOut &out, Sig sig, size_t i) {
    std::string s = sig == Sig::I_F ? std::to_string(out.ir[i]) : hex(out.r[i]);
    if (sig == Sig::F_FpF)
      s += " / " + hex(out.r2[i]);
    if (sig == Sig::F_FpI || sig == Sig::F_FFpI)
      s += " / " + std::to_string(out.ir2[i]);
    return s;
  }

  std::string describe(const Inputs &in, size_t i) const {
    const Sig sig = param().f->sig;
    std::string s = "(";
    if (sig == Sig::F_N)
      return "(" + std::to_string(in.n[i]) + ")";
    s += hex(in.a[i]);
    if (floatArgs(sig) >= 2)
      s += ", " + hex(in.b[i]);
    if (floatArgs(sig) >= 3)
      s += ", " + hex(in.c[i]);
    if (sig == Sig::F_FI)
      s += ", " + std::to_string(in.n[i]);
    return s + ")";
  }

  Reference reference(const Inputs &in, size_t i, std::string_view name) const {
    return evaluate(name, fmt(), in.a[i], in.b[i], in.c[i], in.n[i]);
  }

  void record(Row row) { rows().push_back(std::move(row)); }

  void checkFullProfile();
  void checkRelaxed();
  void checkHalfNative();

  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

// Pads to a multiple of the vector width (repeating the first input).
void pad(Inputs &in, int width) {
  while (in.size() % width)
    in.add(in.a[0], in.b[0], in.c[0], in.n[0]);
}

bool isSubnormal(Format fmt, double x) { return x != 0 && std::isfinite(x) && std::fabs(x) < formatMinNormal(fmt); }

void MathAccuracyTest::checkFullProfile() {
  const FuncInfo &f = *param().f;
  const bool isDouble = fmt() == Format::F64;
  const double bound = fullProfileBound(f.name, isDouble);
  ASSERT_GE(bound, 0) << "no bound in math_ulp_table.h for " << f.name;
  const int width = isDouble ? 2 : 4, wideWidth = isDouble ? 8 : 16;
  Row row{"full", f.name, isDouble ? "double" : "float", boundText(bound)};
  Inputs in = makeInputs(f, fmt(), kRandomSamples);
  pad(in, wideWidth);
  row.count = in.size();

  Program program = build(programText(f.name, f.sig, fmt(), width, wideWidth), "");
  if (!program) {
    row.buildFailed = true;
    record(row);
    return;
  }
  DeviceOut scalar, vector, wide;
  ASSERT_TRUE(run(program, "scalar_k", in, f.sig, 1, scalar));
  ASSERT_TRUE(run(program, "vector_k", in, f.sig, width, vector));
  ASSERT_TRUE(run(program, "wide_k", in, f.sig, wideWidth, wide));
  expectSame(scalar, vector, in, f.sig, isDouble ? "double2" : "float4");
  expectSame(scalar, wide, in, f.sig, isDouble ? "double8" : "float16");
  if (hasPointer(f.sig)) {
    // -cl-std=CL3.0 calls the __generic overloads.
    Program generic = build(programText(f.name, f.sig, fmt(), width), "-cl-std=CL3.0");
    DeviceOut g;
    if (generic && run(generic, "scalar_k", in, f.sig, 1, g))
      expectSame(scalar, g, in, f.sig, "the -cl-std=CL3.0 (__generic) result");
  }

  size_t reported = 0;
  auto fail = [&](size_t i, const std::string &what) {
    ++row.failures;
    if (reported++ < 10)
      ADD_FAILURE() << f.name << "(" << row.type << ") " << describe(in, i) << ": " << what;
  };
  const bool undefinedBound = std::isinf(bound);
  // Without denormal support (CL_FP_DENORM), 7.5.3 "Edge Case Behavior in
  // Flush To Zero Mode" allows a subnormal operand to be read as a zero and
  // a subnormal result to be flushed, with either sign of zero.
  const bool ftz = !isDouble && flushesFloatDenormals(device());
  auto judge = [&](const Reference &ref, double test, const RefValue &rv, bool zeroSignFree, UlpResult &u) {
    u = ulpError(test, rv, fmt(), zeroSignFree);
    if (ref.alternative) {
      UlpResult u2 = ulpError(test, ref.value2, fmt(), zeroSignFree);
      if (u2.correctlyRounded)
        u = u2;
    }
    // Without a ULP bound (lgamma) the C99 Annex F values still hold:
    // lgamma(1) and lgamma(2) are +0.
    if (undefinedBound && rv.kind == RefValue::Zero && test != 0)
      u.special = true;
    return u.correctlyRounded || (!u.special && !undefinedBound && bound > 0 && u.ulps <= bound) ||
           (undefinedBound && !u.special);
  };
  auto subnormalExact = [&](const RefValue &rv) {
    return rv.kind == RefValue::Finite && std::fabs(std::ldexp(rv.hi, rv.exp)) < formatMinNormal(fmt());
  };
  for (size_t i = 0; i < in.size(); ++i) {
    Reference ref = reference(in, i, f.name);
    std::optional<Reference> flushed;
    if (ftz && (isSubnormal(fmt(), in.a[i]) || isSubnormal(fmt(), in.b[i]) || isSubnormal(fmt(), in.c[i]))) {
      auto flush = [&](double x) { return isSubnormal(fmt(), x) ? std::copysign(0.0, x) : x; };
      flushed = evaluate(f.name, fmt(), flush(in.a[i]), flush(in.b[i]), flush(in.c[i]), in.n[i]);
    }
    // Floating-point results: which = 0 for the returned value, 1 for the second.
    auto checkValue = [&](double test, int which, const char *label, bool zeroSignFree) {
      const RefValue &rv = which == 0 ? ref.value : ref.value2;
      UlpResult u;
      bool pass = judge(ref, test, rv, zeroSignFree, u);
      if (!pass && ftz) {
        UlpResult uf;
        if (test == 0 && subnormalExact(rv))
          pass = true;
        else if (flushed) {
          const RefValue &fv = which == 0 ? flushed->value : flushed->value2;
          pass = judge(*flushed, test, fv, true, uf) || (test == 0 && subnormalExact(fv));
        }
      }
      if (!u.special && std::isfinite(u.ulps) && u.ulps > row.worst) {
        row.worst = u.ulps;
        row.worstAt = describe(in, i);
      }
      if (!pass) {
        std::ostringstream s;
        s << label << hex(test) << ", expected " << hex(rv.cr);
        if (ref.alternative)
          s << " (fused) or " << hex(ref.value2.cr) << " (multiply, add)";
        if (u.special)
          s << " [special value mismatch]";
        else
          s << " [" << u.ulps << " ulp > " << bound << "]";
        fail(i, s.str());
      }
    };
    if (f.sig != Sig::I_F)
      checkValue(scalar.r[i], 0, "got ", ref.zeroSignFree);
    if (ref.hasValue2 && !ref.alternative)
      checkValue(scalar.r2[i], 1, f.name == "sincos" ? "cos: got " : "*iptr: got ", false);
    // Integer results.
    long long got = f.sig == Sig::I_F ? scalar.ir[i] : scalar.ir2[i];
    switch (ref.intCheck) {
    case IntCheck::None:
      break;
    case IntCheck::Exact:
      if (got != ref.intValue)
        fail(i, "integer result " + std::to_string(got) + ", expected " + std::to_string(ref.intValue));
      break;
    case IntCheck::Sign:
      if (got != ref.intValue)
        fail(i, "sign " + std::to_string(got) + ", expected " + std::to_string(ref.intValue));
      break;
    case IntCheck::QuoLow7: {
      // The sign of x/y and |quotient| modulo 128 (a zero has no sign).
      long long want = ref.intValue;
      bool signOk = got == 0 || (got < 0) == (std::signbit(in.a[i]) != std::signbit(in.b[i]));
      if (!signOk || (std::llabs(got) % 128) != (std::llabs(want) % 128))
        fail(i, "quo " + std::to_string(got) + ", expected " + std::to_string(want) + " (low 7 bits and sign)");
      break;
    }
    }
  }
  std::printf("[ MATH ULP ] %s %s: worst %.3g ulp (bound %s) at %s, %zu/%zu failing\n", f.name.c_str(),
              row.type.c_str(), row.worst, row.bound.c_str(), row.worstAt.c_str(), row.failures, row.count);
  record(row);
}

// -cl-fast-relaxed-math -cl-denorms-are-zero, float.
void MathAccuracyTest::checkRelaxed() {
  const FuncInfo &f = *param().f;
  const RelaxedBound *rb = nullptr;
  for (const RelaxedBound &b : kRelaxedBounds)
    if (b.name == f.name)
      rb = &b;
  ASSERT_NE(rb, nullptr);
  const int width = 4;
  std::string bound = (rb->kind == RelaxedKind::AbsInPi || rb->kind == RelaxedKind::AbsInOne ? "abs " : "") +
                      boundText(rb->value) + (rb->kind == RelaxedKind::ExpUlp ? "+|2x|" : "");
  if (rb->kind == RelaxedKind::LogMixed)
    bound = "3/abs2^-21";
  Row row{"relaxed", f.name, "float", bound};
  // fast-relaxed-math implies finite math only: finite inputs.
  Inputs all = makeInputs(f, fmt(), kRandomSamples / 2), in;
  for (size_t i = 0; i < all.size(); ++i)
    if (std::isfinite(all.a[i]) && std::isfinite(all.b[i]) && std::isfinite(all.c[i]))
      in.add(all.a[i], all.b[i], all.c[i], all.n[i]);
  pad(in, width);
  row.count = in.size();
  Program program = build(programText(f.name, f.sig, fmt(), width), "-cl-fast-relaxed-math -cl-denorms-are-zero");
  if (!program) {
    row.buildFailed = true;
    record(row);
    return;
  }
  DeviceOut scalar, vector;
  ASSERT_TRUE(run(program, "scalar_k", in, f.sig, 1, scalar));
  ASSERT_TRUE(run(program, "vector_k", in, f.sig, width, vector));

  size_t reported = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    // With denormals-are-zero a subnormal argument may be read as zero.
    std::vector<std::array<double, 3>> variants = {{in.a[i], in.b[i], in.c[i]}};
    auto flush = [&](double x) { return isSubnormal(fmt(), x) ? std::copysign(0.0, x) : x; };
    std::array<double, 3> flushed = {flush(in.a[i]), flush(in.b[i]), flush(in.c[i])};
    if (flushed != variants[0])
      variants.push_back(flushed);
    std::vector<Reference> refs;
    for (const auto &v : variants)
      refs.push_back(evaluate(f.name, fmt(), v[0], v[1], v[2], in.n[i]));
    if (!std::isfinite(refs[0].value.cr))
      continue; // finite math only (an overflowing result included)
    const double x = in.a[i];
    for (const DeviceOut *out : {&scalar, &vector}) {
      for (int which = 0; which < (refs[0].hasValue2 ? 2 : 1); ++which) {
        const double test = which == 0 ? out->r[i] : out->r2[i];
        double err = INFINITY; // in the bound's unit
        bool checked = true;
        for (const Reference &ref : refs) {
          const RefValue &rv = which == 0 ? ref.value : ref.value2;
          if (!std::isfinite(rv.cr)) {
            err = 0; // finite math only
            continue;
          }
          // A subnormal result may be flushed to zero (sign free: -cl-no-signed-zeros).
          bool flushedOk = test == 0 && (rv.kind == RefValue::Zero || isSubnormal(fmt(), rv.cr) ||
                                         std::fabs(rv.hi * std::ldexp(1.0, rv.exp)) < formatMinNormal(fmt()));
          UlpResult u = ulpError(test, rv, fmt(), /*ignoreZeroSign=*/true);
          const double ulps = u.special ? INFINITY : u.ulps;
          // The error, scaled so that it passes when <= rb->value.
          double e = ulps;
          switch (rb->kind) {
          case RelaxedKind::Ulp:
            if (rb->value == 0)
              e = u.correctlyRounded ? 0 : std::max(ulps, 1.0);
            break;
          case RelaxedKind::ExpUlp:
            e = ulps / (3 + std::floor(std::fabs(2 * x))) * rb->value;
            break;
          case RelaxedKind::AbsInPi:
          case RelaxedKind::AbsInOne:
            // "larger otherwise": outside the domain the spec sets no bound.
            checked = std::fabs(x) <= (rb->kind == RelaxedKind::AbsInPi ? kPi : 1.0);
            e = absError(test, rv);
            break;
          case RelaxedKind::LogMixed:
            if (x >= 0.5 && x <= 2)
              e = absError(test, rv) / 0x1p-21 * rb->value;
            break;
          }
          if (flushedOk)
            e = 0;
          err = std::min(err, e);
        }
        if (!checked)
          continue;
        if (std::isfinite(err) && err > row.worst) {
          row.worst = err;
          row.worstAt = describe(in, i);
        }
        if (!(err <= rb->value)) {
          ++row.failures;
          if (reported++ < 10)
            ADD_FAILURE() << f.name << "(float, relaxed) " << describe(in, i) << (which ? " second result" : "")
                          << (out == &vector ? " [float4]" : "") << ": got " << hex(test) << ", expected "
                          << hex(which ? refs[0].value2.cr : refs[0].value.cr) << " [error " << err << " > "
                          << rb->value << "]";
        }
      }
    }
  }
  std::printf("[ MATH ULP ] relaxed %s float: worst %.3g (bound %s) at %s, %zu/%zu failing\n", f.name.c_str(),
              row.worst, row.bound.c_str(), row.worstAt.c_str(), row.failures, row.count);
  record(row);
}

// half_*: <= 8192 ulp; native_*: finite and within 2^-8 * max(|exact|, 1).
void MathAccuracyTest::checkHalfNative() {
  const FuncInfo &f = *param().f;
  const bool half = param().mode == Mode::Half;
  const std::string fn = (half ? "half_" : "native_") + f.name;
  Row row{half ? "half" : "native", fn, "float", half ? boundText(kHalfUlp) : "2^-8 rel"};
  Inputs in;
  Rng rng(fn);
  const std::vector<Range> &r2 = f.ranges2.empty() ? f.ranges : f.ranges2;
  for (size_t i = 0; i < 256; ++i) {
    double x = toFormat(fmt(), rng.in(f.ranges[0]));
    double y = toFormat(fmt(), rng.in(r2[0]));
    in.add(x, y);
  }
  pad(in, 4);
  row.count = in.size();
  Program program = build(programText(fn, f.sig, fmt(), 4), "");
  if (!program) {
    row.buildFailed = true;
    record(row);
    return;
  }
  DeviceOut scalar, vector;
  ASSERT_TRUE(run(program, "scalar_k", in, f.sig, 1, scalar));
  ASSERT_TRUE(run(program, "vector_k", in, f.sig, 4, vector));
  size_t reported = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    Reference ref = evaluate(f.name, fmt(), in.a[i], in.b[i]);
    for (const DeviceOut *out : {&scalar, &vector}) {
      double test = out->r[i];
      double err;
      bool pass;
      if (half) {
        UlpResult u = ulpError(test, ref.value, fmt());
        err = u.special ? INFINITY : u.ulps;
        pass = std::isfinite(test) && (u.correctlyRounded || err <= kHalfUlp);
      } else {
        double exact = ref.value.kind == RefValue::Finite ? std::ldexp(ref.value.hi, ref.value.exp) : ref.value.cr;
        err = absError(test, ref.value) / std::max(std::fabs(exact), 1.0) / 0x1p-8;
        pass = std::isfinite(test) && err <= 1;
      }
      if (std::isfinite(err) && err > row.worst) {
        row.worst = err;
        row.worstAt = describe(in, i);
      }
      if (!pass) {
        ++row.failures;
        if (reported++ < 10)
          ADD_FAILURE() << fn << describe(in, i) << (out == &vector ? " [float4]" : "") << ": got " << hex(test)
                        << ", expected about " << hex(ref.value.cr);
      }
    }
  }
  std::printf("[ MATH ULP ] %s float: worst %.3f (%s) at %s, %zu/%zu failing\n", fn.c_str(), row.worst,
              half ? "ulp" : "units of 2^-8 relative", row.worstAt.c_str(), row.failures, row.count);
  record(row);
}

// The tables cover the whole OpenCL C 3.0 math function list (6.15.2).
TEST(MathUlpTable, CoversEveryFunction) {
  for (const FuncInfo &f : fullFunctions()) {
    EXPECT_GE(fullProfileBound(f.name, false), 0) << f.name;
    EXPECT_TRUE(hasReference(f.name)) << f.name;
  }
  for (const FuncInfo &f : halfNativeFunctions())
    EXPECT_TRUE(hasReference(f.name)) << f.name;
  EXPECT_EQ(fullFunctions().size(), std::size(kFullProfileBounds));
}

class MathFullProfile : public MathAccuracyTest {};
class MathFastRelaxed : public MathAccuracyTest {};
class MathHalfNative : public MathAccuracyTest {};

TEST_P(MathFullProfile, WithinUlpBound) { checkFullProfile(); }
TEST_P(MathFastRelaxed, WithinRelaxedBound) { checkRelaxed(); }
TEST_P(MathHalfNative, FinitePlausible) { checkHalfNative(); }

std::vector<Case> fullCases() {
  std::vector<Case> v;
  for (const FuncInfo &f : fullFunctions())
    for (Format fmt : {Format::F32, Format::F64})
      v.push_back({&f, fmt, Mode::Full});
  return v;
}
std::vector<Case> relaxedCases() {
  std::vector<Case> v;
  for (const RelaxedBound &b : kRelaxedBounds)
    if (const FuncInfo *f = findFull(b.name))
      v.push_back({f, Format::F32, Mode::Relaxed});
  return v;
}
std::vector<Case> halfNativeCases() {
  std::vector<Case> v;
  for (Mode m : {Mode::Half, Mode::Native})
    for (const FuncInfo &f : halfNativeFunctions())
      v.push_back({&f, Format::F32, m});
  return v;
}

std::string paramName(const testing::TestParamInfo<std::tuple<cl_device_id, Case>> &info) {
  testing::TestParamInfo<cl_device_id> deviceInfo(std::get<0>(info.param), 0);
  std::string device = deviceParamName(deviceInfo);
  // Device index from the list under test keeps names unique across devices.
  const auto &devices = devicesUnderTest();
  size_t index = std::find(devices.begin(), devices.end(), std::get<0>(info.param)) - devices.begin();
  device = "dev" + std::to_string(index) + device.substr(device.find('_'));
  return device + "_" + caseName(std::get<1>(info.param));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MathFullProfile);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MathFastRelaxed);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MathHalfNative);

INSTANTIATE_TEST_SUITE_P(Math, MathFullProfile,
                         testing::Combine(testing::ValuesIn(devicesUnderTest()), testing::ValuesIn(fullCases())),
                         paramName);
INSTANTIATE_TEST_SUITE_P(Math, MathFastRelaxed,
                         testing::Combine(testing::ValuesIn(devicesUnderTest()), testing::ValuesIn(relaxedCases())),
                         paramName);
INSTANTIATE_TEST_SUITE_P(Math, MathHalfNative,
                         testing::Combine(testing::ValuesIn(devicesUnderTest()), testing::ValuesIn(halfNativeCases())),
                         paramName);

} // namespace
