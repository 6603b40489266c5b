// Trigonometric builtins (OpenCL C 3.0 6.15.2): sin, cos, tan, sincos, sinpi,
// cospi, tanpi, asin, acos, atan, atan2, asinpi, acospi, atanpi, atan2pi for
// float and double.
//  - Accuracy: a few thousand inputs per function (random, huge arguments up
//    to DBL_MAX, the doubles nearest multiples of pi/2, half-integers for the
//    *pi variants, the ends of the asin/acos domain, subnormals) against MPFR
//    at 128 bits, the error in ulps of the exact value's binade, bounded by
//    the spec's table (OpenCL C 7.4). The worst error per function is printed.
//  - Special values (signed zeros, infinities, nan, the exact results of the
//    *pi variants, the atan2 quadrant table of C99 Annex F) bit for bit.
//  - Vector widths and sincos's pointer in every address space, lane by lane
//    against the scalar results.
// A device without CL_FP_DENORM may flush float denormals (denormal_flush.h):
// a result also passes against the function of the flushed operands, and a
// denormal result may be a zero.
#include "cl_test.h"
#include "denormal_flush.h"

#include <mpfr.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace cltest;

namespace {

using MpUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

enum class Domain { Trig, TrigPi, Inverse, Atan, Atan2 };

struct Function {
  const char *name;
  double maxUlps; // OpenCL C 7.4, full profile (the same for float and double)
  Domain domain;
  MpUnary unary;
  MpBinary binary;
};

const Function kFunctions[] = {
    {"sin", 4, Domain::Trig, mpfr_sin, nullptr},          {"cos", 4, Domain::Trig, mpfr_cos, nullptr},
    {"tan", 5, Domain::Trig, mpfr_tan, nullptr},          {"sinpi", 4, Domain::TrigPi, mpfr_sinpi, nullptr},
    {"cospi", 4, Domain::TrigPi, mpfr_cospi, nullptr},    {"tanpi", 6, Domain::TrigPi, mpfr_tanpi, nullptr},
    {"asin", 4, Domain::Inverse, mpfr_asin, nullptr},     {"acos", 4, Domain::Inverse, mpfr_acos, nullptr},
    {"asinpi", 5, Domain::Inverse, mpfr_asinpi, nullptr}, {"acospi", 5, Domain::Inverse, mpfr_acospi, nullptr},
    {"atan", 5, Domain::Atan, mpfr_atan, nullptr},        {"atanpi", 5, Domain::Atan, mpfr_atanpi, nullptr},
    {"atan2", 6, Domain::Atan2, nullptr, mpfr_atan2},     {"atan2pi", 6, Domain::Atan2, nullptr, mpfr_atan2pi},
};

constexpr const char *kUnary[] = {"sin",  "cos",  "tan",    "sinpi",  "cospi", "tanpi",
                                  "asin", "acos", "asinpi", "acospi", "atan",  "atanpi"};
constexpr const char *kBinary[] = {"atan2", "atan2pi"};

// Scalar kernels F_T for every function, sincos_T, and vec_F_T / vec_sincos_T
// computing 48 elements per work-item at widths 2, 3, 4, 8 and 16 (48 is a
// multiple of each).
std::string kernelSource(const char *type, bool vectors) {
  std::string s = "#define T " + std::string(type) + "\n";
  if (!vectors)
    s += "#define NO_VECTORS\n";
  s += R"(
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VT(W) CAT(T, W)
// FULL: widths 2, 3, 4, 8, 16 in slots 0-4; otherwise 2 and 3 only (every
// width comes from the same library macro; this keeps the JIT time down).
#define UNARY(F, FULL) \
  kernel void CAT(F##_, T)(global const T *a, global T *r) { size_t i = get_global_id(0); r[i] = F(a[i]); } \
  VEC_UNARY(F, FULL)
#define BINARY(F, FULL) \
  kernel void CAT(F##_, T)(global const T *a, global const T *b, global T *r) { \
    size_t i = get_global_id(0); r[i] = F(a[i], b[i]); } \
  VEC_BINARY(F, FULL)
#ifdef NO_VECTORS
#define VEC_UNARY(F, FULL)
#define VEC_BINARY(F, FULL)
#else
#define VEC_UNARY(F, FULL) \
  kernel void CAT(vec_##F##_, T)(global const T *a, global T *o) { \
    size_t base = get_global_id(0) * 48; \
    VW(F, 2, 0) VW(F, 3, 1) \
    if (FULL) { VW(F, 4, 2) VW(F, 8, 3) VW(F, 16, 4) } \
  }
#define VW(F, W, slot) \
  for (int j = 0; j < 48; j += W) { \
    VT(W) v; \
    for (int l = 0; l < W; ++l) v[l] = a[base + j + l]; \
    VT(W) r = F(v); \
    for (int l = 0; l < W; ++l) o[(slot) * get_global_size(0) * 48 + base + j + l] = r[l]; \
  }
#define VEC_BINARY(F, FULL) \
  kernel void CAT(vec_##F##_, T)(global const T *a, global const T *b, global T *o) { \
    size_t base = get_global_id(0) * 48; \
    VW2(F, 2, 0) VW2(F, 3, 1) \
    if (FULL) { VW2(F, 4, 2) VW2(F, 8, 3) VW2(F, 16, 4) } \
  }
#endif
#define VW2(F, W, slot) \
  for (int j = 0; j < 48; j += W) { \
    VT(W) v, w; \
    for (int l = 0; l < W; ++l) { v[l] = a[base + j + l]; w[l] = b[base + j + l]; } \
    VT(W) r = F(v, w); \
    for (int l = 0; l < W; ++l) o[(slot) * get_global_size(0) * 48 + base + j + l] = r[l]; \
  }
UNARY(sin, 1) UNARY(cos, 0) UNARY(tan, 0) UNARY(sinpi, 0) UNARY(cospi, 0) UNARY(tanpi, 0)
UNARY(asin, 0) UNARY(acos, 0) UNARY(asinpi, 0) UNARY(acospi, 0) UNARY(atan, 1) UNARY(atanpi, 0)
BINARY(atan2, 0) BINARY(atan2pi, 1)

// sincos through a __generic pointer (OpenCL C 3.0, where the device has
// them; else a private one) to private memory.
#ifdef __opencl_c_generic_address_space
#define SINCOS_SPACE generic
#else
#define SINCOS_SPACE private
#endif
kernel void CAT(sincos_, T)(global const T *a, global T *s, global T *c) {
  size_t i = get_global_id(0);
  T cv;
  s[i] = sincos(a[i], (SINCOS_SPACE T *)&cv);
  c[i] = cv;
}
#define VSC(W, slot) \
  for (int j = 0; j < 48; j += W) { \
    VT(W) v, cv; \
    for (int l = 0; l < W; ++l) v[l] = a[base + j + l]; \
    VT(W) r = sincos(v, (SINCOS_SPACE VT(W) *)&cv); \
    for (int l = 0; l < W; ++l) { \
      s[(slot) * get_global_size(0) * 48 + base + j + l] = r[l]; \
      c[(slot) * get_global_size(0) * 48 + base + j + l] = cv[l]; \
    } \
  }
#ifndef NO_VECTORS
kernel void CAT(vec_sincos_, T)(global const T *a, global T *s, global T *c) {
  size_t base = get_global_id(0) * 48;
  VSC(2, 0) VSC(3, 1) VSC(4, 2) VSC(8, 3) VSC(16, 4)
}
#endif
)";
  return s;
}

// OpenCL C 1.2: sincos with __private, __global and __local pointers, scalar
// and float4/double4 (each writes s and c; the 3 spaces in 3 slots).
std::string addressSpaceSource(const char *type) {
  std::string s = "#define T " + std::string(type) + "\n";
  s += R"(
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define T4 CAT(T, 4)
kernel void CAT(spaces_, T)(global const T *a, global T *s, global T *c, local T *lc, local T4 *lc4) {
  size_t i = get_global_id(0), li = get_local_id(0), n = get_global_size(0);
  T p;
  s[i] = sincos(a[i], &p);
  c[i] = p;
  s[n + i] = sincos(a[i], &c[n + i]);
  s[2 * n + i] = sincos(a[i], &lc[li]);
  c[2 * n + i] = lc[li];
  // Width 4: work-item i < n/4 covers elements 4i..4i+3.
  if (i < n / 4) {
    T4 v = (T4)(a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]);
    T4 p4, r1, r2, r3;
    global T4 *g4 = (global T4 *)(c + 4 * n);
    r1 = sincos(v, &p4);
    r2 = sincos(v, &g4[i]);
    r3 = sincos(v, &lc4[li]);
    for (int l = 0; l < 4; ++l) {
      s[3 * n + 4 * i + l] = r1[l];
      c[3 * n + 4 * i + l] = p4[l];
      s[4 * n + 4 * i + l] = r2[l];
      s[5 * n + 4 * i + l] = r3[l];
      c[5 * n + 4 * i + l] = lc4[li][l];
    }
  }
}
)";
  return s;
}

// ---- MPFR reference ---------------------------------------------------------

struct Mp {
  mpfr_t m;
  explicit Mp(mpfr_prec_t prec) { mpfr_init2(m, prec); }
  Mp(const Mp &) = delete;
  ~Mp() { mpfr_clear(m); }
  operator mpfr_ptr() { return m; }
};

template <typename T> constexpr int kPrecision = std::is_same_v<T, float> ? 24 : 53;
template <typename T> constexpr int kMinExp = std::is_same_v<T, float> ? -126 : -1022;

// The error of `got` in ulps of the binade of `exact` in format T (the
// subnormal ulp below the normal range); infinity for a nan/inf mismatch.
template <typename T> double ulpError(T got, mpfr_ptr exact) {
  if (mpfr_nan_p(exact))
    return std::isnan(got) ? 0 : INFINITY;
  if (mpfr_inf_p(exact)) // a pole (tanpi): the sign is checked by the special values
    return std::isinf(got) ? 0 : INFINITY;
  if (!std::isfinite(got))
    return INFINITY;
  if (mpfr_zero_p(exact))
    return got == 0 ? 0 : INFINITY;
  long e = std::max<long>(mpfr_get_exp(exact) - 1, kMinExp<T>);
  Mp diff(256);
  mpfr_set_d(diff, (double)got, MPFR_RNDN);
  mpfr_sub(diff, diff, exact, MPFR_RNDN);
  mpfr_abs(diff, diff, MPFR_RNDN);
  mpfr_mul_2si(diff, diff, -(e - (kPrecision<T> - 1)), MPFR_RNDN);
  return mpfr_get_d(diff, MPFR_RNDU);
}

// ulpError(got, exact) <= ulps; where denormals may be flushed (`flushing`),
// a zero also matches an exact value in T's denormal range, and a denormal
// `got` counts as the zero of its sign.
template <typename T> bool withinUlps(T got, mpfr_ptr exact, double ulps, bool flushing) {
  if (ulpError<T>(got, exact) <= ulps)
    return true;
  const bool exactDenormal = mpfr_regular_p(exact) && mpfr_get_exp(exact) <= kMinExp<T>; // |exact| < 2^kMinExp
  return flushing &&
         ((got == 0 && exactDenormal) || (isDenormal(got) && ulpError<T>(flushDenormal(got), exact) <= ulps));
}

// ---- Inputs -------------------------------------------------------------------

template <typename T> struct Inputs { std::vector<T> a, b; };

template <typename T> T logUniform(std::mt19937_64 &rng, double minExp, double maxExp, bool signs) {
  std::uniform_real_distribution<double> e(minExp, maxExp);
  double v = std::exp2(e(rng));
  v = std::min(v, (double)std::numeric_limits<T>::max());
  if (signs && (rng() & 1))
    v = -v;
  T r = (T)v;
  return r;
}

template <typename T> Inputs<T> inputsFor(Domain domain, unsigned seed) {
  constexpr bool isFloat = std::is_same_v<T, float>;
  const double maxExp = isFloat ? 128 : 1024;
  const double minExp = isFloat ? -149 : -1074;
  std::mt19937_64 rng(seed);
  auto uniform = [&](double lo, double hi) { return (T)std::uniform_real_distribution<double>(lo, hi)(rng); };
  Inputs<T> in;
  auto &a = in.a;
  switch (domain) {
  case Domain::Trig: {
    for (int i = 0; i < 800; ++i)
      a.push_back(uniform(-10, 10));
    for (int i = 0; i < 1200; ++i)
      a.push_back(logUniform<T>(rng, -40, maxExp, true));
    // The values of T nearest k * pi/2 and their neighbours.
    Mp pio2(256), v(256);
    mpfr_const_pi(pio2, MPFR_RNDN);
    mpfr_div_2ui(pio2, pio2, 1, MPFR_RNDN);
    for (int i = 0; i < 300; ++i) {
      double k =
          i < 100 ? i + 1 : std::floor(std::exp2(std::uniform_real_distribution<double>(7, isFloat ? 60 : 500)(rng)));
      mpfr_mul_d(v, pio2, k, MPFR_RNDN);
      T x = isFloat ? (T)mpfr_get_flt(v, MPFR_RNDN) : (T)mpfr_get_d(v, MPFR_RNDN);
      a.push_back(x);
      a.push_back(std::nextafter(x, (T)INFINITY));
      a.push_back(-std::nextafter(x, (T)0));
    }
    // Huge arguments, including the double closest to a multiple of pi/2.
    const double huge[] = {
        1e22,       1e300,    DBL_MAX,  0x1p1023, 6381956970095103.0 * 0x1p797, 5.319372648326541e255,
        1e6 * M_PI, 355.0,    103993.0, 0x1p20,   0x1.fffffffffffffp19,         FLT_MAX,
        1e30,       0x1p-1074};
    for (double h : huge)
      if (h <= std::numeric_limits<T>::max()) {
        a.push_back((T)h);
        a.push_back((T)-h);
      }
    break;
  }
  case Domain::TrigPi:
    for (int i = 0; i < 1000; ++i)
      a.push_back(uniform(-4, 4));
    for (int i = 0; i < 500; ++i)
      a.push_back(uniform(-1e6, 1e6));
    for (int i = 0; i < 800; ++i)
      a.push_back(logUniform<T>(rng, minExp, isFloat ? 26 : 55, true));
    for (int k = -40; k <= 40; ++k) { // around the half-integers
      T x = (T)(k * 0.5);
      a.push_back(std::nextafter(x, (T)INFINITY));
      a.push_back(std::nextafter(x, -(T)INFINITY));
      a.push_back(x + (T)(k * 0.001));
    }
    break;
  case Domain::Inverse:
    for (int i = 0; i < 1500; ++i)
      a.push_back(uniform(-1, 1));
    for (int i = 0; i < 400; ++i) { // near +-1
      T d = logUniform<T>(rng, isFloat ? -24 : -53, -1, false);
      a.push_back((T)1 - d);
      a.push_back(d - (T)1);
    }
    for (int i = 0; i < 400; ++i)
      a.push_back(logUniform<T>(rng, minExp, -1, true));
    break;
  case Domain::Atan:
    for (int i = 0; i < 1000; ++i)
      a.push_back(uniform(-4, 4));
    for (int i = 0; i < 1500; ++i)
      a.push_back(logUniform<T>(rng, minExp, maxExp, true));
    break;
  case Domain::Atan2:
    for (int i = 0; i < 1000; ++i) {
      a.push_back(uniform(-2, 2));
      in.b.push_back(uniform(-2, 2));
    }
    for (int i = 0; i < 1000; ++i) { // magnitudes within a factor 2^40
      T y = logUniform<T>(rng, minExp + 40, maxExp - 40, true);
      double e = std::uniform_real_distribution<double>(-40, 40)(rng);
      a.push_back(y);
      in.b.push_back((T)(std::ldexp((double)y, (int)e) * ((rng() & 1) ? -1.3 : 0.7)));
    }
    for (int i = 0; i < 800; ++i) { // anything, subnormals included
      a.push_back(logUniform<T>(rng, minExp, maxExp, true));
      in.b.push_back(logUniform<T>(rng, minExp, maxExp, true));
    }
    for (int i = 0; i < 100; ++i) { // |y| = |x|
      T v = logUniform<T>(rng, minExp, maxExp, true);
      a.push_back(v);
      in.b.push_back((rng() & 1) ? v : -v);
    }
    break;
  }
  return in;
}

// ---- Fixture --------------------------------------------------------------------

class BuiltinsTrigTest : public DeviceTest {
protected:
  /// Whether T results may have their denormals flushed (float without CL_FP_DENORM).
  template <typename T> bool flushes() { return std::is_same_v<T, float> && flushesFloatDenormals(device()); }

  template <typename T> bool skipUnsupported() {
    if (std::is_same_v<T, double> && !deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG))
      return true;
    return false;
  }

  template <typename T> Program buildFor(bool vectors = false) {
    std::string src = kernelSource(clTypeName<T>(), vectors);
    if (std::is_same_v<T, double>)
      src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + src;
    return build(src, "-cl-std=CL3.0");
  }

  // Runs F_T (or vec_F_T with 5 width slots) on the inputs; pads to 48.
  template <typename T>
  std::vector<T> run(cl_program program, const std::string &kernelName, const std::vector<T> &a,
                     const std::vector<T> *b, size_t outputs, size_t slots = 1) {
    size_t n = (a.size() + 47) / 48 * 48;
    std::vector<T> pa(a), pb(b ? *b : std::vector<T>());
    pa.resize(n, (T)0.5);
    if (b)
      pb.resize(n, (T)0.5);
    Mem ma = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), pa.data());
    Mem mb = b ? buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), pb.data()) : Mem();
    std::vector<Mem> outs;
    for (size_t i = 0; i < outputs; ++i)
      outs.push_back(buffer(CL_MEM_WRITE_ONLY, slots * n * sizeof(T)));
    Kernel k = kernel(program, kernelName.c_str());
    if (!k)
      return {};
    cl_uint arg = 0;
    EXPECT_CL(setArg(k, arg++, ma.get()));
    if (b)
      EXPECT_CL(setArg(k, arg++, mb.get()));
    for (Mem &m : outs)
      EXPECT_CL(setArg(k, arg++, m.get()));
    size_t global = slots > 1 ? n / 48 : n;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    std::vector<T> result;
    for (Mem &m : outs) {
      std::vector<T> r = read<T>(m, slots * n);
      for (size_t s = 0; s < slots; ++s)
        result.insert(result.end(), r.begin() + s * n, r.begin() + s * n + a.size());
    }
    return result;
  }

  template <typename T> void checkAccuracy() {
    if (skipUnsupported<T>())
      GTEST_SKIP() << "no fp64";
    Program program = buildFor<T>();
    ASSERT_TRUE(program);
    const bool ftz = flushes<T>();
    Mp x(64), y(64), exact(128);
    unsigned seed = 1;
    for (const Function &f : kFunctions) {
      Inputs<T> in = inputsFor<T>(f.domain, seed++);
      std::string name = std::string(f.name) + "_" + clTypeName<T>();
      std::vector<T> got = run<T>(program, name, in.a, f.binary ? &in.b : nullptr, 1);
      ASSERT_EQ(got.size(), in.a.size()) << name;
      double worst = 0;
      size_t worstAt = 0;
      // f of (a, b) into `exact`.
      auto evaluate = [&](T a, T b) {
        mpfr_set_d(x, (double)a, MPFR_RNDN);
        if (f.binary) {
          mpfr_set_d(y, (double)b, MPFR_RNDN);
          f.binary(exact, x, y, MPFR_RNDN);
        } else {
          f.unary(exact, x, MPFR_RNDN);
        }
      };
      for (size_t i = 0; i < in.a.size(); ++i) {
        const T b = f.binary ? in.b[i] : T(0);
        auto accepts = [&](T u, T v) {
          evaluate(u, v);
          return withinUlps<T>(got[i], exact, f.maxUlps, ftz);
        };
        evaluate(in.a[i], b);
        double err = ulpError<T>(got[i], exact);
        if (err > f.maxUlps) {
          if (acceptedWithFlushedInputs(ftz, accepts, in.a[i], b))
            continue;           // a flushed result: no ulp error to report
          evaluate(in.a[i], b); // for the message
        }
        if (!(err <= worst)) {
          worst = err;
          worstAt = i;
        }
        EXPECT_LE(err, f.maxUlps) << name << "(" << std::hexfloat << (double)in.a[i]
                                  << (f.binary ? ", " + std::to_string(in.b[i]) : std::string()) << ") = " << got[i]
                                  << ", exact " << mpfr_get_d(exact, MPFR_RNDN) << std::defaultfloat;
      }
      std::printf("  %-8s %-6s worst %.3f ulp (bound %g) at %a over %zu inputs\n", f.name, clTypeName<T>(), worst,
                  f.maxUlps, (double)in.a[worstAt], in.a.size());
    }
    // sincos: both results against sin and cos.
    Inputs<T> in = inputsFor<T>(Domain::Trig, 99);
    std::vector<T> got = run<T>(program, std::string("sincos_") + clTypeName<T>(), in.a, nullptr, 2);
    ASSERT_EQ(got.size(), 2 * in.a.size());
    double worst = 0;
    for (size_t i = 0; i < in.a.size(); ++i) {
      // One result of sincos against fn (mpfr_sin or mpfr_cos).
      auto check = [&](const char *what, T result, MpUnary fn) {
        auto accepts = [&](T u) {
          mpfr_set_d(x, (double)u, MPFR_RNDN);
          fn(exact, x, MPFR_RNDN);
          return withinUlps<T>(result, exact, 4.0, ftz);
        };
        mpfr_set_d(x, (double)in.a[i], MPFR_RNDN);
        fn(exact, x, MPFR_RNDN);
        const double err = ulpError<T>(result, exact);
        if (err > 4.0 && acceptedWithFlushedInputs(ftz, accepts, in.a[i]))
          return; // a flushed result: no ulp error to report
        worst = std::max(worst, err);
        EXPECT_LE(err, 4.0) << "sincos " << what << "(" << std::hexfloat << (double)in.a[i] << ")";
      };
      check("sin", got[i], mpfr_sin);
      check("cos", got[in.a.size() + i], mpfr_cos);
    }
    std::printf("  %-8s %-6s worst %.3f ulp (bound 4)\n", "sincos", clTypeName<T>(), worst);
  }

  // Vector overloads lane by lane against the scalar function, bit for bit:
  // widths 2 and 3 of every function, 4, 8 and 16 of sin, atan, atan2pi and
  // sincos.
  template <typename T> void checkVectors() {
    if (skipUnsupported<T>())
      GTEST_SKIP() << "no fp64";
    Program program = buildFor<T>(/*vectors=*/true);
    ASSERT_TRUE(program);
    auto same = [](T u, T v) { return std::memcmp(&u, &v, sizeof(T)) == 0 || (std::isnan(u) && std::isnan(v)); };
    const char *widths[] = {"2", "3", "4", "8", "16"};
    for (const Function &f : kFunctions) {
      Inputs<T> in = inputsFor<T>(f.domain, 7);
      in.a.resize(480);
      if (f.binary)
        in.b.resize(480);
      const std::vector<T> *b = f.binary ? &in.b : nullptr;
      std::string suffix = std::string(f.name) + "_" + clTypeName<T>();
      std::vector<T> scalar = run<T>(program, suffix, in.a, b, 1);
      std::vector<T> vec = run<T>(program, "vec_" + suffix, in.a, b, 1, 5);
      ASSERT_EQ(vec.size(), 5 * in.a.size()) << suffix;
      const bool full = !std::strcmp(f.name, "sin") || !std::strcmp(f.name, "atan") || !std::strcmp(f.name, "atan2pi");
      for (size_t w = 0; w < (full ? 5u : 2u); ++w)
        for (size_t i = 0; i < in.a.size(); ++i)
          ASSERT_TRUE(same(scalar[i], vec[w * in.a.size() + i]))
              << f.name << " " << clTypeName<T>() << widths[w] << " lane " << i << ": " << vec[w * in.a.size() + i]
              << " != " << scalar[i];
    }
    Inputs<T> in = inputsFor<T>(Domain::Trig, 8);
    in.a.resize(480);
    std::string suffix = std::string("sincos_") + clTypeName<T>();
    std::vector<T> scalar = run<T>(program, suffix, in.a, nullptr, 2);
    std::vector<T> vec = run<T>(program, "vec_" + suffix, in.a, nullptr, 2, 5);
    ASSERT_EQ(vec.size(), 10 * in.a.size());
    for (size_t out = 0; out < 2; ++out)
      for (size_t w = 0; w < 5; ++w)
        for (size_t i = 0; i < in.a.size(); ++i)
          ASSERT_TRUE(same(scalar[out * in.a.size() + i], vec[(out * 5 + w) * in.a.size() + i]))
              << "sincos " << clTypeName<T>() << widths[w] << (out ? " cos" : " sin") << " lane " << i;
  }

  // sincos with __private, __global and __local pointers (OpenCL C 1.2
  // mangling), scalar and width 4, against the sincos_ kernel's results.
  template <typename T> void checkAddressSpaces() {
    if (skipUnsupported<T>())
      GTEST_SKIP() << "no fp64";
    std::string src = addressSpaceSource(clTypeName<T>());
    if (std::is_same_v<T, double>)
      src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + src;
    Program old = build(src, "-cl-std=CL1.2");
    ASSERT_TRUE(old);
    Program program = buildFor<T>();
    ASSERT_TRUE(program);
    const size_t n = 256, local = 16;
    Inputs<T> in = inputsFor<T>(Domain::Trig, 11);
    in.a.resize(n);
    std::vector<T> expected = run<T>(program, std::string("sincos_") + clTypeName<T>(), in.a, nullptr, 2);
    ASSERT_EQ(expected.size(), 2 * n);
    Mem ma = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), in.a.data());
    Mem ms = buffer(CL_MEM_WRITE_ONLY, 6 * n * sizeof(T));
    Mem mc = buffer(CL_MEM_WRITE_ONLY, 6 * n * sizeof(T));
    Kernel k = kernel(old, (std::string("spaces_") + clTypeName<T>()).c_str());
    ASSERT_TRUE(k);
    setArgs(k, ma.get(), ms.get(), mc.get());
    ASSERT_CL(clSetKernelArg(k, 3, local * sizeof(T), nullptr));
    ASSERT_CL(clSetKernelArg(k, 4, local * 4 * sizeof(T), nullptr));
    size_t global = n;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    std::vector<T> s = read<T>(ms, 6 * n), c = read<T>(mc, 6 * n);
    const char *spaces[] = {"private", "global", "local", "private4", "global4", "local4"};
    for (size_t slot = 0; slot < 6; ++slot)
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(expected[i], s[slot * n + i]) << "sincos sin, " << spaces[slot] << " pointer, element " << i;
        ASSERT_EQ(expected[n + i], c[slot * n + i]) << "sincos cos, " << spaces[slot] << " pointer, element " << i;
      }
  }

  struct Special {
    const char *fn;
    double x, y; // y: second argument of atan2/atan2pi
    double expected;
  };

  template <typename T> void checkSpecialValues() {
    if (skipUnsupported<T>())
      GTEST_SKIP() << "no fp64";
    Program program = buildFor<T>();
    ASSERT_TRUE(program);
    const double inf = INFINITY, nan = NAN, pi = M_PI, pio2 = M_PI / 2;
    const double tiny = std::is_same_v<T, float> ? 0x1p-149 : 0x1p-1074;
    const Special table[] = {
        {"sin", 0.0, 0, 0.0},
        {"sin", -0.0, 0, -0.0},
        {"sin", inf, 0, nan},
        {"sin", -inf, 0, nan},
        {"sin", nan, 0, nan},
        {"sin", tiny, 0, tiny},
        {"sin", -tiny, 0, -tiny},
        {"cos", 0.0, 0, 1.0},
        {"cos", -0.0, 0, 1.0},
        {"cos", inf, 0, nan},
        {"cos", nan, 0, nan},
        {"cos", tiny, 0, 1.0},
        {"tan", 0.0, 0, 0.0},
        {"tan", -0.0, 0, -0.0},
        {"tan", inf, 0, nan},
        {"tan", -inf, 0, nan},
        {"tan", tiny, 0, tiny},
        {"tan", -tiny, 0, -tiny},
        {"sinpi", 0.0, 0, 0.0},
        {"sinpi", -0.0, 0, -0.0},
        {"sinpi", 1, 0, 0.0},
        {"sinpi", -1, 0, -0.0},
        {"sinpi", 2, 0, 0.0},
        {"sinpi", -3, 0, -0.0},
        {"sinpi", 0.5, 0, 1},
        {"sinpi", -0.5, 0, -1},
        {"sinpi", 1.5, 0, -1},
        {"sinpi", 0x1p60, 0, 0.0},
        {"sinpi", -0x1p60, 0, -0.0},
        {"sinpi", 0x1.8p23, 0, 0.0},
        {"sinpi", 0x1p100, 0, 0.0},
        {"sinpi", inf, 0, nan},
        {"sinpi", -inf, 0, nan},
        {"sinpi", nan, 0, nan},
        {"cospi", 0.0, 0, 1},
        {"cospi", -0.0, 0, 1},
        {"cospi", 0.5, 0, 0.0},
        {"cospi", -0.5, 0, 0.0},
        {"cospi", 1.5, 0, 0.0},
        {"cospi", -2.5, 0, 0.0},
        {"cospi", 1, 0, -1},
        {"cospi", -1, 0, -1},
        {"cospi", 2, 0, 1},
        {"cospi", 0x1p60, 0, 1},
        {"cospi", 0x1p100, 0, 1},
        {"cospi", 0x1.000002p23, 0, -1},
        {"cospi", 0x1p22 + 0.5, 0, 0.0},
        {"cospi", inf, 0, nan},
        {"cospi", nan, 0, nan},
        {"tanpi", 0.0, 0, 0.0},
        {"tanpi", -0.0, 0, -0.0},
        {"tanpi", 1, 0, -0.0},
        {"tanpi", -1, 0, 0.0},
        {"tanpi", 2, 0, 0.0},
        {"tanpi", -2, 0, -0.0},
        {"tanpi", 3, 0, -0.0},
        {"tanpi", 0.5, 0, inf},
        {"tanpi", 1.5, 0, -inf},
        {"tanpi", -0.5, 0, -inf},
        {"tanpi", -1.5, 0, inf},
        {"tanpi", 2.5, 0, inf},
        {"tanpi", 0x1p60, 0, 0.0},
        {"tanpi", -0x1p60, 0, -0.0},
        {"tanpi", 0x1.000002p23, 0, -0.0},
        {"tanpi", inf, 0, nan},
        {"tanpi", -inf, 0, nan},
        {"tanpi", nan, 0, nan},
        {"asin", 0.0, 0, 0.0},
        {"asin", -0.0, 0, -0.0},
        {"asin", 1, 0, pio2},
        {"asin", -1, 0, -pio2},
        {"asin", 1.5, 0, nan},
        {"asin", -2, 0, nan},
        {"asin", inf, 0, nan},
        {"asin", nan, 0, nan},
        {"asin", tiny, 0, tiny},
        {"acos", 1, 0, 0.0},
        {"acos", -1, 0, pi},
        {"acos", 0.0, 0, pio2},
        {"acos", -0.0, 0, pio2},
        {"acos", 1.5, 0, nan},
        {"acos", -inf, 0, nan},
        {"acos", nan, 0, nan},
        {"asinpi", 0.0, 0, 0.0},
        {"asinpi", -0.0, 0, -0.0},
        {"asinpi", 1, 0, 0.5},
        {"asinpi", -1, 0, -0.5},
        {"asinpi", 2, 0, nan},
        {"asinpi", nan, 0, nan},
        {"acospi", 1, 0, 0.0},
        {"acospi", -1, 0, 1},
        {"acospi", 0.0, 0, 0.5},
        {"acospi", -2, 0, nan},
        {"acospi", nan, 0, nan},
        {"atan", 0.0, 0, 0.0},
        {"atan", -0.0, 0, -0.0},
        {"atan", inf, 0, pio2},
        {"atan", -inf, 0, -pio2},
        {"atan", nan, 0, nan},
        {"atan", tiny, 0, tiny},
        {"atanpi", 0.0, 0, 0.0},
        {"atanpi", -0.0, 0, -0.0},
        {"atanpi", inf, 0, 0.5},
        {"atanpi", -inf, 0, -0.5},
        {"atanpi", nan, 0, nan},
        // C99 Annex F.9.1.4.
        {"atan2", 0.0, 0.0, 0.0},
        {"atan2", -0.0, 0.0, -0.0},
        {"atan2", 0.0, -0.0, pi},
        {"atan2", -0.0, -0.0, -pi},
        {"atan2", 0.0, -1, pi},
        {"atan2", -0.0, -1, -pi},
        {"atan2", 0.0, 1, 0.0},
        {"atan2", -0.0, 1, -0.0},
        {"atan2", -1, 0.0, -pio2},
        {"atan2", -1, -0.0, -pio2},
        {"atan2", 1, 0.0, pio2},
        {"atan2", 1, -0.0, pio2},
        {"atan2", 1, -inf, pi},
        {"atan2", -1, -inf, -pi},
        {"atan2", 1, inf, 0.0},
        {"atan2", -1, inf, -0.0},
        {"atan2", inf, 1, pio2},
        {"atan2", -inf, -1, -pio2},
        {"atan2", inf, -inf, 3 * M_PI_4},
        {"atan2", -inf, -inf, -3 * M_PI_4},
        {"atan2", inf, inf, M_PI_4},
        {"atan2", -inf, inf, -M_PI_4},
        {"atan2", nan, 1, nan},
        {"atan2", 1, nan, nan},
        {"atan2", 0.0, inf, 0.0},
        {"atan2", -0.0, -inf, -pi},
        {"atan2", inf, 0.0, pio2},
        {"atan2", 1, 1, M_PI_4},
        {"atan2", -tiny, -tiny, -3 * M_PI_4},
        {"atan2pi", 0.0, 0.0, 0.0},
        {"atan2pi", -0.0, 0.0, -0.0},
        {"atan2pi", 0.0, -0.0, 1},
        {"atan2pi", -0.0, -0.0, -1},
        {"atan2pi", 0.0, -1, 1},
        {"atan2pi", -0.0, -1, -1},
        {"atan2pi", 0.0, 1, 0.0},
        {"atan2pi", -0.0, 1, -0.0},
        {"atan2pi", -1, 0.0, -0.5},
        {"atan2pi", 1, -0.0, 0.5},
        {"atan2pi", 1, -inf, 1},
        {"atan2pi", -1, -inf, -1},
        {"atan2pi", 1, inf, 0.0},
        {"atan2pi", -1, inf, -0.0},
        {"atan2pi", inf, 1, 0.5},
        {"atan2pi", -inf, -1, -0.5},
        {"atan2pi", inf, -inf, 0.75},
        {"atan2pi", -inf, -inf, -0.75},
        {"atan2pi", inf, inf, 0.25},
        {"atan2pi", -inf, inf, -0.25},
        {"atan2pi", nan, 1, nan},
        {"atan2pi", 1, nan, nan},
    };
    const bool ftz = flushes<T>();
    auto sameBits = [](T u, T v) { return std::memcmp(&u, &v, sizeof(T)) == 0; };
    // Whether got is want (any nan for a nan), or a flushed form of it.
    auto matches = [&](double want, T got) {
      const T w = (T)want;
      if (std::isnan(w))
        return static_cast<bool>(std::isnan(got));
      return sameBits(w, got) || (ftz && matchesAfterResultFlush(w, got));
    };
    // The index of the case with args[i] (a row per argument) flushed, or -1
    // where no argument of case i is a denormal. Every case with a denormal
    // argument needs one, so that a flushing device can be judged: its
    // absence is a failure on any device.
    auto flushedTwin = [&](const char *fn, const std::vector<const std::vector<T> *> &args, size_t i) -> ptrdiff_t {
      bool denormal = false;
      for (const std::vector<T> *arg : args)
        denormal |= isDenormal((*arg)[i]);
      if (!denormal)
        return -1;
      for (size_t j = 0; j < args[0]->size(); ++j) {
        bool same = true;
        for (const std::vector<T> *arg : args)
          same &= sameBits((*arg)[j], flushDenormal((*arg)[i]));
        if (same)
          return static_cast<ptrdiff_t>(j);
      }
      ADD_FAILURE() << fn << " case " << i << ": no case with its denormal arguments flushed to zero";
      return -1;
    };
    for (const char *fn : kUnary) {
      std::vector<T> xs;
      std::vector<double> want;
      for (const Special &s : table)
        if (std::strcmp(s.fn, fn) == 0) {
          xs.push_back((T)s.x);
          want.push_back(s.expected);
        }
      std::vector<T> got = run<T>(program, std::string(fn) + "_" + clTypeName<T>(), xs, nullptr, 1);
      ASSERT_EQ(got.size(), xs.size());
      for (size_t i = 0; i < xs.size(); ++i) {
        T w = (T)want[i];
        const ptrdiff_t twin = flushedTwin(fn, {&xs}, i);
        if (matches(want[i], got[i]) || (ftz && twin >= 0 && matches(want[twin], got[i])))
          continue;
        if (std::isnan(w))
          ADD_FAILURE() << fn << "(" << xs[i] << ") = " << got[i] << ", want nan";
        else
          ADD_FAILURE() << fn << "(" << std::hexfloat << xs[i] << ") = " << got[i] << ", want " << w
                        << std::defaultfloat;
      }
    }
    for (const char *fn : kBinary) {
      std::vector<T> ys, xs;
      std::vector<double> want;
      for (const Special &s : table)
        if (std::strcmp(s.fn, fn) == 0) {
          ys.push_back((T)s.x);
          xs.push_back((T)s.y);
          want.push_back(s.expected);
        }
      std::vector<T> got = run<T>(program, std::string(fn) + "_" + clTypeName<T>(), ys, &xs, 1);
      ASSERT_EQ(got.size(), xs.size());
      for (size_t i = 0; i < xs.size(); ++i) {
        T w = (T)want[i];
        const ptrdiff_t twin = flushedTwin(fn, {&ys, &xs}, i);
        if (matches(want[i], got[i]) || (ftz && twin >= 0 && matches(want[twin], got[i])))
          continue;
        if (std::isnan(w))
          ADD_FAILURE() << fn << "(" << ys[i] << ", " << xs[i] << ") = " << got[i];
        else
          ADD_FAILURE() << fn << "(" << ys[i] << ", " << xs[i] << ") = " << std::hexfloat << got[i] << ", want " << w
                        << std::defaultfloat;
      }
    }
  }
};

TEST_P(BuiltinsTrigTest, FloatAccuracy) { checkAccuracy<float>(); }
TEST_P(BuiltinsTrigTest, DoubleAccuracy) { checkAccuracy<double>(); }
TEST_P(BuiltinsTrigTest, FloatSpecialValues) { checkSpecialValues<float>(); }
TEST_P(BuiltinsTrigTest, DoubleSpecialValues) { checkSpecialValues<double>(); }
TEST_P(BuiltinsTrigTest, FloatVectors) { checkVectors<float>(); }
TEST_P(BuiltinsTrigTest, DoubleVectors) { checkVectors<double>(); }
TEST_P(BuiltinsTrigTest, FloatSincosAddressSpaces) { checkAddressSpaces<float>(); }
TEST_P(BuiltinsTrigTest, DoubleSincosAddressSpaces) { checkAddressSpaces<double>(); }

CLTEST_INSTANTIATE(BuiltinsTrigTest);

} // namespace
