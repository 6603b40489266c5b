// Structs mixing member sizes ({int; char;}, nested with an int2, with a
// short array and a long) assigned whole in OpenCL C: copied between
// __global buffers, built in private memory, read from a __constant table,
// and passed through private and __local arrays. Each member is checked;
// the padding is not (a copy may or may not carry it).
#include "cl_test.h"

#include <cstddef>
#include <string>
#include <vector>

using namespace cltest;

namespace {

struct Inner {
  cl_int i;
  cl_char c;
};
struct Outer {
  alignas(8) cl_int v[2];
  Inner inner;
  cl_short s;
};
struct Mixed {
  cl_char c;
  cl_short s[3];
  cl_int u;
  cl_long l;
};
static_assert(sizeof(Inner) == 8 && sizeof(Outer) == 24 && offsetof(Outer, inner) == 8 && offsetof(Outer, s) == 16);
static_assert(sizeof(Mixed) == 24 && offsetof(Mixed, s) == 2 && offsetof(Mixed, u) == 8 && offsetof(Mixed, l) == 16);

const char *kSource = R"(
  typedef struct { int i; char c; } Inner;
  typedef struct { int2 v; Inner inner; short s; } Outer;
  typedef struct { char c; short s[3]; int u; long l; } Mixed;

  __constant Mixed table[2] = {{-3, {1, -2, 3}, 0x12345678, -5L},
                               {127, {-32768, 32767, 0}, -1, 0x7fffffffffffffffL}};

  kernel void copy(global Outer *out, global const Outer *in, global Mixed *mixedOut, global const Mixed *mixedIn) {
    size_t i = get_global_id(0);
    out[i] = in[i];
    mixedOut[i] = mixedIn[i];
  }

  kernel void constants(global Outer *out, global Mixed *mixedOut) {
    size_t i = get_global_id(0);
    Outer built = {(int2)((int)i, -(int)i), {(int)i * 3, (char)(i + 100)}, (short)(i - 7)};
    out[i] = built;
    mixedOut[i] = table[i & 1];
  }

  kernel void through_private_and_local(global Inner *out, global const Inner *in, local Inner *shared) {
    size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    Inner mine[4];
    for (int j = 0; j < 4; ++j)
      mine[j] = in[(i + j) % get_global_size(0)];
    shared[l] = mine[i % 4];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = shared[(l + 1) % n];
  }
)";

class StructCopyTest : public DeviceTest {
protected:
  template <typename T> Mem filled(size_t count) {
    std::vector<unsigned char> bytes(count * sizeof(T), 0xa5);
    return buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
  }
  template <typename T> Mem input(std::vector<T> &values) {
    return buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T), values.data());
  }
  cl_int run(cl_kernel k, size_t global, size_t local = 0) {
    return clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr);
  }
};

void expectInner(const Inner &expected, const Inner &got, const std::string &where) {
  EXPECT_EQ(expected.i, got.i) << where << " .i";
  EXPECT_EQ(int(expected.c), int(got.c)) << where << " .c";
}

void expectOuter(const Outer &expected, const Outer &got, const std::string &where) {
  EXPECT_EQ(expected.v[0], got.v[0]) << where << " .v.x";
  EXPECT_EQ(expected.v[1], got.v[1]) << where << " .v.y";
  expectInner(expected.inner, got.inner, where + " .inner");
  EXPECT_EQ(expected.s, got.s) << where << " .s";
}

void expectMixed(const Mixed &expected, const Mixed &got, const std::string &where) {
  EXPECT_EQ(int(expected.c), int(got.c)) << where << " .c";
  for (int j = 0; j < 3; ++j)
    EXPECT_EQ(expected.s[j], got.s[j]) << where << " .s[" << j << "]";
  EXPECT_EQ(expected.u, got.u) << where << " .u";
  EXPECT_EQ(expected.l, got.l) << where << " .l";
}

TEST_P(StructCopyTest, GlobalToGlobal) {
  Program program = build(kSource);
  ASSERT_TRUE(program);
  constexpr size_t n = 45;
  std::vector<Outer> outers(n);
  std::vector<Mixed> mixed(n);
  for (size_t i = 0; i < n; ++i) {
    cl_int x = cl_int(cl_uint(i) * 2654435761u);
    outers[i] = {{x, ~x}, {x ^ 0x5a5a5a5a, cl_char(i * 7)}, cl_short(-1000 * cl_int(i))};
    mixed[i] = {cl_char(-cl_int(i)), {cl_short(i), cl_short(-30000 + cl_int(i)), cl_short(~i)}, x, cl_long(x) * 65537};
  }
  Mem in = input(outers), mixedIn = input(mixed), out = filled<Outer>(n), mixedOut = filled<Mixed>(n);
  Kernel k = kernel(program, "copy");
  ASSERT_TRUE(k);
  setArgs(k, out.get(), in.get(), mixedOut.get(), mixedIn.get());
  ASSERT_CL(run(k, n));
  std::vector<Outer> gotOuters = read<Outer>(out, n);
  std::vector<Mixed> gotMixed = read<Mixed>(mixedOut, n);
  for (size_t i = 0; i < n; ++i) {
    expectOuter(outers[i], gotOuters[i], "out[" + std::to_string(i) + "]");
    expectMixed(mixed[i], gotMixed[i], "mixedOut[" + std::to_string(i) + "]");
  }
}

TEST_P(StructCopyTest, PrivateInitialiserAndConstantTable) {
  Program program = build(kSource);
  ASSERT_TRUE(program);
  constexpr size_t n = 33;
  Mem out = filled<Outer>(n), mixedOut = filled<Mixed>(n);
  Kernel k = kernel(program, "constants");
  ASSERT_TRUE(k);
  setArgs(k, out.get(), mixedOut.get());
  ASSERT_CL(run(k, n));
  std::vector<Outer> gotOuters = read<Outer>(out, n);
  std::vector<Mixed> gotMixed = read<Mixed>(mixedOut, n);
  const Mixed table[2] = {{-3, {1, -2, 3}, 0x12345678, -5}, {127, {-32768, 32767, 0}, -1, 0x7fffffffffffffffLL}};
  for (size_t i = 0; i < n; ++i) {
    cl_int x = cl_int(i);
    expectOuter({{x, -x}, {3 * x, cl_char(i + 100)}, cl_short(x - 7)}, gotOuters[i], "out[" + std::to_string(i) + "]");
    expectMixed(table[i & 1], gotMixed[i], "mixedOut[" + std::to_string(i) + "]");
  }
}

TEST_P(StructCopyTest, ThroughPrivateAndLocalArrays) {
  Program program = build(kSource);
  ASSERT_TRUE(program);
  constexpr size_t n = 64, group = 16;
  std::vector<Inner> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = {cl_int(i) * -77777 + 5, cl_char(200 + i)};
  Mem input = this->input(in), out = filled<Inner>(n);
  Kernel k = kernel(program, "through_private_and_local");
  ASSERT_TRUE(k);
  setArgs(k, out.get(), input.get());
  ASSERT_CL(clSetKernelArg(k, 2, group * sizeof(Inner), nullptr));
  ASSERT_CL(run(k, n, group));
  std::vector<Inner> got = read<Inner>(out, n);
  for (size_t i = 0; i < n; ++i) {
    // Work-item i reads what its neighbour in the group put in __local
    // memory: its private copy of in[(j + j % 4) % n].
    size_t j = i - i % group + (i % group + 1) % group;
    expectInner(in[(j + j % 4) % n], got[i], "out[" + std::to_string(i) + "]");
  }
}

} // namespace

CLTEST_INSTANTIATE(StructCopyTest);
