// Relational and vector builtins of the library (relational.cl,
// shuffle.cl): the comparisons and classifications of float and double over
// every pair of special values (+-0, denormals, FLT_MIN, FLT_MAX, inf, NaN),
// with scalar results 0/1 and vector results -1/0; any/all on the sign bits;
// bitselect and select (signed and unsigned selectors, scalar "nonzero"
// against vector "most significant bit") for every type; shuffle and
// shuffle2 for every input and mask width with stray high mask bits.
#include "builtins_elementwise.h"
#include "denormal_flush.h"

using namespace cltest;
using namespace cltest::builtins;

namespace {

/// The integer type of T's size, signed or not.
template <size_t Size, bool Signed> struct IntOfSize;
template <> struct IntOfSize<1, true> { using type = cl_char; };
template <> struct IntOfSize<1, false> { using type = cl_uchar; };
template <> struct IntOfSize<2, true> { using type = cl_short; };
template <> struct IntOfSize<2, false> { using type = cl_ushort; };
template <> struct IntOfSize<4, true> { using type = cl_int; };
template <> struct IntOfSize<4, false> { using type = cl_uint; };
template <> struct IntOfSize<8, true> { using type = cl_long; };
template <> struct IntOfSize<8, false> { using type = cl_ulong; };
template <class T> using SignedOf = typename IntOfSize<sizeof(T), true>::type;
template <class T> using UnsignedOf = typename IntOfSize<sizeof(T), false>::type;

template <class T> UnsignedOf<T> bitsOf(T value) {
  UnsignedOf<T> bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

template <class T> std::vector<T> randomBits(size_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(n);
  for (T &v : values) {
    UnsignedOf<T> bits = static_cast<UnsignedOf<T>>(random());
    std::memcpy(&v, &bits, sizeof v);
  }
  return values;
}

class BuiltinsRelationalTest : public ElementwiseTest {
protected:
  template <class T> void checkComparisons(std::vector<unsigned> widths) {
    if (std::is_same_v<T, cl_double> && !hasDouble())
      GTEST_SKIP() << "no fp64";
    using R = SignedOf<T>; // vector result lanes
    using L = std::numeric_limits<T>;
    const char *name = clTypeName<T>();
    // Without CL_FP_DENORM, float operands may be read with their denormals
    // flushed to zero: isequal(denormal, 0) may be true (denormal_flush.h).
    const bool ftz = std::is_same_v<T, cl_float> && flushesFloatDenormals(device());
    // The shared edge values plus -NaN (signbit), a subnormal that is not an
    // extreme, and two values that compare distinctly.
    std::vector<T> specials = specialValues<T>();
    specials.insert(specials.end(), {-L::quiet_NaN(), T(1.5), T(-2.75), T(L::min() / 2)});
    const size_t lanes = laneCount(specials.size() * specials.size());
    std::vector<T> x(lanes), y(lanes);
    for (size_t k = 0; k < lanes; ++k) {
      x[k] = specials[k % specials.size()];
      y[k] = specials[(k / specials.size()) % specials.size()];
    }
    struct Check {
      const char *fn;
      bool binary;
      bool (*reference)(T, T);
    };
    const std::vector<Check> checks = {
        {"isequal", true, [](T a, T b) { return a == b; }},
        {"isnotequal", true, [](T a, T b) { return a != b; }},
        {"isgreater", true, [](T a, T b) { return a > b; }},
        {"isgreaterequal", true, [](T a, T b) { return a >= b; }},
        {"isless", true, [](T a, T b) { return a < b; }},
        {"islessequal", true, [](T a, T b) { return a <= b; }},
        {"islessgreater", true, [](T a, T b) { return a < b || a > b; }},
        {"isordered", true, [](T a, T b) { return !std::isnan(a) && !std::isnan(b); }},
        {"isunordered", true, [](T a, T b) { return std::isnan(a) || std::isnan(b); }},
        {"isfinite", false, [](T a, T) { return static_cast<bool>(std::isfinite(a)); }},
        {"isinf", false, [](T a, T) { return static_cast<bool>(std::isinf(a)); }},
        {"isnan", false, [](T a, T) { return static_cast<bool>(std::isnan(a)); }},
        {"isnormal", false, [](T a, T) { return static_cast<bool>(std::isnormal(a)); }},
        {"signbit", false, [](T a, T) { return static_cast<bool>(std::signbit(a)); }},
    };
    for (unsigned width : widths) {
      SCOPED_TRACE(vectorType(name, width));
      // Scalars return int 0/1; vectors -1/0 in the signed type of T's size.
      const char *resultName = width == 1 ? "int" : clTypeName<R>();
      const size_t resultSize = width == 1 ? sizeof(cl_int) : sizeof(R);
      std::vector<Output> outputs;
      for (const Check &check : checks)
        outputs.push_back(Output{std::string(check.fn) + (check.binary ? "(a0, a1)" : "(a0)"), resultName, resultSize});
      auto results = evaluate(width, lanes, {input(name, x), input(name, y)}, outputs);
      ASSERT_EQ(outputs.size(), results.size());
      for (size_t c = 0; c < checks.size(); ++c) {
        std::vector<int64_t> actual(lanes);
        if (width == 1) {
          std::vector<cl_int> v = valuesOf<cl_int>(results[c]);
          std::copy(v.begin(), v.end(), actual.begin());
        } else {
          std::vector<R> v = valuesOf<R>(results[c]);
          std::copy(v.begin(), v.end(), actual.begin());
        }
        for (size_t k = 0; k < lanes; ++k) {
          auto expectedFor = [&](T a, T b) -> int64_t { return checks[c].reference(a, b) ? (width == 1 ? 1 : -1) : 0; };
          auto accepts = [&](T a, T b) { return expectedFor(a, b) == actual[k]; };
          ASSERT_TRUE(acceptedWithFlushedInputs(ftz, accepts, x[k], y[k]))
              << checks[c].fn << "(" << hex(x[k]) << ", " << hex(y[k]) << ") = " << actual[k] << ", expected "
              << expectedFor(x[k], y[k]);
        }
      }
    }
  }

  template <class T> void checkAnyAll() {
    const char *name = clTypeName<T>();
    for (unsigned width : allWidths()) {
      SCOPED_TRACE(vectorType(name, width));
      // Each work-item's lanes: a bit pattern of sign bits (every pattern for
      // small widths), other bits random.
      const size_t items = 64;
      std::vector<T> x = randomBits<T>(items * width, width * 11 + sizeof(T));
      for (size_t i = 0; i < items; ++i)
        for (unsigned k = 0; k < width; ++k) {
          const uint64_t pattern = i < 2 ? (i ? ~0ull : 0) : i * 2654435761u;
          using U = UnsignedOf<T>;
          U bits = static_cast<U>(x[i * width + k]);
          const U sign = static_cast<U>(U(1) << (8 * sizeof(T) - 1));
          bits = ((pattern >> (k % 64)) & 1) ? (bits | sign) : (bits & ~sign);
          x[i * width + k] = static_cast<T>(bits);
        }
      auto results = evaluate(width, items * width, {input(name, x)},
                              {output<cl_int>("any(a0)", "int", true), output<cl_int>("all(a0)", "int", true)});
      ASSERT_EQ(2u, results.size());
      std::vector<cl_int> any = valuesOf<cl_int>(results[0]), all = valuesOf<cl_int>(results[1]);
      for (size_t i = 0; i < items; ++i) {
        bool expectedAny = false, expectedAll = true;
        for (unsigned k = 0; k < width; ++k) {
          expectedAny |= x[i * width + k] < 0;
          expectedAll &= x[i * width + k] < 0;
        }
        ASSERT_EQ(expectedAny ? 1 : 0, any[i]) << "any, item " << i;
        ASSERT_EQ(expectedAll ? 1 : 0, all[i]) << "all, item " << i;
      }
    }
  }

  template <class T> void checkSelect(std::vector<unsigned> widths) {
    if (std::is_same_v<T, cl_double> && !hasDouble())
      GTEST_SKIP() << "no fp64";
    using S = SignedOf<T>;
    using U = UnsignedOf<T>;
    const char *name = clTypeName<T>();
    const size_t lanes = laneCount(400);
    std::vector<T> a = randomBits<T>(lanes, 1), b = randomBits<T>(lanes, 2), c = randomBits<T>(lanes, 3);
    std::vector<S> signedSelector = randomBits<S>(lanes, 4);
    // Selectors that tell the scalar rule (nonzero) from the vector one (MSB).
    const S interesting[] = {0, 1, -1, std::numeric_limits<S>::min(), std::numeric_limits<S>::max(), 2};
    for (size_t k = 0; k < lanes; k += 2)
      signedSelector[k] = interesting[(k / 2) % 6];
    std::vector<U> unsignedSelector(lanes);
    for (size_t k = 0; k < lanes; ++k)
      unsignedSelector[k] = static_cast<U>(signedSelector[(k + 1) % lanes]);
    for (unsigned width : widths) {
      SCOPED_TRACE(vectorType(name, width));
      auto results = evaluate(width, lanes,
                              {input(name, a), input(name, b), input(name, c), input(clTypeName<S>(), signedSelector),
                               input(clTypeName<U>(), unsignedSelector)},
                              {output<T>("bitselect(a0, a1, a2)", name), output<T>("select(a0, a1, a3)", name),
                               output<T>("select(a0, a1, a4)", name)});
      ASSERT_EQ(3u, results.size());
      std::vector<T> bitselect = valuesOf<T>(results[0]), selectS = valuesOf<T>(results[1]);
      std::vector<T> selectU = valuesOf<T>(results[2]);
      for (size_t k = 0; k < lanes; ++k) {
        const U expectedBits = static_cast<U>((bitsOf(a[k]) & ~bitsOf(c[k])) | (bitsOf(b[k]) & bitsOf(c[k])));
        ASSERT_EQ(expectedBits, bitsOf(bitselect[k])) << "bitselect lane " << k;
        const bool pickS = width == 1 ? signedSelector[k] != 0 : signedSelector[k] < 0;
        ASSERT_EQ(bitsOf(pickS ? b[k] : a[k]), bitsOf(selectS[k]))
            << "select with " << clTypeName<S>() << " " << +signedSelector[k];
        const bool pickU = width == 1 ? unsignedSelector[k] != 0 : static_cast<S>(unsignedSelector[k]) < 0;
        ASSERT_EQ(bitsOf(pickU ? b[k] : a[k]), bitsOf(selectU[k]))
            << "select with " << clTypeName<U>() << " " << +unsignedSelector[k];
      }
    }
  }

  /// shuffle and shuffle2 for every (input width, mask width) pair in one program.
  template <class T> void checkShuffle() {
    if (std::is_same_v<T, cl_double> && !hasDouble())
      GTEST_SKIP() << "no fp64";
    using U = UnsignedOf<T>;
    const char *name = clTypeName<T>();
    const std::string uname = clTypeName<U>();
    const unsigned widths[] = {2, 4, 8, 16};
    std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                         "kernel void run(global const " +
                         std::string(name) + " *x, global const " + name + " *y, global const " + uname +
                         " *mask, global " + name + " *out) {\n";
    size_t offset = 0;
    for (unsigned m : widths)
      for (unsigned n : widths) {
        const std::string vm = vectorType(name, m), vn = vectorType(name, n), vmask = vectorType(uname, n);
        append(source, "  { ", vm, " a, b; ", vmask, " k;\n    for (int i = 0; i < ", std::to_string(m),
               "; ++i) { a[i] = x[i]; b[i] = y[i]; }\n    for (int i = 0; i < ", std::to_string(n),
               "; ++i) k[i] = mask[i];\n    ", vn, " r = shuffle(a, k), r2 = shuffle2(a, b, k);\n",
               "    for (int i = 0; i < ", std::to_string(n), "; ++i) { out[", std::to_string(offset),
               " + i] = r[i]; out[", std::to_string(offset + n), " + i] = r2[i]; } }\n");
        offset += 2 * n;
      }
    source += "}\n";
    Program program = build(source);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "run");
    std::vector<T> x(16), y(16);
    for (int i = 0; i < 16; ++i) {
      x[i] = static_cast<T>(i + 1);
      y[i] = static_cast<T>(100 + i);
    }
    // Mask lanes with high bits set beyond the ones that select.
    std::mt19937_64 random(sizeof(T));
    std::vector<U> mask(16);
    for (U &v : mask)
      v = static_cast<U>(random());
    mask[0] = static_cast<U>(~U(0));
    mask[1] = 0;
    Mem xs = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 16 * sizeof(T), x.data());
    Mem ys = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 16 * sizeof(T), y.data());
    Mem ms = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 16 * sizeof(U), mask.data());
    Mem out = buffer(CL_MEM_WRITE_ONLY, offset * sizeof(T));
    setArgs(k, xs.get(), ys.get(), ms.get(), out.get());
    const size_t one = 1;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    std::vector<T> actual = read<T>(out, offset);
    offset = 0;
    for (unsigned m : widths)
      for (unsigned n : widths) {
        for (unsigned i = 0; i < n; ++i) {
          EXPECT_EQ(x[mask[i] % m], actual[offset + i]) << "shuffle " << name << m << " -> " << n << " lane " << i;
          const unsigned lane = mask[i] % (2 * m);
          EXPECT_EQ(lane < m ? x[lane] : y[lane - m], actual[offset + n + i])
              << "shuffle2 " << name << m << " -> " << n << " lane " << i;
        }
        offset += 2 * n;
      }
  }
};

TEST_P(BuiltinsRelationalTest, ComparisonsFloat) { checkComparisons<cl_float>({1, 3, 16}); }
TEST_P(BuiltinsRelationalTest, ComparisonsDouble) { checkComparisons<cl_double>({1, 4, 8}); }

TEST_P(BuiltinsRelationalTest, AnyAll) {
  checkAnyAll<cl_char>();
  checkAnyAll<cl_short>();
  checkAnyAll<cl_int>();
  checkAnyAll<cl_long>();
}

TEST_P(BuiltinsRelationalTest, SelectBitselectIntegers) {
  checkSelect<cl_char>({1, 16});
  checkSelect<cl_uchar>({1, 3});
  checkSelect<cl_short>({1, 8});
  checkSelect<cl_ushort>({1, 2});
  checkSelect<cl_int>({1, 4});
  checkSelect<cl_uint>({1, 16});
  checkSelect<cl_long>({1, 3});
  checkSelect<cl_ulong>({1, 8});
}
TEST_P(BuiltinsRelationalTest, SelectBitselectFloat) { checkSelect<cl_float>({1, 3, 4}); }
TEST_P(BuiltinsRelationalTest, SelectBitselectDouble) { checkSelect<cl_double>({1, 2, 16}); }

TEST_P(BuiltinsRelationalTest, ShuffleUchar) { checkShuffle<cl_uchar>(); }
TEST_P(BuiltinsRelationalTest, ShuffleShort) { checkShuffle<cl_short>(); }
TEST_P(BuiltinsRelationalTest, ShuffleInt) { checkShuffle<cl_int>(); }
TEST_P(BuiltinsRelationalTest, ShuffleFloat) { checkShuffle<cl_float>(); }
TEST_P(BuiltinsRelationalTest, ShuffleUlong) { checkShuffle<cl_ulong>(); }
TEST_P(BuiltinsRelationalTest, ShuffleDouble) { checkShuffle<cl_double>(); }

CLTEST_INSTANTIATE(BuiltinsRelationalTest);

} // namespace
