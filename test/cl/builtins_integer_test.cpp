// Integer builtins of the library (integer.cl): abs_diff, add_sat, sub_sat,
// hadd, rhadd, mad_hi, mad_sat, mul24, mad24 and upsample, for every integer
// type and for scalars and every vector width, over the type's edge values
// (MIN, MAX, 0, +-1, ...) in every pair, and random values. References are
// computed on the host in 128-bit arithmetic.
#include "builtins_elementwise.h"

using namespace cltest;
using namespace cltest::builtins;

namespace {

using i128 = __int128;

template <class T> std::vector<T> edgeValues() {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {0,
                           1,
                           2,
                           3,
                           L::max(),
                           static_cast<T>(L::max() - 1),
                           static_cast<T>(L::max() / 2),
                           static_cast<T>(L::max() / 2 + 1),
                           L::min(),
                           static_cast<T>(L::min() + 1),
                           static_cast<T>(0x55),
                           static_cast<T>(~static_cast<T>(0x55))};
  if constexpr (L::is_signed)
    values.insert(values.end(), {-1, -2, -3, static_cast<T>(L::min() / 2), static_cast<T>(L::min() / 2 - 1)});
  return values;
}

/// Every pair (and a third argument cycling over the edge values), then random values.
template <class T> std::vector<std::vector<T>> operands(uint64_t seed) {
  const std::vector<T> edges = edgeValues<T>();
  const size_t pairs = edges.size() * edges.size();
  const size_t lanes = laneCount(pairs + 200);
  std::mt19937_64 random(seed);
  std::vector<std::vector<T>> args(3, std::vector<T>(lanes));
  for (size_t k = 0; k < lanes; ++k) {
    if (k < pairs) {
      args[0][k] = edges[k % edges.size()];
      args[1][k] = edges[k / edges.size()];
      args[2][k] = edges[(k * 7 + k / edges.size()) % edges.size()];
    } else {
      for (auto &arg : args)
        arg[k] = static_cast<T>(random());
    }
  }
  return args;
}

template <class T> T saturate(i128 value) {
  using L = std::numeric_limits<T>;
  return static_cast<T>(value < L::min() ? L::min() : value > L::max() ? L::max() : value);
}

class BuiltinsIntegerTest : public ElementwiseTest {
protected:
  template <class T> void checkArithmetic(unsigned middleWidth) {
    using U = std::make_unsigned_t<T>;
    const char *name = clTypeName<T>();
    const char *uname = clTypeName<U>();
    std::vector<std::vector<T>> args = operands<T>(sizeof(T) * 131 + std::is_signed_v<T>);
    const size_t lanes = args[0].size();
    std::vector<Output> outputs = {output<U>("abs_diff(a0, a1)", uname),  output<T>("add_sat(a0, a1)", name),
                                   output<T>("sub_sat(a0, a1)", name),    output<T>("hadd(a0, a1)", name),
                                   output<T>("rhadd(a0, a1)", name),      output<T>("mad_hi(a0, a1, a2)", name),
                                   output<T>("mad_sat(a0, a1, a2)", name)};
    // Each program build costs time: scalars, 16 lanes and one width between
    // (every width is covered across the types).
    for (unsigned width : {1u, middleWidth, 16u}) {
      SCOPED_TRACE(vectorType(name, width));
      auto results =
          evaluate(width, lanes, {input(name, args[0]), input(name, args[1]), input(name, args[2])}, outputs);
      ASSERT_EQ(outputs.size(), results.size());
      std::vector<U> absDiff = valuesOf<U>(results[0]);
      std::vector<T> addSat = valuesOf<T>(results[1]), subSat = valuesOf<T>(results[2]);
      std::vector<T> hadd = valuesOf<T>(results[3]), rhadd = valuesOf<T>(results[4]);
      std::vector<T> madHi = valuesOf<T>(results[5]), madSat = valuesOf<T>(results[6]);
      for (size_t k = 0; k < lanes; ++k) {
        const T x = args[0][k], y = args[1][k], z = args[2][k];
        const i128 wx = x, wy = y;
        const i128 diff = wx - wy;
        ASSERT_EQ(static_cast<U>(diff < 0 ? -diff : diff), absDiff[k]) << "abs_diff(" << +x << ", " << +y << ")";
        ASSERT_EQ(saturate<T>(wx + wy), addSat[k]) << "add_sat(" << +x << ", " << +y << ")";
        ASSERT_EQ(saturate<T>(wx - wy), subSat[k]) << "sub_sat(" << +x << ", " << +y << ")";
        // >> on a negative __int128 is an arithmetic shift: floor division.
        ASSERT_EQ(static_cast<T>((wx + wy) >> 1), hadd[k]) << "hadd(" << +x << ", " << +y << ")";
        ASSERT_EQ(static_cast<T>((wx + wy + 1) >> 1), rhadd[k]) << "rhadd(" << +x << ", " << +y << ")";
        // The full product in 128 bits (unsigned: a ulong square needs all 128).
        i128 high;
        i128 product;
        if constexpr (std::is_signed_v<T>) {
          product = wx * wy;
          high = product >> (8 * sizeof(T));
        } else {
          unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
          high = static_cast<i128>(p >> (8 * sizeof(T)));
          product = static_cast<i128>(p);
        }
        ASSERT_EQ(static_cast<T>(static_cast<U>(high) + static_cast<U>(z)), madHi[k])
            << "mad_hi(" << +x << ", " << +y << ", " << +z << ")";
        T expectedSat;
        if constexpr (std::is_same_v<T, cl_ulong>) {
          unsigned __int128 sum = static_cast<unsigned __int128>(x) * y + z;
          expectedSat = sum > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : static_cast<T>(sum);
        } else {
          expectedSat = saturate<T>(product + z);
        }
        ASSERT_EQ(expectedSat, madSat[k]) << "mad_sat(" << +x << ", " << +y << ", " << +z << ")";
      }
    }
  }

  /// mul24/mad24 on operands in the 24-bit range (the spec leaves others undefined).
  template <class T> void check24(unsigned middleWidth) {
    const char *name = clTypeName<T>();
    const i128 lo = std::is_signed_v<T> ? -(1 << 23) : 0, hi = std::is_signed_v<T> ? (1 << 23) - 1 : (1 << 24) - 1;
    std::vector<T> edges = {
        0, 1, 2, static_cast<T>(hi), static_cast<T>(hi - 1), static_cast<T>(lo), static_cast<T>(lo + 1), 0x1234};
    if constexpr (std::is_signed_v<T>)
      edges.insert(edges.end(), {-1, -2, -0x1234});
    const size_t pairs = edges.size() * edges.size();
    const size_t lanes = laneCount(pairs + 200);
    std::mt19937_64 random(24);
    std::vector<std::vector<T>> args(3, std::vector<T>(lanes));
    for (size_t k = 0; k < lanes; ++k) {
      args[0][k] =
          k < pairs ? edges[k % edges.size()] : static_cast<T>(lo + static_cast<i128>(random() % (hi - lo + 1)));
      args[1][k] =
          k < pairs ? edges[k / edges.size()] : static_cast<T>(lo + static_cast<i128>(random() % (hi - lo + 1)));
      args[2][k] = static_cast<T>(random());
    }
    std::vector<Output> outputs = {output<T>("mul24(a0, a1)", name), output<T>("mad24(a0, a1, a2)", name)};
    for (unsigned width : {1u, middleWidth, 16u}) {
      SCOPED_TRACE(vectorType(name, width));
      auto results =
          evaluate(width, lanes, {input(name, args[0]), input(name, args[1]), input(name, args[2])}, outputs);
      ASSERT_EQ(outputs.size(), results.size());
      std::vector<T> mul = valuesOf<T>(results[0]), mad = valuesOf<T>(results[1]);
      for (size_t k = 0; k < lanes; ++k) {
        const T x = args[0][k], y = args[1][k], z = args[2][k];
        const uint32_t product = static_cast<uint32_t>(static_cast<int64_t>(x) * static_cast<int64_t>(y));
        ASSERT_EQ(static_cast<T>(product), mul[k]) << "mul24(" << x << ", " << y << ")";
        ASSERT_EQ(static_cast<T>(product + static_cast<uint32_t>(z)), mad[k])
            << "mad24(" << x << ", " << y << ", " << z << ")";
      }
    }
  }

  /// upsample(H hi, L lo) -> R: (hi << bits(L)) | lo.
  template <class H> void checkUpsample(unsigned vectorWidth) {
    using L = std::make_unsigned_t<H>;
    using R =
        std::conditional_t<sizeof(H) == 1, std::conditional_t<std::is_signed_v<H>, cl_short, cl_ushort>,
                           std::conditional_t<sizeof(H) == 2, std::conditional_t<std::is_signed_v<H>, cl_int, cl_uint>,
                                              std::conditional_t<std::is_signed_v<H>, cl_long, cl_ulong>>>;
    std::vector<std::vector<H>> args = operands<H>(sizeof(H) * 17);
    const size_t lanes = args[0].size();
    std::vector<L> low(lanes);
    for (size_t k = 0; k < lanes; ++k)
      low[k] = static_cast<L>(args[1][k]);
    std::vector<Output> outputs = {output<R>("upsample(a0, a1)", clTypeName<R>())};
    for (unsigned width : {1u, vectorWidth}) {
      SCOPED_TRACE(vectorType(clTypeName<H>(), width));
      auto results = evaluate(width, lanes, {input(clTypeName<H>(), args[0]), input(clTypeName<L>(), low)}, outputs);
      ASSERT_EQ(outputs.size(), results.size());
      std::vector<R> actual = valuesOf<R>(results[0]);
      for (size_t k = 0; k < lanes; ++k) {
        const R expected = static_cast<R>(
            (static_cast<std::make_unsigned_t<R>>(static_cast<R>(args[0][k])) << (8 * sizeof(H))) | low[k]);
        ASSERT_EQ(expected, actual[k]) << "upsample(" << +args[0][k] << ", " << +low[k] << ")";
      }
    }
  }
};

TEST_P(BuiltinsIntegerTest, Char) { checkArithmetic<cl_char>(3); }
TEST_P(BuiltinsIntegerTest, Uchar) { checkArithmetic<cl_uchar>(2); }
TEST_P(BuiltinsIntegerTest, Short) { checkArithmetic<cl_short>(4); }
TEST_P(BuiltinsIntegerTest, Ushort) { checkArithmetic<cl_ushort>(8); }
TEST_P(BuiltinsIntegerTest, Int) { checkArithmetic<cl_int>(3); }
TEST_P(BuiltinsIntegerTest, Uint) { checkArithmetic<cl_uint>(4); }
TEST_P(BuiltinsIntegerTest, Long) { checkArithmetic<cl_long>(2); }
TEST_P(BuiltinsIntegerTest, Ulong) { checkArithmetic<cl_ulong>(8); }

TEST_P(BuiltinsIntegerTest, Mul24Mad24) {
  check24<cl_int>(3);
  check24<cl_uint>(8);
}

TEST_P(BuiltinsIntegerTest, Upsample) {
  checkUpsample<cl_char>(2);
  checkUpsample<cl_uchar>(3);
  checkUpsample<cl_short>(4);
  checkUpsample<cl_ushort>(8);
  checkUpsample<cl_int>(16);
  checkUpsample<cl_uint>(3);
}

CLTEST_INSTANTIATE(BuiltinsIntegerTest);

} // namespace
