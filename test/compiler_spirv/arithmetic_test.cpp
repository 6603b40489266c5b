// Integer, floating-point and vector arithmetic, conversions, comparisons.
#include "spirv_test_support.h"

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, IntegerOperations) {
  buildOk(R"(
    kernel void k(global int *p, global uint *u, global long *l, global short *s, global uchar *c) {
      int i = get_global_id(0);
      int a = p[i], b = p[i + 1];
      p[i] = a / b + a % b + (a << 3) + (a >> 2) + (a & b) + (a | b) + (a ^ b) + (a < b) + min(a, b) + max(a, b);
      u[i] = u[i] / u[i + 1] + u[i] % 7u + (u[i] >> 5) + popcount(u[i]) + abs(a);
      l[i] = l[i] * l[i + 1] + (long)a + (long)u[i];
      s[i] = (short)(s[i] + s[i + 1]);
      c[i] = (uchar)(c[i] * 3);
    })");
}

TEST(SpirvArithmetic, FloatOperationsAndConversions) {
  buildOk(R"(
    kernel void k(global float *f, global double *d, global int *p) {
      int i = get_global_id(0);
      float x = f[i], y = f[i + 1];
      f[i] = x / y + fabs(x) + floor(y) + ceil(x) + trunc(y) + fmin(x, y) + fmax(x, y) + fmod(x, y);
      d[i] = (double)x * d[i] + (double)p[i];
      p[i] = (int)x + (int)(uint)y + (x < y) + (x != y) + isnan(x) + (x >= y);
    })");
}

TEST(SpirvArithmetic, Vectors) {
  buildOk(R"(
    kernel void k(global float4 *v, global int2 *w, float4 scale) {
      int i = get_global_id(0);
      float4 a = v[i] * scale;
      v[i] = a.wzyx + (float4)(a.x, 1.0f, 2.0f, a.y);
      int2 b = w[i];
      w[i] = (int2)(b.y, b.x) + (b > 3);
    })");
}

TEST(SpirvArithmetic, SelectAndPhi) {
  buildOk(R"(
    kernel void k(global float *f, int n) {
      float acc = 0.0f;
      for (int i = 0; i < n; ++i)
        acc = f[i] > acc ? f[i] : acc * 0.5f;
      f[get_global_id(0)] = acc;
    })");
}

} // namespace
} // namespace compiler::spirv::test
