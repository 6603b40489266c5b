// Bit-level, remainder and special math builtins (OpenCL C 3.0 6.15.2):
// fmod remainder remquo frexp ldexp ilogb logb modf fract nextafter fdim
// maxmag minmag nan cbrt hypot rsqrt erf erfc tgamma lgamma lgamma_r, float
// and double, and the native_/half_ forms:
//  - edge values (±0, ±inf, NaN, denormals, extremes, exact-quotient and
//    tie cases) crossed with each other and random values, against the host
//    references of math_reference.h (exact host C library results for the
//    exact functions, MPFR for the others), within the OpenCL C 7.4 bounds
//    (0 ulp for the exact ones); the worst error of each is printed;
//  - remquo's low 7 quotient bits and sign, frexp's exponent, lgamma_r's sign;
//  - the pointer forms through __private, __global and __local pointers in
//    OpenCL C 1.2 and __generic ones in 3.0;
//  - every vector width gives the scalar results, bit for bit.
// A device without CL_FP_DENORM may flush float denormals (denormal_flush.h):
// the results of an input then also pass against the reference of its
// flushed operands, and denormal results may be zeros.
#include "cl_test.h"
#include "denormal_flush.h"
#include "math_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace cltest;
namespace cm = cltest::math;

namespace {

enum class Kind {
  Unary,   // T F(T)
  Binary,  // T F(T, T)
  Ldexp,   // T F(T, int)
  IntOut,  // int F(T)  (ilogb)
  PtrInt,  // T F(T, int *)  (frexp, lgamma_r)
  PtrReal, // T F(T, T *)  (modf, fract)
  Remquo,  // T F(T, T, int *)
  NanCode, // T F(uint / ulong)
};

struct Function {
  const char *name;
  Kind kind;
  double ulpsFloat, ulpsDouble; // OpenCL C 7.4, full profile; < 0: not checked
};

const Function kFunctions[] = {
    {"fmod", Kind::Binary, 0, 0},
    {"remainder", Kind::Binary, 0, 0},
    {"remquo", Kind::Remquo, 0, 0},
    {"frexp", Kind::PtrInt, 0, 0},
    {"ldexp", Kind::Ldexp, 0, 0},
    {"ilogb", Kind::IntOut, 0, 0},
    {"logb", Kind::Unary, 0, 0},
    {"modf", Kind::PtrReal, 0, 0},
    {"fract", Kind::PtrReal, 0, 0},
    {"nextafter", Kind::Binary, 0, 0},
    {"fdim", Kind::Binary, 0, 0},
    {"maxmag", Kind::Binary, 0, 0},
    {"minmag", Kind::Binary, 0, 0},
    {"nan", Kind::NanCode, 0, 0},
    {"cbrt", Kind::Unary, 2, 2},
    {"hypot", Kind::Binary, 4, 4},
    {"rsqrt", Kind::Unary, 2, 2},
    {"erf", Kind::Unary, 16, 16},
    {"erfc", Kind::Unary, 16, 16},
    {"tgamma", Kind::Unary, 16, 16},
    // No bound in the spec: checked to be close away from the poles.
    {"lgamma", Kind::Unary, 64, 64},
    {"lgamma_r", Kind::PtrInt, 64, 64},
};

// Every kernel: (x, y, n, r, o): r = F(...), o = the pointer or int output.
std::string callExpr(const Function &f, const std::string &x, const std::string &y, const std::string &n,
                     const std::string &p) {
  std::string name = f.name;
  switch (f.kind) {
  case Kind::Unary:
  case Kind::IntOut:
    return name + "(" + x + ")";
  case Kind::Binary:
    return name + "(" + x + ", " + y + ")";
  case Kind::Ldexp:
    return name + "(" + x + ", " + n + ")";
  case Kind::PtrInt:
  case Kind::PtrReal:
    return name + "(" + x + ", " + p + ")";
  case Kind::Remquo:
    return name + "(" + x + ", " + y + ", " + p + ")";
  case Kind::NanCode:
    return name + "(" + n + ")";
  }
  return {};
}

const char *outType(const Function &f, const char *t) { return f.kind == Kind::PtrReal ? t : "int"; }

// Scalar kernels; the pointer forms go through a __private, a __global or a
// __local pointer depending on i % 3 (local work-groups of 64).
std::string scalarSource(const char *t) {
  std::string s = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\ntypedef " + std::string(t) + " T;\n";
  s += std::string("typedef ") + (std::strcmp(t, "double") == 0 ? "ulong" : "uint") + " U;\n";
  for (const Function &f : kFunctions) {
    std::string o = outType(f, t);
    s += "__kernel void k_" + std::string(f.name) +
         "(__global const T *x, __global const T *y, __global const U *n, __global T *r, __global " + o +
         " *o) {\n  size_t i = get_global_id(0);\n";
    if (f.kind == Kind::PtrInt || f.kind == Kind::PtrReal || f.kind == Kind::Remquo) {
      s += "  __local " + o + " loc[64]; " + o + " priv; size_t l = get_local_id(0);\n";
      s += "  if (i % 3 == 0) { r[i] = " + callExpr(f, "x[i]", "y[i]", "n[i]", "&priv") + "; o[i] = priv; }\n";
      s += "  else if (i % 3 == 1) { r[i] = " + callExpr(f, "x[i]", "y[i]", "n[i]", "o + i") + "; }\n";
      s += "  else { r[i] = " + callExpr(f, "x[i]", "y[i]", "n[i]", "loc + l") + "; o[i] = loc[l]; }\n";
    } else if (f.kind == Kind::IntOut) {
      s += "  o[i] = " + callExpr(f, "x[i]", "y[i]", "n[i]", "") + ";\n";
    } else if (f.kind == Kind::Ldexp) {
      s += "  r[i] = " + callExpr(f, "x[i]", "y[i]", "(int)n[i]", "") + ";\n";
    } else {
      s += "  r[i] = " + callExpr(f, "x[i]", "y[i]", "n[i]", "") + ";\n";
    }
    s += "}\n";
  }
  return s;
}

// Vector kernels of width w (OpenCL C 3.0: __generic pointers); ldexp also
// in its scalar-exponent form, lane 0's exponent for every lane.
std::string vectorSource(const char *t, unsigned w) {
  std::string W = std::to_string(w);
  std::string s = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\ntypedef " + std::string(t) + " T;\n";
  bool dbl = std::strcmp(t, "double") == 0;
  s += std::string("typedef ") + (dbl ? "ulong" : "uint") + " U;\n";
  std::string vt = t + W, vi = "int" + W, vu = (dbl ? "ulong" : "uint") + W;
  for (const Function &f : kFunctions) {
    std::string o = outType(f, t);
    std::string vo = o + W;
    s += "__kernel void k_" + std::string(f.name) +
         "(__global const T *x, __global const T *y, __global const U *n, __global T *r, __global " + o +
         " *o) {\n  size_t i = get_global_id(0);\n";
    s += "  " + vt + " a = vload" + W + "(i, x), b = vload" + W + "(i, y); " + vu + " c = vload" + W + "(i, n); " + vo +
         " p;\n";
    if (f.kind == Kind::IntOut)
      s += "  vstore" + W + "(" + callExpr(f, "a", "b", "c", "") + ", i, o);\n";
    else if (f.kind == Kind::Ldexp)
      s += "  vstore" + W + "(i % 2 ? " + callExpr(f, "a", "b", "convert_" + vi + "(c)", "") + " : " +
           callExpr(f, "a", "b", "(int)c.s0", "") + ", i, r);\n";
    else if (f.kind == Kind::PtrInt || f.kind == Kind::PtrReal || f.kind == Kind::Remquo)
      s += "  vstore" + W + "(" + callExpr(f, "a", "b", "c", "&p") + ", i, r); vstore" + W + "(p, i, o);\n";
    else
      s += "  vstore" + W + "(" + callExpr(f, "a", "b", "c", "") + ", i, r);\n";
    s += "}\n";
  }
  return s;
}

template <class T> std::vector<T> edgeValues() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {0,
                      1,
                      2,
                      3,
                      0.5,
                      0.75,
                      1.5,
                      7,
                      10,
                      -1,
                      -2.5,
                      -3,
                      -0.5,
                      L::min(),
                      L::max(),
                      L::denorm_min(),
                      L::min() / 3,
                      L::infinity(),
                      L::quiet_NaN(),
                      L::epsilon(),
                      1 - L::epsilon() / 2,
                      static_cast<T>(1e10),
                      static_cast<T>(-1e-10),
                      static_cast<T>(0.1),
                      static_cast<T>(5.25),
                      static_cast<T>(27.5),
                      static_cast<T>(-170.5),
                      static_cast<T>(-0.25),
                      static_cast<T>(171.5),
                      static_cast<T>(1e30),
                      static_cast<T>(6.5e-30),
                      static_cast<T>(-4.75),
                      static_cast<T>(std::ldexp(1.0, 100)),
                      static_cast<T>(std::ldexp(1.0, -100))};
  std::vector<T> all = v;
  for (T x : v)
    if (x != 0 && !std::isnan(x))
      all.push_back(-x);
  all.push_back(-T(0));
  return all;
}

// Random values for `f`: typical ranges for the special functions, any
// finite magnitude for the others.
template <class T> T randomValue(const Function &f, std::mt19937_64 &rng) {
  using L = std::numeric_limits<T>;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::string name = f.name;
  double u = unit(rng);
  if (name == "erf" || name == "erfc")
    return static_cast<T>(u < 0.5 ? -7 + 14 * unit(rng) : (std::is_same_v<T, double> ? 28 : 11) * unit(rng));
  if (name == "tgamma")
    return static_cast<T>(u < 0.5 ? (std::is_same_v<T, double> ? 172 : 36) * unit(rng) : -40 + 40 * unit(rng));
  if ((name == "lgamma" || name == "lgamma_r") && u < 0.6)
    return static_cast<T>(-30 + 60 * unit(rng));
  // sign * 2^e * m over the whole finite range, denormals included.
  int lo = L::min_exponent - L::digits, hi = L::max_exponent - 1;
  double m = 1 + unit(rng);
  int e = lo + static_cast<int>(unit(rng) * (hi - lo));
  double v = std::ldexp(m, e);
  if (name == "rsqrt" || name == "lgamma" || name == "lgamma_r")
    v = u < 0.8 ? v : -v;
  else
    v = unit(rng) < 0.5 ? v : -v;
  return static_cast<T>(v);
}

template <class T> struct Data {
  std::vector<T> x, y;
  std::vector<std::conditional_t<std::is_same_v<T, double>, cl_ulong, cl_uint>> n;
};

template <class T> Data<T> inputsFor(const Function &f, std::mt19937_64 &rng) {
  Data<T> d;
  std::vector<T> edges = edgeValues<T>();
  bool binary = f.kind == Kind::Binary || f.kind == Kind::Remquo;
  auto addRandomN = [&](size_t i) {
    if (f.kind == Kind::Ldexp) {
      int choices[] = {0,    1,    -1,    5,     -5,    60,   -60,   127,    -126,    -149,      -150,     300,
                       -300, 1023, -1022, -1074, -1075, 2100, -2100, 100000, -100000, INT32_MAX, INT32_MIN};
      int k = i % 3 == 0 ? choices[rng() % std::size(choices)] : static_cast<int>(rng() % 601) - 300;
      d.n.push_back(static_cast<std::make_unsigned_t<int>>(k));
    } else
      d.n.push_back(static_cast<decltype(d.n)::value_type>(rng() >> (i % 2 ? 40 : 0)));
  };
  if (binary) {
    for (T a : edges)
      for (T b : edges) {
        d.x.push_back(a);
        d.y.push_back(b);
      }
  } else {
    d.x = edges;
    d.y.assign(edges.size(), 0);
  }
  const size_t randomCount = f.ulpsDouble > 0 ? 1200 : 600;
  for (size_t i = 0; i < randomCount; ++i) {
    T a = randomValue<T>(f, rng);
    T b = randomValue<T>(f, rng);
    if (binary && i % 4 == 1) // nearby magnitudes: small quotients, ties
      b = static_cast<T>(a / static_cast<T>(0.5 + (rng() % 8)) * (rng() % 2 ? 1 : -1));
    if (binary && i % 4 == 2 && std::string(f.name) != "hypot") // exact multiples and half-way quotients
      a = static_cast<T>(b * static_cast<T>(static_cast<int>(rng() % 41) - 20) * T(0.5));
    d.x.push_back(a);
    d.y.push_back(b);
  }
  // Round up to whole work-groups of 64 and to a multiple of every width.
  while (d.x.size() % 192) {
    d.x.push_back(1);
    d.y.push_back(1);
  }
  for (size_t i = 0; i < d.x.size(); ++i)
    addRandomN(i);
  return d;
}

bool sameBits(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

class BuiltinsMiscMathTest : public DeviceTest {
protected:
  bool hasDouble() { return deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0; }

  // Runs kernel k_<f> of `program` on `d`; r and o (as bytes) come back.
  template <class T>
  void runKernel(cl_program program, const Function &f, const Data<T> &d, size_t items, std::vector<T> &r,
                 std::vector<unsigned char> &o, size_t oSize) {
    const size_t n = d.x.size();
    Kernel k = kernel(program, ("k_" + std::string(f.name)).c_str());
    Mem x = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), const_cast<T *>(d.x.data()));
    Mem y = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), const_cast<T *>(d.y.data()));
    Mem nn = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(d.n[0]),
                    const_cast<void *>(static_cast<const void *>(d.n.data())));
    Mem rb = buffer(CL_MEM_READ_WRITE, n * sizeof(T));
    Mem ob = buffer(CL_MEM_READ_WRITE, n * oSize);
    setArgs(k, x.get(), y.get(), nn.get(), rb.get(), ob.get());
    size_t local = 64;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_.get(), k.get(), 1, nullptr, &items, items % 64 ? nullptr : &local, 0,
                                     nullptr, nullptr));
    r = read<T>(rb.get(), n);
    o = read<unsigned char>(ob.get(), n * oSize);
  }

  template <class T> void check(const char *std) {
    if (std::is_same_v<T, double> && !hasDouble())
      GTEST_SKIP() << "no fp64";
    const bool dbl = std::is_same_v<T, double>;
    const cm::Format fmt = dbl ? cm::Format::F64 : cm::Format::F32;
    const std::string options = std::string("-cl-std=") + std;
    Program scalar = build(scalarSource(clTypeName<T>()), options.c_str());
    ASSERT_TRUE(scalar);
    std::vector<Program> vectors;
    const unsigned widths[] = {2, 3, 4, 8, 16};
    if (std::string(std) == "CL3.0")
      for (unsigned w : widths) {
        vectors.push_back(build(vectorSource(clTypeName<T>(), w), options.c_str()));
        ASSERT_TRUE(vectors.back());
      }
    std::mt19937_64 rng(dbl ? 1234 : 4321);
    const bool ftz = !dbl && flushesFloatDenormals(device());
    // An exact value below the normal range: a flushing device may return a zero.
    auto flushable = [&](const cm::RefValue &rv, T got) {
      return got == 0 && rv.kind == cm::RefValue::Finite &&
             std::fabs(std::ldexp(rv.hi, rv.exp)) < cm::formatMinNormal(fmt);
    };
    for (const Function &f : kFunctions) {
      Data<T> d = inputsFor<T>(f, rng);
      const size_t n = d.x.size();
      const size_t oSize = f.kind == Kind::PtrReal ? sizeof(T) : sizeof(cl_int);
      std::vector<T> r;
      std::vector<unsigned char> o;
      runKernel(scalar.get(), f, d, n, r, o, oSize);
      if (HasFatalFailure())
        return;
      const double bound = dbl ? f.ulpsDouble : f.ulpsFloat;
      double worst = 0, worstAt = 0;
      int failures = 0;
      for (size_t i = 0; i < n && failures < 10; ++i) {
        const double a = d.x[i], b = d.y[i];
        const long long code = static_cast<long long>(d.n[i]);
        const long long argN = f.kind == Kind::Ldexp ? static_cast<long long>(static_cast<cl_int>(d.n[i])) : code;
        auto where = [&] {
          char buf[160];
          std::snprintf(buf, sizeof buf, "%s(%a, %a, n=%lld) [%s %s]", f.name, a, b, argN, clTypeName<T>(), std);
          return std::string(buf);
        };
        // lgamma has no bound: relative error is meaningless next to its
        // zeros (1, 2 and between the negative poles); skip those there.
        const bool lgammaLike = std::string(f.name).rfind("lgamma", 0) == 0;
        const bool nearZero = lgammaLike && (a < 0 || std::fabs(a - 1) < 0.25 || std::fabs(a - 2) < 0.25);
        // How the results of input i differ from `ref` (empty: they match).
        // With `flushed`, denormal results count as zeros of their sign and
        // exact values below the normal range accept zeros. `ulps` gets the
        // returned value's error where it counts for the worst one.
        auto mismatches = [&](const cm::Reference &ref, bool flushed, double &ulps) {
          std::vector<std::string> why;
          auto text = [&](const testing::Message &message) { why.push_back(message.GetString()); };
          auto flush = [&](T v) { return flushed ? flushDenormal(v) : v; };
          ulps = 0;
          if (f.kind == Kind::IntOut) {
            cl_int got;
            std::memcpy(&got, &o[i * oSize], sizeof got);
            if (got != ref.intValue)
              text(testing::Message() << " = " << got << ", expected " << ref.intValue);
            return why;
          }
          if (f.kind == Kind::NanCode) {
            if (!std::isnan(r[i]))
              text(testing::Message() << " is not a NaN");
            return why;
          }
          const T got = flush(r[i]);
          cm::UlpResult e = cm::ulpError(got, ref.value, fmt, ref.zeroSignFree);
          if (flushed && flushable(ref.value, got))
            e = cm::UlpResult{0, false, true};
          // The correctly rounded result (an overflow to inf included) always
          // passes; a 0-ulp function must give exactly that.
          bool exact = e.correctlyRounded || sameBits(got, ref.value.cr) || (!e.special && e.ulps == 0);
          if (exact)
            e.ulps = 0;
          if (e.special || (bound == 0 ? !exact : !nearZero && e.ulps > bound))
            text(testing::Message() << " = " << r[i] << " (" << e.ulps << " ulp" << (e.special ? ", special" : "")
                                    << "), expected " << ref.value.cr);
          else if (!nearZero)
            ulps = e.ulps;
          if (ref.hasValue2) {
            T got2;
            std::memcpy(&got2, &o[i * oSize], sizeof got2);
            cm::UlpResult e2 = cm::ulpError(flush(got2), ref.value2, fmt);
            if (!(flushed && flushable(ref.value2, flush(got2))) && (e2.special || e2.ulps > 0))
              text(testing::Message() << " *ptr = " << got2 << ", expected " << ref.value2.cr);
          }
          if (ref.intCheck != cm::IntCheck::None) {
            cl_int got;
            std::memcpy(&got, &o[i * oSize], sizeof got);
            bool ok = true;
            if (ref.intCheck == cm::IntCheck::Exact || ref.intCheck == cm::IntCheck::Sign)
              ok = got == ref.intValue;
            else if (ref.intCheck == cm::IntCheck::QuoLow7)
              // The sign of x/y (lost when the low bits are all 0) and the low
              // 7 bits of |x/y|.
              ok = (std::llabs(got) & 127) == (std::llabs(ref.intValue) & 127) &&
                   ((got < 0) == (ref.intValue < 0) || (std::llabs(ref.intValue) & 127) == 0);
            if (!ok)
              text(testing::Message() << " *ptr = " << got << ", expected " << ref.intValue);
          }
          return why;
        };
        const cm::Reference ref = cm::evaluate(f.name, fmt, a, b, 0, argN);
        double ulps = 0, flushedUlps = 0;
        std::vector<std::string> why = mismatches(ref, false, ulps);
        // A flushing device: the results may match the reference with flushed
        // denormal results, or that of the flushed operands (every result
        // against the same reference).
        if (!why.empty() && ftz) {
          bool flushedOk = mismatches(ref, true, flushedUlps).empty();
          if (!flushedOk && anyDenormal(d.x[i], d.y[i]))
            flushedOk = mismatches(cm::evaluate(f.name, fmt, flushDenormal(d.x[i]), flushDenormal(d.y[i]), 0, argN),
                                   true, flushedUlps)
                            .empty();
          if (flushedOk)
            continue; // no error to count towards the worst one
        }
        for (const std::string &w : why) {
          ADD_FAILURE() << where() << w;
          ++failures;
        }
        if (ulps > worst) {
          worst = ulps;
          worstAt = a;
        }
      }
      std::printf("  %-10s %-6s %s: worst %.3g ulp (at %a), %zu inputs\n", f.name, clTypeName<T>(), std, worst, worstAt,
                  n);
      // Every vector width gives the scalar results bit for bit.
      for (size_t v = 0; v < vectors.size(); ++v) {
        std::vector<T> rv;
        std::vector<unsigned char> ov;
        runKernel(vectors[v].get(), f, d, n / widths[v], rv, ov, oSize);
        if (HasFatalFailure())
          return;
        for (size_t i = 0; i < n; ++i) {
          bool ok = true;
          if (f.kind == Kind::IntOut || f.kind == Kind::PtrInt || f.kind == Kind::Remquo || f.kind == Kind::PtrReal)
            ok = std::memcmp(&ov[i * oSize], &o[i * oSize], oSize) == 0 ||
                 (f.kind == Kind::PtrReal && std::isnan(reinterpret_cast<T *>(ov.data())[i]) &&
                  std::isnan(reinterpret_cast<T *>(o.data())[i]));
          if (f.kind != Kind::IntOut && f.kind != Kind::Ldexp)
            ok = ok && sameBits(rv[i], r[i]);
          if (f.kind == Kind::Ldexp) {
            // Odd vectors use a vector exponent, even ones lane 0's.
            size_t item = i / widths[v];
            cl_int k = static_cast<cl_int>(d.n[item % 2 ? i : item * widths[v]]);
            cm::Reference ref = cm::evaluate("ldexp", fmt, d.x[i], 0, 0, k);
            ok = sameBits(rv[i], ref.value.cr);
            // As for the scalar results: the operand and the result may be flushed.
            auto accepts = [&](T x) {
              cm::Reference flushedRef = cm::evaluate("ldexp", fmt, x, 0, 0, k);
              const T got = flushDenormal(rv[i]);
              return sameBits(got, flushedRef.value.cr) || flushable(flushedRef.value, got);
            };
            ok = ok || (ftz && acceptedWithFlushedInputs(ftz, accepts, d.x[i]));
          }
          if (!ok) {
            ADD_FAILURE() << f.name << " " << clTypeName<T>() << widths[v] << " lane " << i
                          << " differs from scalar: " << rv[i] << " vs " << r[i];
            break;
          }
        }
      }
    }
  }
};

TEST_P(BuiltinsMiscMathTest, Float) { check<float>("CL3.0"); }
TEST_P(BuiltinsMiscMathTest, Double) { check<double>("CL3.0"); }
// OpenCL C 1.2: the pointer forms through __private, __global and __local.
TEST_P(BuiltinsMiscMathTest, FloatCL12) { check<float>("CL1.2"); }
TEST_P(BuiltinsMiscMathTest, DoubleCL12) { check<double>("CL1.2"); }

// native_* and half_*: forms of the full-precision functions, checked
// against MPFR with the full-precision bounds on their reduced ranges.
TEST_P(BuiltinsMiscMathTest, NativeAndHalf) {
  const char *names[] = {"cos",  "sin",   "tan",   "exp",  "exp2",  "exp10",  "log",
                         "log2", "log10", "rsqrt", "sqrt", "recip", "divide", "powr"};
  std::string s;
  for (const char *prefix : {"native_", "half_"})
    for (const char *name : names) {
      bool binary = std::string(name) == "divide" || std::string(name) == "powr";
      std::string fn = std::string(prefix) + name;
      s += "__kernel void k_" + fn +
           "(__global const float *x, __global const float *y, __global float *r) {\n"
           "  size_t i = get_global_id(0);\n  r[i] = " +
           fn + (binary ? "(x[i], y[i]);\n" : "(x[i]);\n") + "  if (i == 0) { float4 v = " + fn +
           (binary ? "((float4)(x[0]), (float4)(y[0]));" : "((float4)(x[0]));") +
           " if (!(v.s3 == r[0] || (isnan(v.s3) && isnan(r[0])))) r[0] = -12345.0f; }\n}\n";
    }
  Program program = build(s);
  ASSERT_TRUE(program);
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<float> in(0.125f, 8.0f);
  const size_t n = 256;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = in(rng);
    y[i] = in(rng) / 8;
  }
  for (const char *prefix : {"native_", "half_"})
    for (const char *name : names) {
      std::string fn = std::string(prefix) + name;
      Kernel k = kernel(program.get(), ("k_" + fn).c_str());
      Mem xb = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
      Mem yb = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), y.data());
      Mem rb = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
      setArgs(k, xb.get(), yb.get(), rb.get());
      ASSERT_CL(clEnqueueNDRangeKernel(queue_.get(), k.get(), 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
      std::vector<float> r = read<float>(rb.get(), n);
      std::string base = name;
      for (size_t i = 0; i < n; ++i) {
        cm::Reference ref = base == "recip"    ? cm::evaluate("divide", cm::Format::F32, 1.0, x[i])
                            : base == "divide" ? cm::evaluate("divide", cm::Format::F32, x[i], y[i])
                                               : cm::evaluate(name, cm::Format::F32, x[i], y[i]);
        cm::UlpResult e = cm::ulpError(r[i], ref.value, cm::Format::F32);
        // Within the full-precision bound of every one of them (<= 16 ulp for powr).
        ASSERT_TRUE(!e.special && e.ulps <= 16)
            << fn << "(" << x[i] << ", " << y[i] << ") = " << r[i] << " (" << e.ulps << " ulp)";
      }
    }
}

CLTEST_INSTANTIATE(BuiltinsMiscMathTest);

} // namespace
