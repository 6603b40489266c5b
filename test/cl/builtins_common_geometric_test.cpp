// Common and geometric builtins of the library (common.cl, geometric.cl):
// degrees, radians, sign, step, mix, smoothstep (with their scalar-argument
// forms), length, distance, normalize, cross and the fast_ variants, for
// float and double, scalars and every vector width. Inputs include +-0,
// denormals, FLT_MAX/DBL_MAX, infinities and NaNs; references come from long
// double (exact enough: 64-bit significands) or MPFR (cross products).
// A device without CL_FP_DENORM may flush float denormals (denormal_flush.h).
#include "builtins_elementwise.h"
#include "denormal_flush.h"

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

/// ulpError(got, exact) <= ulps; where denormals may be flushed
/// (`flushing`), a zero also matches an exact value in the denormal range
/// and a denormal `got` counts as the zero of its sign.
template <class T> bool withinUlps(T got, long double exact, double ulps, bool flushing) {
  if (ulpError<T>(got, exact) <= ulps)
    return true;
  return flushing && ((got == 0 && inDenormalRange<T>(exact)) ||
                      (isDenormal(got) && ulpError<T>(flushDenormal(got), exact) <= ulps));
}

template <class T> std::array<T, 4> flushDenormals(std::array<T, 4> v) {
  for (T &e : v)
    e = flushDenormal(e);
  return v;
}

/// Whether `accepts(u, w)` holds for the components as given or, where
/// denormals may be flushed, for them with every denormal flushed.
template <class T, class Accepts>
bool acceptedWithFlushedComponents(bool flushing, Accepts &&accepts, const std::array<T, 4> &u,
                                   const std::array<T, 4> &w) {
  auto hasDenormal = [](const std::array<T, 4> &v) { return std::any_of(v.begin(), v.end(), isDenormal<T>); };
  return accepts(u, w) ||
         (flushing && (hasDenormal(u) || hasDenormal(w)) && accepts(flushDenormals(u), flushDenormals(w)));
}

class BuiltinsCommonGeometricTest : public ElementwiseTest {
protected:
  template <class T> bool skipType() { return std::is_same_v<T, cl_double> && !hasDouble(); }
  /// Whether T results may have their denormals flushed (float without CL_FP_DENORM).
  template <class T> bool flushes() { return std::is_same_v<T, cl_float> && flushesFloatDenormals(device()); }

  template <class T> void checkUnary(std::vector<unsigned> widths) {
    if (skipType<T>())
      GTEST_SKIP() << "no fp64";
    const char *name = clTypeName<T>();
    const bool ftz = flushes<T>();
    std::vector<T> x = wideValues<T>(sizeof(T));
    std::vector<Output> outputs = {output<T>("degrees(a0)", name), output<T>("radians(a0)", name),
                                   output<T>("sign(a0)", name)};
    for (unsigned width : widths) {
      SCOPED_TRACE(vectorType(name, width));
      auto results = evaluate(width, x.size(), {input(name, x)}, outputs);
      ASSERT_EQ(outputs.size(), results.size());
      std::vector<T> degrees = valuesOf<T>(results[0]), radians = valuesOf<T>(results[1]);
      std::vector<T> sign = valuesOf<T>(results[2]);
      auto signOf = [](T v) { return std::isnan(v) ? T(0) : v > 0 ? T(1) : v < 0 ? T(-1) : v; };
      for (size_t k = 0; k < x.size(); ++k) {
        const long double v = x[k];
        auto degreesOk = [&](T u) { return withinUlps<T>(degrees[k], u * (180 / kPi), 1.0, ftz); };
        auto radiansOk = [&](T u) { return withinUlps<T>(radians[k], u * (kPi / 180), 1.0, ftz); };
        auto signOk = [&](T u) {
          return sameBits(signOf(u), sign[k]) || (ftz && matchesAfterResultFlush(signOf(u), sign[k]));
        };
        EXPECT_TRUE(acceptedWithFlushedInputs(ftz, degreesOk, x[k]))
            << "degrees(" << hex(x[k]) << ") = " << hex(degrees[k]) << ", " << ulpError<T>(degrees[k], v * (180 / kPi))
            << " ulp";
        EXPECT_TRUE(acceptedWithFlushedInputs(ftz, radiansOk, x[k]))
            << "radians(" << hex(x[k]) << ") = " << hex(radians[k]) << ", " << ulpError<T>(radians[k], v * (kPi / 180))
            << " ulp";
        EXPECT_TRUE(acceptedWithFlushedInputs(ftz, signOk, x[k]))
            << "sign(" << hex(x[k]) << ") = " << hex(sign[k]) << ", expected " << hex(signOf(x[k]));
      }
      if (HasFailure())
        return;
    }
  }

  template <class T> void checkStepMix(std::vector<unsigned> widths) {
    if (skipType<T>())
      GTEST_SKIP() << "no fp64";
    const char *name = clTypeName<T>();
    const bool ftz = flushes<T>();
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
          auto stepOk = [&](T e, T v) { return (v < e ? T(0) : T(1)) == step[k]; };
          ASSERT_TRUE(acceptedWithFlushedInputs(ftz, stepOk, edge[s], x[k]))
              << "step(" << hex(edge[s]) << ", " << hex(x[k]) << ") = " << hex(step[k]);
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
    const bool ftz = flushes<T>();
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
      // Sums of the squares of the first `width` components of u (and of u - w).
      auto squaresOf = [&](const std::array<T, 4> &u) {
        long double squares = 0;
        for (unsigned k = 0; k < width; ++k)
          squares += static_cast<long double>(u[k]) * u[k];
        return squares;
      };
      auto distanceSquaresOf = [&](const std::array<T, 4> &u, const std::array<T, 4> &w) {
        long double squares = 0;
        for (unsigned k = 0; k < width; ++k) {
          const long double d = u[k] - static_cast<long double>(w[k]);
          squares += d * d;
        }
        return squares;
      };
      // normalize(u)[k] (u itself for a zero vector).
      auto normalizeOf = [&](const std::array<T, 4> &u, unsigned k) -> long double {
        const long double squares = squaresOf(u);
        if (squares == 0)
          return u[k];
        bool anyNan = false;
        long double infinities = 0;
        for (unsigned j = 0; j < width; ++j) {
          anyNan |= std::isnan(u[j]);
          infinities += std::isinf(u[j]);
        }
        if (anyNan)
          return NAN;
        if (infinities)
          return std::isinf(u[k]) ? std::copysign(1.0L, u[k]) / std::sqrt(infinities) : std::copysign(0.0L, u[k]);
        return u[k] / std::sqrt(squares);
      };
      for (size_t c = 0; c < a.size(); ++c) {
        std::string text;
        for (unsigned k = 0; k < width; ++k)
          text += hex(a[c][k]) + " ";
        auto lengthOk = [&](const std::array<T, 4> &u, const std::array<T, 4> &) {
          return withinUlps<T>(length[c], std::sqrt(squaresOf(u)), lengthUlps, ftz);
        };
        auto distanceOk = [&](const std::array<T, 4> &u, const std::array<T, 4> &w) {
          return withinUlps<T>(distance[c], std::sqrt(distanceSquaresOf(u, w)), lengthUlps, ftz);
        };
        // Distances of the special cases are not checked in fast mode
        // (their difference may leave the fast functions' range).
        EXPECT_TRUE(acceptedWithFlushedComponents(ftz, lengthOk, a[c], b[c]))
            << prefix << "length(" << text << ") = " << hex(length[c]) << ", "
            << ulpError<T>(length[c], std::sqrt(squaresOf(a[c]))) << " ulp";
        EXPECT_TRUE(acceptedWithFlushedComponents(ftz, distanceOk, a[c], b[c]))
            << prefix << "distance(" << text << ", case " << c << ") = " << hex(distance[c]) << ", "
            << ulpError<T>(distance[c], std::sqrt(distanceSquaresOf(a[c], b[c]))) << " ulp";
        for (unsigned k = 0; k < width; ++k) {
          const T actual = normalized[c * width + k];
          auto normalizeOk = [&](const std::array<T, 4> &u, const std::array<T, 4> &) {
            const long double expected = normalizeOf(u, k);
            if (squaresOf(u) == 0) // a zero vector comes back as it is
              return sameBits(expected, actual) || (ftz && matchesAfterResultFlush(static_cast<T>(expected), actual));
            return withinUlps<T>(actual, expected, normalizeUlps, ftz) &&
                   (expected != 0 || fast || std::signbit(expected) == std::signbit(actual));
          };
          EXPECT_TRUE(acceptedWithFlushedComponents(ftz, normalizeOk, a[c], b[c]))
              << prefix << "normalize(" << text << ")[" << k << "] = " << hex(actual) << ", expected "
              << hex(normalizeOf(a[c], k));
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
    const bool ftz = flushes<T>();
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
      // cross(u, w)[k]: u[k+1] * w[k+2] - u[k+2] * w[k+1], exactly, rounded once.
      auto crossOf = [&](const std::array<T, 4> &u, const std::array<T, 4> &w, unsigned k) -> long double {
        if (k >= 3)
          return 0;
        const unsigned i = (k + 1) % 3, j = (k + 2) % 3;
        mpfr_set_ld(p, u[i], MPFR_RNDN);
        mpfr_mul_d(p, p, w[j], MPFR_RNDN);
        mpfr_set_ld(q, u[j], MPFR_RNDN);
        mpfr_mul_d(q, q, w[i], MPFR_RNDN);
        mpfr_sub(r, p, q, MPFR_RNDN);
        return mpfr_get_ld(r, MPFR_RNDN);
      };
      const double tolerance = std::is_same_v<T, cl_float> ? 1.0 : 2.0;
      for (size_t c = 0; c < a.size(); ++c) {
        for (unsigned k = 0; k < width; ++k) {
          const T actual = cross[c * width + k];
          auto crossOk = [&](const std::array<T, 4> &u, const std::array<T, 4> &w) {
            return withinUlps<T>(actual, crossOf(u, w, k), tolerance, ftz);
          };
          const long double expected = crossOf(a[c], b[c], k);
          EXPECT_TRUE(acceptedWithFlushedComponents(ftz, crossOk, a[c], b[c]))
              << "cross case " << c << " [" << k << "] = " << hex(actual) << ", expected " << hex(expected) << ", "
              << ulpError<T>(actual, expected) << " ulp";
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
