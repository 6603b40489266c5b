// Common and geometric builtins of the library (common.cl, geometric.cl):
// degrees, radians, sign, step, mix, smoothstep (with their scalar-argument
// forms), length, distance, normalize, cross and the fast_ variants, for
// float and double, scalars and every vector width. Inputs include +-0,
// denormals, FLT_MAX/DBL_MAX, infinities and NaNs; references come from long
// double (exact enough: 64-bit significands) or MPFR (cross products).
#include "builtins_elementwise.h"

#include <mpfr.h>

using namespace cltest;
using namespace cltest::builtins;

namespace {

constexpr long double kPi = 3.141592653589793238462643383279502884L;

/// Special values first, then random values of every magnitude.
template <class T> std::vector<T> wideValues(uint64_t seed) {
  std::vector<T> values = specialValues<T>();
  std::mt19937_64 random(seed);
  const int maxExponent = std::numeric_limits<T>::max_exponent;
  std::uniform_real_distribution<double> mantissa(-2, 2);
  std::uniform_int_distribution<int> exponent(-maxExponent, maxExponent);
  const size_t lanes = laneCount(values.size() + 150);
  while (values.size() < lanes)
    values.push_back(static_cast<T>(std::ldexp(mantissa(random), exponent(random))));
  return values;
}

template <class T> std::vector<T> uniform(size_t n, double lo, double hi, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(lo, hi);
  std::vector<T> values(n);
  for (T &v : values)
    v = static_cast<T>(value(random));
  return values;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

class BuiltinsCommonGeometricTest : public ElementwiseTest {
protected:
  template <class T> bool skipType() { return std::is_same_v<T, cl_double> && !hasDouble(); }

  template <class T> void checkUnary(std::vector<unsigned> widths) {
    if (skipType<T>())
      GTEST_SKIP() << "no fp64";
    const char *name = clTypeName<T>();
    std::vector<T> x = wideValues<T>(sizeof(T));
    std::vector<Output> outputs = {output<T>("degrees(a0)", name), output<T>("radians(a0)", name),
                                   output<T>("sign(a0)", name)};
    for (unsigned width : widths) {
      SCOPED_TRACE(vectorType(name, width));
      auto results = evaluate(width, x.size(), {input(name, x)}, outputs);
      ASSERT_EQ(outputs.size(), results.size());
      std::vector<T> degrees = valuesOf<T>(results[0]), radians = valuesOf<T>(results[1]);
      std::vector<T> sign = valuesOf<T>(results[2]);
      for (size_t k = 0; k < x.size(); ++k) {
        const long double v = x[k];
        EXPECT_LE(ulpError<T>(degrees[k], v * (180 / kPi)), 1.0)
            << "degrees(" << hex(x[k]) << ") = " << hex(degrees[k]);
        EXPECT_LE(ulpError<T>(radians[k], v * (kPi / 180)), 1.0)
            << "radians(" << hex(x[k]) << ") = " << hex(radians[k]);
        const T expectedSign = std::isnan(x[k]) ? T(0) : x[k] > 0 ? T(1) : x[k] < 0 ? T(-1) : x[k];
        EXPECT_TRUE(sameBits(expectedSign, sign[k])) << "sign(" << hex(x[k]) << ") = " << hex(sign[k]);
      }
      if (HasFailure())
        return;
    }
  }

  template <class T> void checkStepMix(std::vector<unsigned> widths) {
    if (skipType<T>())
      GTEST_SKIP() << "no fp64";
    const char *name = clTypeName<T>();
    // step: non-NaN edges and values, including +-0 and infinities.
    std::vector<T> specials;
    for (T v : specialValues<T>())
      if (!std::isnan(v))
        specials.push_back(v);
    const size_t lanes = laneCount(specials.size() * specials.size());
    std::vector<T> edge(lanes), x(lanes);
    for (size_t k = 0; k < lanes; ++k) {
      edge[k] = specials[k % specials.size()];
      x[k] = specials[(k / specials.size()) % specials.size()];
    }
    // mix and smoothstep: a in [0, 1], edge0 < edge1 (else undefined).
    std::vector<T> mx = uniform<T>(lanes, -100, 100, 1), my = uniform<T>(lanes, -100, 100, 2);
    std::vector<T> ma = uniform<T>(lanes, 0, 1, 3);
    std::vector<T> e0 = uniform<T>(lanes, -10, 0, 4), e1 = uniform<T>(lanes, 0.25, 10, 5);
    std::vector<T> sx = uniform<T>(lanes, -12, 12, 6);
    for (size_t k = 0; k < lanes; ++k) {
      e1[k] += e0[k];
      if (k % 7 == 0)
        sx[k] = k % 2 ? e0[k] : e1[k];
    }
    for (unsigned width : widths) {
      SCOPED_TRACE(vectorType(name, width));
      for (bool scalarArgs : {false, true}) {
        if (scalarArgs && width == 1)
          continue;
        SCOPED_TRACE(scalarArgs ? "scalar edge/a forms" : "vector forms");
        std::vector<Input> inputs = {input(name, edge, scalarArgs),
                                     input(name, x),
                                     input(name, mx),
                                     input(name, my),
                                     input(name, ma, scalarArgs),
                                     input(name, e0, scalarArgs),
                                     input(name, e1, scalarArgs),
                                     input(name, sx)};
        std::vector<Output> outputs = {output<T>("step(a0, a1)", name), output<T>("mix(a2, a3, a4)", name),
                                       output<T>("smoothstep(a5, a6, a7)", name)};
        auto results = evaluate(width, lanes, inputs, outputs);
        ASSERT_EQ(outputs.size(), results.size());
        std::vector<T> step = valuesOf<T>(results[0]), mix = valuesOf<T>(results[1]);
        std::vector<T> smooth = valuesOf<T>(results[2]);
        for (size_t k = 0; k < lanes; ++k) {
          const size_t s = scalarArgs ? k / width : k; // index of a per-item argument
          ASSERT_EQ(x[k] < edge[s] ? T(0) : T(1), step[k]) << "step(" << hex(edge[s]) << ", " << hex(x[k]) << ")";
          // mix is x + (y - x) * a: its two roundings bound the error.
          const long double exact = mx[k] + (static_cast<long double>(my[k]) - mx[k]) * ma[s];
          const long double bound =
              4 * std::numeric_limits<T>::epsilon() * std::max(std::fabs(mx[k]), std::fabs(my[k]));
          ASSERT_LE(std::fabs(mix[k] - exact), bound)
              << "mix(" << hex(mx[k]) << ", " << hex(my[k]) << ", " << hex(ma[s]) << ") = " << hex(mix[k]);
          long double t = (sx[k] - static_cast<long double>(e0[s])) / (static_cast<long double>(e1[s]) - e0[s]);
          t = std::min(std::max(t, 0.0L), 1.0L);
          const long double expected = t * t * (3 - 2 * t);
          ASSERT_LE(std::fabs(smooth[k] - expected), 8 * std::numeric_limits<T>::epsilon())
              << "smoothstep(" << hex(e0[s]) << ", " << hex(e1[s]) << ", " << hex(sx[k]) << ") = " << hex(smooth[k]);
        }
      }
    }
  }

  /// Vectors of up to four components: special cases, then random ones.
  template <class T> std::vector<std::array<T, 4>> geometricCases(bool fastRange) {
    using L = std::numeric_limits<T>;
    const T inf = L::infinity(), nan = L::quiet_NaN(), big = L::max() / 2, tiny = L::denorm_min();
    std::vector<std::array<T, 4>> cases;
    if (!fastRange)
      cases = {{0, 0, 0, 0},
               {-0.0, 0, -0.0, 0},
               {inf, 1, 2, 3},
               {1, -inf, 0, -2},
               {nan, 1, 2, 3},
               {1, inf, nan, 0},
               {-inf, inf, 5, 0},
               {L::max(), L::max(), L::max(), L::max()},
               {big, -big, big, 1},
               {tiny, tiny, -tiny, 0},
               {tiny * 3, -tiny, 0, tiny},
               {L::min(), L::min(), 0, -L::min()},
               {big, tiny, 1, -1},
               {T(1e-30), T(3e-30), T(-2e-30), 0},
               {T(1e30), T(-3e30), T(2e30), T(5e29)}};
    cases.push_back({3, 4, 12, 84});
    cases.push_back({-1, 0, 0, 0});
    std::mt19937_64 random(sizeof(T) + fastRange);
    std::uniform_real_distribution<double> component(-512, 512);
    while (cases.size() < 128) {
      std::array<T, 4> c;
      for (T &v : c)
        v = static_cast<T>(component(random));
      cases.push_back(c);
    }
    return cases;
  }

  template <class T> void checkGeometric(bool fast) {
    if (skipType<T>())
      GTEST_SKIP() << "no fp64";
    const char *name = clTypeName<T>();
    const double lengthUlps = fast ? 8192 : std::is_same_v<T, cl_float> ? 1 : 2;
    const double normalizeUlps = fast ? 8192.5 : std::is_same_v<T, cl_float> ? 1 : 2;
    std::vector<std::array<T, 4>> a = geometricCases<T>(fast), b = geometricCases<T>(fast);
    std::rotate(b.begin(), b.begin() + 5, b.end());
    const std::string prefix = fast ? "fast_" : "";
    for (unsigned width : {1u, 2u, 3u, 4u}) {
      SCOPED_TRACE(vectorType(name, width));
      std::vector<T> x, y;
      for (size_t c = 0; c < a.size(); ++c)
        for (unsigned k = 0; k < width; ++k) {
          x.push_back(a[c][k]);
          y.push_back(b[c][k]);
        }
      auto results =
          evaluate(width, x.size(), {input(name, x), input(name, y)},
                   {output<T>(prefix + "length(a0)", name, true), output<T>(prefix + "distance(a0, a1)", name, true),
                    output<T>(prefix + "normalize(a0)", name)});
      ASSERT_EQ(3u, results.size());
      std::vector<T> length = valuesOf<T>(results[0]), distance = valuesOf<T>(results[1]);
      std::vector<T> normalized = valuesOf<T>(results[2]);
      for (size_t c = 0; c < a.size(); ++c) {
        long double squares = 0, distanceSquares = 0;
        bool anyNan = false, anyInf = false;
        std::string text;
        for (unsigned k = 0; k < width; ++k) {
          const long double v = a[c][k], d = v - static_cast<long double>(b[c][k]);
          squares += v * v;
          distanceSquares += d * d;
          anyNan |= std::isnan(a[c][k]);
          anyInf |= std::isinf(a[c][k]);
          text += hex(a[c][k]) + " ";
        }
        // Distances of the special cases are not checked in fast mode
        // (their difference may leave the fast functions' range).
        EXPECT_LE(ulpError<T>(length[c], std::sqrt(squares)), lengthUlps)
            << prefix << "length(" << text << ") = " << hex(length[c]);
        EXPECT_LE(ulpError<T>(distance[c], std::sqrt(distanceSquares)), lengthUlps)
            << prefix << "distance(" << text << ", case " << c << ") = " << hex(distance[c]);
        for (unsigned k = 0; k < width; ++k) {
          const T actual = normalized[c * width + k];
          if (squares == 0) {
            EXPECT_TRUE(sameBits(a[c][k], actual)) << prefix << "normalize(" << text << ")[" << k << "]";
            continue;
          }
          long double expected;
          if (anyNan) {
            expected = NAN;
          } else if (anyInf) {
            long double infinities = 0;
            for (unsigned j = 0; j < width; ++j)
              infinities += std::isinf(a[c][j]);
            expected = std::isinf(a[c][k]) ? std::copysign(1.0L, a[c][k]) / std::sqrt(infinities)
                                           : std::copysign(0.0L, a[c][k]);
          } else {
            expected = a[c][k] / std::sqrt(squares);
          }
          EXPECT_LE(ulpError<T>(actual, expected), normalizeUlps)
              << prefix << "normalize(" << text << ")[" << k << "] = " << hex(actual) << ", expected " << hex(expected);
          if (expected == 0 && !fast)
            EXPECT_EQ(std::signbit(expected), std::signbit(actual))
                << prefix << "normalize(" << text << ")[" << k << "]";
        }
      }
      if (HasFailure())
        return;
    }
  }

  template <class T> void checkCross() {
    if (skipType<T>())
      GTEST_SKIP() << "no fp64";
    const char *name = clTypeName<T>();
    std::vector<std::array<T, 4>> a = geometricCases<T>(false), b = geometricCases<T>(false);
    std::rotate(b.begin(), b.begin() + 3, b.end());
    mpfr_t p, q, r;
    mpfr_inits2(320, p, q, r, static_cast<mpfr_ptr>(nullptr));
    for (unsigned width : {3u, 4u}) {
      SCOPED_TRACE(vectorType(name, width));
      std::vector<T> x, y;
      for (size_t c = 0; c < a.size(); ++c)
        for (unsigned k = 0; k < width; ++k) {
          x.push_back(a[c][k]);
          y.push_back(b[c][k]);
        }
      auto results = evaluate(width, x.size(), {input(name, x), input(name, y)}, {output<T>("cross(a0, a1)", name)});
      ASSERT_EQ(1u, results.size());
      std::vector<T> cross = valuesOf<T>(results[0]);
      for (size_t c = 0; c < a.size(); ++c) {
        for (unsigned k = 0; k < width; ++k) {
          long double expected = 0;
          if (k < 3) {
            // a[k+1] * b[k+2] - a[k+2] * b[k+1], exactly, rounded once.
            const unsigned i = (k + 1) % 3, j = (k + 2) % 3;
            mpfr_set_ld(p, a[c][i], MPFR_RNDN);
            mpfr_mul_d(p, p, b[c][j], MPFR_RNDN);
            mpfr_set_ld(q, a[c][j], MPFR_RNDN);
            mpfr_mul_d(q, q, b[c][i], MPFR_RNDN);
            mpfr_sub(r, p, q, MPFR_RNDN);
            expected = mpfr_get_ld(r, MPFR_RNDN);
          }
          const T actual = cross[c * width + k];
          const double tolerance = std::is_same_v<T, cl_float> ? 1.0 : 2.0;
          EXPECT_LE(ulpError<T>(actual, expected), tolerance)
              << "cross case " << c << " [" << k << "] = " << hex(actual) << ", expected " << hex(expected);
        }
      }
      if (HasFailure())
        break;
    }
    mpfr_clears(p, q, r, static_cast<mpfr_ptr>(nullptr));
  }
};

TEST_P(BuiltinsCommonGeometricTest, DegreesRadiansSignFloat) { checkUnary<cl_float>({1, 3, 8}); }
TEST_P(BuiltinsCommonGeometricTest, DegreesRadiansSignDouble) { checkUnary<cl_double>({1, 2, 16}); }
TEST_P(BuiltinsCommonGeometricTest, StepMixSmoothstepFloat) { checkStepMix<cl_float>({1, 4, 16}); }
TEST_P(BuiltinsCommonGeometricTest, StepMixSmoothstepDouble) { checkStepMix<cl_double>({1, 3, 8}); }
TEST_P(BuiltinsCommonGeometricTest, LengthDistanceNormalizeFloat) { checkGeometric<cl_float>(false); }
TEST_P(BuiltinsCommonGeometricTest, LengthDistanceNormalizeDouble) { checkGeometric<cl_double>(false); }
TEST_P(BuiltinsCommonGeometricTest, FastLengthDistanceNormalize) { checkGeometric<cl_float>(true); }
TEST_P(BuiltinsCommonGeometricTest, CrossFloat) { checkCross<cl_float>(); }
TEST_P(BuiltinsCommonGeometricTest, CrossDouble) { checkCross<cl_double>(); }

CLTEST_INSTANTIATE(BuiltinsCommonGeometricTest);

} // namespace
